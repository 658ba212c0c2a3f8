import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraHTTP
import Testing
import TesseraTestSupport

/// The client behind a reverse proxy: who the per-client rate limits count, and when a refused client may try again.
@Suite("Trusted proxies and Retry-After")
struct TrustedProxiesTests {
    private static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    private static let forwarded = HTTPField.Name("Forwarded")!

    private func headers(_ pairs: [(HTTPField.Name, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: name, value: value)) }
        return fields
    }

    @Test("the client is the last forwarded address that is not a trusted proxy")
    func walk() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "::1", "2001:db8:1::/48"])
        // A client's own X-Forwarded-For (the forged 1.1.1.1) comes before what the proxy adds: it is not believed.
        #expect(proxies.client(peer: "10.1.2.3", headers: headers([(Self.xForwardedFor, "1.1.1.1, 203.0.113.9")]))
                == "203.0.113.9")
        // Two proxies in a row, one header line each.
        #expect(proxies.client(peer: "10.1.2.3", headers: headers([
            (Self.xForwardedFor, "198.51.100.7"), (Self.xForwardedFor, "10.9.9.9"),
        ])) == "198.51.100.7")
        // From a peer that is not a proxy the headers are ignored.
        #expect(proxies.client(peer: "203.0.113.50", headers: headers([(Self.xForwardedFor, "198.51.100.7")])) == nil)
        // Ports, brackets and IPv4 mapped into IPv6.
        #expect(proxies.client(peer: "::ffff:10.0.0.1", headers: headers([(Self.xForwardedFor, "203.0.113.9:4711")]))
                == "203.0.113.9")
        #expect(proxies.client(peer: "::1", headers: headers([(Self.xForwardedFor, "[2001:db8:2::5]:443")]))
                == "2001:db8:2::5")
        // RFC 7239's Forwarded is read when there is no X-Forwarded-For.
        #expect(proxies.client(peer: "::1", headers: headers([
            (Self.forwarded, #"for=192.0.2.60;proto=https, for="[2001:db8:1::9]""#),
        ])) == "192.0.2.60")
        // Behind a proxy that writes X-Forwarded-For (and passes a client's Forwarded on as sent), a forged Forwarded
        // does not choose the bucket.
        let both = headers([(Self.forwarded, "for=192.0.2.99"), (Self.xForwardedFor, "198.51.100.7")])
        #expect(proxies.client(peer: "10.1.2.3", headers: both) == "198.51.100.7")
        // Told which header the proxies write, only that one is read.
        let forwardedOnly = try TrustedProxies(["10.0.0.0/8"], header: .forwarded)
        #expect(forwardedOnly.client(peer: "10.1.2.3", headers: both) == "192.0.2.99")
        #expect(forwardedOnly.client(peer: "10.1.2.3", headers: headers([(Self.xForwardedFor, "198.51.100.7")])) == nil)
        let xffOnly = try TrustedProxies(["10.0.0.0/8"], header: .xForwardedFor)
        #expect(xffOnly.client(peer: "10.1.2.3", headers: headers([(Self.forwarded, "for=192.0.2.99")])) == nil)
        // An entry that is not an address ends the walk at the proxy that wrote it.
        #expect(proxies.client(peer: "10.0.0.1", headers: headers([(Self.xForwardedFor, "unknown, 10.0.0.2")]))
                == "10.0.0.2")
        // Nothing forwarded: the peer is the client.
        #expect(proxies.client(peer: "10.0.0.1", headers: HTTPFields()) == nil)
    }

    @Test("entries that are not addresses or networks are refused, naming them", arguments: [
        ("proxy.example.com", "not an IP address"), ("10.0.0.0/33", "from 0 to 32"), ("::/129", "from 0 to 128"),
        ("10.0.0.0/x", "from 0 to 32"), ("", "not an IP address"),
    ])
    func refusals(entry: String, reason: String) {
        let refusal = #expect(throws: TrustedProxies.Refusal.self) { try TrustedProxies([entry]) }
        #expect(refusal?.description.hasPrefix("\(entry):") == true, "\(String(describing: refusal))")
        #expect(refusal?.description.contains(reason) == true, "\(String(describing: refusal))")
    }

    private func log(_ client: LiveTestClient, forwardedFor: String?) async throws -> LiveTestClient.Response {
        var fields: [(HTTPField.Name, String)] = [(.contentType, "application/json")]
        if let forwardedFor { fields.append((Self.xForwardedFor, forwardedFor)) }
        return try await client.execute(
            uri: "/wallet/v1/log", method: .post, headers: headers(fields),
            body: ByteBuffer(string: #"{"logs":["x"]}"#))
    }

    @Test("behind a trusted proxy each forwarded client has its own bucket; Retry-After is the real wait")
    func bucketsPerForwardedClient() async throws {
        let fixture = try WebServiceFixture(logBurst: 2, trustedProxies: try TrustedProxies(["127.0.0.0/8"]))
        try await fixture.withClient { client in
            let first = try await (0..<3).asyncMap { _ in try await log(client, forwardedFor: "203.0.113.1").status }
            #expect(first == [.ok, .ok, .tooManyRequests])
            // Another device behind the same proxy is not refused for the first one's requests.
            #expect(try await log(client, forwardedFor: "203.0.113.2").status == .ok)
            // One request a minute after the burst: 60 s at first, 15 s when three quarters have passed.
            #expect(try await log(client, forwardedFor: "203.0.113.1").headers[.retryAfter] == "60")
            fixture.clock.advance(45)
            let later = try await log(client, forwardedFor: "203.0.113.1")
            #expect(later.status == .tooManyRequests && later.headers[.retryAfter] == "15")
            fixture.clock.advance(15)
            #expect(try await log(client, forwardedFor: "203.0.113.1").status == .ok)
        }
    }

    @Test("without trusted proxies a forwarded address is ignored: a client cannot choose its bucket")
    func headersIgnoredWithoutProxies() async throws {
        let fixture = try WebServiceFixture(logBurst: 2)
        try await fixture.withClient { client in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<3 { statuses.append(try await log(client, forwardedFor: "203.0.113.\(index)").status) }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
        }
    }
}
