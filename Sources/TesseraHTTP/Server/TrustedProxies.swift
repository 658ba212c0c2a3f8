#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
public import HTTPTypes
public import Hummingbird

/// The reverse proxies (a TLS terminator, a load balancer) whose `X-Forwarded-For` and `Forwarded` headers say who
/// the client is (`--trusted-proxy`). Without them every device behind a proxy would share the proxy's address, and
/// with it one rate-limit bucket of `/v1/log`, personalization and console sign-in.
///
/// The client is found as a proxy finds it: from the connected peer, walking the forwarded addresses from the last
/// (the one the nearest proxy added) towards the first, the first address that is not a trusted proxy. Headers from a
/// peer that is not a trusted proxy are ignored, so a client cannot choose its own bucket by sending them.
public struct TrustedProxies: Sendable, Equatable {
    /// A network: an address and how many of its leading bits count.
    struct Network: Sendable, Equatable {
        let address: [UInt8]
        let prefixLength: Int

        func contains(_ other: [UInt8]) -> Bool {
            guard other.count == address.count else { return false }
            var remaining = prefixLength
            for index in address.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
                if address[index] & mask != other[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    /// A proxy given that is not an address or network.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The header the proxies write the client into (`--forwarded-header`).
    public enum Header: String, Sendable, Equatable, CaseIterable {
        /// `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`, most load balancers).
        case xForwardedFor = "x-forwarded-for"
        /// `Forwarded`'s `for=` (RFC 7239).
        case forwarded
    }

    let networks: [Network]
    /// The header read: only that one when set; else `X-Forwarded-For`, or `Forwarded` when there is none. A proxy
    /// passes on a header it does not write as the client sent it, so the one it writes must win: with both read in
    /// the other order, a client behind an `X-Forwarded-For` proxy could name its own address in `Forwarded`.
    let header: Header?

    /// No proxy: every peer is the client.
    public static let none = TrustedProxies(networks: [], header: nil)

    private init(networks: [Network], header: Header?) {
        self.networks = networks
        self.header = header
    }

    /// Reads the proxies: addresses (`10.0.0.5`, `::1`) or networks (`10.0.0.0/8`, `fd00::/8`).
    /// - Parameters:
    ///   - entries: The addresses and networks.
    ///   - header: The one header the proxies write the client into; `nil`: `X-Forwarded-For`, else `Forwarded`.
    /// - Throws: ``Refusal`` naming the first entry that is neither, or a prefix longer than its address.
    public init(_ entries: [String], header: Header? = nil) throws {
        self.header = header
        networks = try entries.map { entry in
            let text = entry.trimmingCharacters(in: .whitespaces)
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.address(String(parts[0])) else {
                throw Refusal(description: "\(entry): not an IP address or network (such as 10.0.0.5 or 10.0.0.0/8)")
            }
            let bits = address.count * 8
            var prefixLength = bits
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...bits).contains(length) else {
                    throw Refusal(description: "\(entry): the prefix length must be from 0 to \(bits)")
                }
                prefixLength = length
            }
            return Network(address: address, prefixLength: prefixLength)
        }
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { networks.isEmpty }

    /// Whether an address (as text) is a trusted proxy.
    public func contains(_ text: String) -> Bool {
        guard let address = Self.address(text) else { return false }
        return networks.contains { $0.contains(address) }
    }

    /// The client of a request the peer `peer` sent with `headers`: `nil` when the peer is not a trusted proxy or
    /// forwarded no address (the peer itself is the client then).
    public func client(peer: String?, headers: HTTPFields) -> String? {
        guard let peer, contains(peer) else { return nil }
        let forwarded = Self.forwardedAddresses(headers, header: header)
        var client: String?
        for entry in forwarded.reversed() {
            guard let address = Self.address(entry) else {
                // Not an address ("unknown", an obfuscated name): nothing before it can be told apart.
                break
            }
            client = Self.text(address)
            if !networks.contains(where: { $0.contains(address) }) { break }
        }
        return client
    }

    /// The addresses a request was forwarded for, first to last: from `header` only when given; else
    /// `X-Forwarded-For` when present, else `Forwarded`'s `for=` (RFC 7239). Several lines of one header read as one
    /// list.
    static func forwardedAddresses(_ headers: HTTPFields, header: Header? = nil) -> [String] {
        let xForwardedFor = headers[values: .xForwardedFor]
        if header == .xForwardedFor || (header == nil && !xForwardedFor.isEmpty) {
            return xForwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return headers[values: .forwarded].flatMap { $0.split(separator: ",") }.compactMap { element in
            element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.lowercased().hasPrefix("for=") }
                .map { String($0.dropFirst(4)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                ?? "unknown"
        }
    }

    /// The bytes of an address written as text, with a port or IPv6 brackets allowed (`203.0.113.9:4711`,
    /// `[2001:db8::1]:443`); an IPv4 address mapped into IPv6 is read as the IPv4 address.
    static func address(_ text: String) -> [UInt8]? {
        var text = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return Array(bytes[12..<16])
        }
        return bytes
    }

    /// An address as text (`inet_ntop`'s form).
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        let written = address.withUnsafeBytes { bytes in
            inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension HTTPField.Name {
    /// `Forwarded` (RFC 7239).
    static let forwarded = HTTPField.Name("Forwarded")!
    /// `X-Forwarded-For`, as most proxies write it.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

/// Sets each request's client from the forwarding headers of ``TrustedProxies`` (added only when some are trusted).
public struct ClientAddressMiddleware: RouterMiddleware {
    let proxies: TrustedProxies

    /// Creates the middleware.
    public init(proxies: TrustedProxies) {
        self.proxies = proxies
    }

    public func handle(
        _ request: Request, context: WebServiceRequestContext,
        next: (Request, WebServiceRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.forwardedClient = proxies.client(peer: context.remoteAddress?.ipAddress, headers: request.headers)
        return try await next(request, context)
    }
}
