public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A webhook receiver's URL, checked: https (http only with private addresses allowed, for development), a host,
/// and every address the host resolves to public, unless ``allowPrivate``: loopback, link-local, private (RFC 1918,
/// unique local), shared (100.64/10), unspecified and multicast addresses are refused, so the server cannot be
/// pointed at its own network. The check runs at start-up and again before deliveries (a name may resolve elsewhere
/// later).
public struct WebhookDestination: Sendable, Equatable {
    /// Why a URL is refused.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public var description: String
        /// Whether the private-address allowance (development and tests) would accept the URL: plain http, or a
        /// loopback, private or link-local address; not another scheme or credentials in the URL.
        public var allowanceWouldAccept = false
        /// Whether the name could not be looked up for now (the resolver did not answer: `EAI_AGAIN`), rather than
        /// found to be wrong: start-up goes on and delivery waits for the next check.
        public var temporary = false
    }

    /// The receiver's URL.
    public let url: URL
    /// Whether private addresses (and plain http) are allowed.
    public let allowPrivate: Bool

    /// Checks a URL's form (not its addresses: see ``checkAddresses()``).
    /// - Throws: ``Refusal`` naming what is wrong.
    public init(_ text: String, allowPrivate: Bool) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { throw Refusal(description: "\(text) is not an absolute http(s) URL") }
        guard url.user == nil, url.password == nil else {
            // Not the URL itself in the message: its password would be written where the message goes.
            var shown = URLComponents(url: url, resolvingAgainstBaseURL: false)
            shown?.user = nil
            shown?.password = nil
            throw Refusal(description: "\(shown?.string ?? "the URL"): credentials in the URL would be logged; "
                          + "sign with the secret instead")
        }
        guard scheme == "https" || (scheme == "http" && allowPrivate) else {
            if scheme == "http" {
                throw Refusal(description: "\(text): the scheme must be https (plain http only with the private-address "
                              + "allowance, for development)", allowanceWouldAccept: true)
            }
            throw Refusal(description: "\(text): the scheme must be https" + (allowPrivate ? " or http" : ""))
        }
        self.url = url
        self.allowPrivate = allowPrivate
    }

    /// Resolves the host and checks every address.
    /// - Throws: ``Refusal`` when it does not resolve or an address is not public (without ``allowPrivate``).
    public func checkAddresses() throws {
        guard !allowPrivate, let host = url.host else { return }
        let addresses = try Self.resolve(host)
        guard !addresses.isEmpty else { throw Refusal(description: "\(host) resolves to no address") }
        for address in addresses where !Self.isPublic(address) {
            throw Refusal(description: "\(host) resolves to \(Self.text(address)), a loopback, private or link-local address",
                          allowanceWouldAccept: true)
        }
    }

    /// The host's addresses (4 or 16 bytes each).
    static func resolve(_ host: String) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw Refusal(description: "\(host) does not resolve: \(String(cString: gai_strerror(status)))",
                          temporary: status == EAI_AGAIN)
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        addresses.append(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        addresses.append(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) })
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Whether an address is one the public internet routes to.
    static func isPublic(_ address: [UInt8]) -> Bool {
        if address.count == 4 {
            let (a, b) = (address[0], address[1])
            switch a {
            case 0, 10, 127: return false                    // this network, private, loopback
            case 100 where (64...127).contains(b): return false  // shared address space (carrier-grade NAT)
            case 169 where b == 254: return false            // link-local
            case 172 where (16...31).contains(b): return false   // private
            case 192 where b == 168: return false            // private
            case 192 where b == 0 && address[2] == 0: return false  // IETF protocol assignments
            case 198 where b == 18 || b == 19: return false  // benchmarking
            case 224...255: return false                     // multicast, reserved, broadcast
            default: return true
            }
        }
        guard address.count == 16 else { return false }
        if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xff && address[11] == 0xff {
            return isPublic(Array(address[12..<16]))         // IPv4-mapped
        }
        if address[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        // Forms that carry an IPv4 address, which decides: IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d (a
        // translator on the server's own network reaches 169.254.169.254 this way), 6to4 2002:AABB:CCDD::.
        if address[0..<12].allSatisfy({ $0 == 0 }) { return isPublic(Array(address[12..<16])) }
        if address[0..<12].elementsEqual([0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]) {
            return isPublic(Array(address[12..<16]))
        }
        if address[0] == 0x00 && address[1] == 0x64 && address[2] == 0xff && address[3] == 0x9b && address[4] == 0x00
            && address[5] == 0x01 { return false }           // local-use NAT64 64:ff9b:1::/48
        if address[0] == 0x20 && address[1] == 0x02 { return isPublic(Array(address[2..<6])) }  // 6to4
        if address[0] == 0x20 && address[1] == 0x01 && address[2] == 0x00 && address[3] == 0x00 {
            return false                                     // Teredo 2001::/32
        }
        if address[0] == 0xfe && address[1] & 0xc0 == 0xc0 { return false }  // site-local fec0::/10 (deprecated)
        if address[0] == 0xff { return false }               // multicast
        if address[0] & 0xfe == 0xfc { return false }        // unique local fc00::/7
        if address[0] == 0xfe && address[1] & 0xc0 == 0x80 { return false }  // link-local fe80::/10
        if address[0] == 0x20 && address[1] == 0x01 && address[2] == 0x0d && address[3] == 0xb8 { return false }  // documentation
        return true
    }

    static func text(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2)
            .map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
