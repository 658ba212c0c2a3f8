public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a loopback port for tests that need the wire itself: partial requests, held idle
/// connections, `Expect: 100-continue`, methods URL clients refuse to send.
public final class RawHTTPConnection: @unchecked Sendable {
    private var descriptor: Int32

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: The port.
    ///   - timeout: Longest wait for a read.
    /// - Throws: ``RawHTTPError`` when the connection fails.
    ///   - receiveBufferSize: The socket's receive buffer (`SO_RCVBUF`), set before connecting; `nil` for the system's.
    public init(port: Int, timeout: TimeInterval = 10, receiveBufferSize: Int? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RawHTTPError("socket: errno \(errno)") }
        if var size = receiveBufferSize.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            // close() marks the descriptor closed: deinit runs for an initializer that throws here, and a second
            // close could hit a descriptor number the process has reused meanwhile (another test's socket).
            close()
            throw RawHTTPError("connect: \(String(cString: strerror(code))) (errno \(code))")
        }
        setTimeout(timeout)
    }

    deinit { close() }

    /// Sets the longest wait of each read.
    public func setTimeout(_ timeout: TimeInterval) {
        var value = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sets the longest wait of each write (a peer that stops reading): the write then throws.
    public func setSendTimeout(_ timeout: TimeInterval) {
        var value = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes text.
    /// - Throws: ``RawHTTPError`` when the peer is gone.
    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Writes bytes.
    /// - Throws: ``RawHTTPError`` when the peer is gone.
    public func send(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { throw RawHTTPError("send: errno \(errno)") }
                offset += written
            }
        }
    }

    /// What one read returned.
    public enum ReadResult: Sendable, Equatable {
        /// Bytes arrived.
        case data(Data)
        /// The peer closed the connection (or reset it).
        case closed
        /// Nothing arrived within the timeout.
        case timedOut
    }

    /// Reads what is there (up to 64 KB), waiting at most the timeout.
    public func read() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 { return .data(Data(buffer[0..<count])) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .closed
    }

    /// Reads until `predicate` holds for everything read, the peer closes, or `deadline` passes.
    /// - Returns: Everything read, and whether the peer closed.
    public func read(until predicate: (String) -> Bool, deadline: Date = Date().addingTimeInterval(10))
        -> (text: String, closed: Bool)
    {
        var all = Data()
        while Date() < deadline {
            switch read() {
            case .data(let data):
                all.append(data)
                if predicate(String(decoding: all, as: UTF8.self)) { return (String(decoding: all, as: UTF8.self), false) }
            case .closed: return (String(decoding: all, as: UTF8.self), true)
            case .timedOut: continue
            }
        }
        return (String(decoding: all, as: UTF8.self), false)
    }

    /// Reads one whole response (head and a `Content-Length` body) after any `1xx` ones.
    /// - Returns: The status code, the head text and the body, or `nil` when the connection closed first.
    public func readResponse(deadline: Date = Date().addingTimeInterval(10)) -> (status: Int, head: String, body: Data)? {
        var all = Data()
        while Date() < deadline {
            if let response = Self.parse(&all) { return response }
            switch read() {
            case .data(let data): all.append(data)
            case .closed: return Self.parse(&all)
            case .timedOut: continue
            }
        }
        return nil
    }

    /// ``readResponse(deadline:)`` on a thread of its own, so the wait holds none of Swift's cooperative threads.
    public func response(deadline: Date = Date().addingTimeInterval(10)) async throws -> (status: Int, head: String, body: Data)? {
        try await offCooperativePool { self.readResponse(deadline: deadline) }
    }

    /// ``read(until:deadline:)`` on a thread of its own, so the wait holds none of Swift's cooperative threads.
    public func reading(until predicate: @escaping @Sendable (String) -> Bool, deadline: Date = Date().addingTimeInterval(10))
        async throws -> (text: String, closed: Bool)
    {
        try await offCooperativePool { self.read(until: predicate, deadline: deadline) }
    }

    private static func parse(_ bytes: inout Data) -> (status: Int, head: String, body: Data)? {
        let separator = Data("\r\n\r\n".utf8)
        guard let end = bytes.range(of: separator) else { return nil }
        let head = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        if (100..<200).contains(status) {
            bytes = Data(bytes[end.upperBound...])
            return nil
        }
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-length" else { return nil }
            return Int(pair[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        guard bytes.count - (end.upperBound - bytes.startIndex) >= length else { return nil }
        let body = Data(bytes[end.upperBound..<(end.upperBound + length)])
        bytes = Data(bytes[(end.upperBound + length)...])
        return (status, head, body)
    }

    /// Closes the connection.
    public func close() {
        if descriptor >= 0 {
            #if canImport(Glibc)
            Glibc.close(descriptor)
            #else
            Darwin.close(descriptor)
            #endif
            descriptor = -1
        }
    }
}

/// A raw connection failed.
public struct RawHTTPError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
