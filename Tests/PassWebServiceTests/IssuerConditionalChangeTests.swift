import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PassStore
import Testing
import TesseraTestSupport

/// `PATCH /api/v1/passes/...` with `If-Match`: a client that read a value, changed it and writes it back (a points
/// balance) is refused 412 when another change came in between, instead of writing over it.
@Suite("Issuer API: conditional changes (ETag and If-Match)")
struct IssuerConditionalChangeTests {
    @Test("a change over the version read lands; over an older one, 412 and nothing changes; If-Match mistakes are 400")
    func ifMatch() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "IM-1")
        try await fixture.withClient { client in
            let path = "/wallet/api/v1/passes/\(pass.passTypeIdentifier)/IM-1"
            let read = try await client.execute(uri: path, method: .get, headers: .admin)
            let tag = try #require(read.headers[.eTag])
            #expect(tag == "\"\(pass.updateTag)\"")

            func change(_ seat: String, ifMatch: String?) async throws -> LiveTestClient.Response {
                var headers = HTTPFields.admin
                if let ifMatch { headers[.ifMatch] = ifMatch }
                return try await client.execute(uri: path, method: .patch, headers: headers,
                                                body: .json(#"{"data":{"fields":{"seat":"\#(seat)"}}}"#))
            }
            let first = try await change("1A", ifMatch: tag)
            #expect(first.status == .ok)
            let next = try #require(first.headers[.eTag])
            #expect(next != tag)
            // A second client that read the first version: refused, and the first client's change stays.
            let stale = try await change("2B", ifMatch: tag)
            #expect(stale.status == .preconditionFailed)
            let error = try #require(stale.body.json["error"] as? [String: Any])
            #expect(error["field"] as? String == "If-Match")
            #expect(try await client.execute(uri: path, method: .get, headers: .admin).headers[.eTag] == next)
            // One of several tags, and any version with *.
            #expect(try await change("3C", ifMatch: "\"1\", \(next)").status == .ok)
            #expect(try await change("4D", ifMatch: "*").status == .ok)
            // A weak tag never matches (strong comparison); a tag without quotes is a mistake.
            let current = try #require(try await client.execute(uri: path, method: .get, headers: .admin).headers[.eTag])
            #expect(try await change("5E", ifMatch: "W/\(current)").status == .preconditionFailed)
            let malformed = try await change("6F", ifMatch: String(current.dropFirst().dropLast()))
            #expect(malformed.status == .badRequest)
            #expect((malformed.body.json["error"] as? [String: Any])?["field"] as? String == "If-Match")
            let seat = try await client.execute(uri: path, method: .get, headers: .admin).body.json["fields"]
            #expect((seat as? [String: Any])?["seat"] as? String == "4D")
        }
    }

    @Test("the template list names the fields that hold numbers, for clients to send numbers Wallet formats")
    func numericFields() async throws {
        let fixture = try WebServiceFixture()
        try await fixture.withClient { client in
            let answer = try await client.execute(uri: "/wallet/api/v1/templates", method: .get, headers: .admin)
            let templates = try #require(answer.body.json["templates"] as? [[String: Any]])
            let card = try #require(templates.first { $0["name"] as? String == "store-card" })
            #expect(Set(card["numericFields"] as? [String] ?? []) == ["points", "balance"], "\(card)")
            let ticket = try #require(templates.first { $0["name"] as? String == "event-ticket" })
            #expect((ticket["numericFields"] as? [String])?.isEmpty == true, "\(ticket)")
        }
    }
}
