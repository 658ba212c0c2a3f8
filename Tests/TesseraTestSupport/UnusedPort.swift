import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ports this test process has handed out. A port is free when it is handed out and taken only when its server
/// binds it, which may be seconds later (after a PostgreSQL schema's migrations): two tests starting servers at once
/// could both find one port free. The second server then fails to bind, and its test, whose health probe reached the
/// first server (same admin token), sends its requests to another test's database.
private let handedOut = Mutex(Set<Int>())

extension ServeProcess {
    /// A loopback TCP port for a test server: random in 20000-32767, below Linux's ephemeral range (32768-60999), so
    /// no outgoing connection of the machine (PostgreSQL pools, HTTP clients) holds it, free at the time of the call
    /// (bound and released once), and never handed out before in this process.
    public static func unusedPort() -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_768)
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if canBind(port) { return port }
        }
        return Int.random(in: 20_000..<32_768)
    }

    private static func canBind(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A loopback port that takes connections and never answers: a stopped server, or the port held by something else.
/// The kernel completes the handshakes into the listen queue; nothing reads them.
public final class SilentListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    /// Listens on an unused loopback port.
    public init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, named, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
