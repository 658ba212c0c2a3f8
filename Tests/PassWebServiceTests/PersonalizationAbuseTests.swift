import Foundation
import Hummingbird
import HummingbirdTesting
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// `POST .../personalize` from anyone: only a personalizable pass not yet personalized accepts it, every member of
/// `requiredPersonalizationInfo` is checked, repeat and malformed calls change nothing, it is rate limited, and the
/// answers do not tell whether a serial number exists.
@Suite("Personalization abuse")
struct PersonalizationAbuseTests {
    static let type = "pass.dev.tessera.demo"
    static let valid = #"{"personalizationToken":"tok-1","requiredPersonalizationInfo":{"fullName":"Ada Lovelace","postalCode":"94110","emailAddress":"ada@example.com"}}"#

    private func personalize(_ client: LiveTestClient, _ serial: String, _ body: String) async throws -> LiveTestClient.Response {
        try await client.execute(
            uri: "/wallet/v1/passes/\(Self.type)/\(serial)/personalize", method: .post, headers: .json(), body: .json(body))
    }

    @Test("malformed members answer 400 naming them and change nothing; the pass stays downloadable")
    func malformedMembersChangeNothing() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(template: "store-card-rewards", serial: "P-1")
        try await fixture.withClient { client in
            let cases: [(String, String)] = [
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"fullName":{"a":1}}}"#, "requiredPersonalizationInfo.fullName"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"fullName":7}}"#, "requiredPersonalizationInfo.fullName"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"favouriteColour":"red"}}"#, "requiredPersonalizationInfo.favouriteColour"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"fullName":"\#(String(repeating: "A", count: 300))"}}"#, "requiredPersonalizationInfo.fullName"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"fullName":"a\nb"}}"#, "requiredPersonalizationInfo.fullName"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{"ISOCountryCode":"USA"}}"#, "requiredPersonalizationInfo.ISOCountryCode"),
                (#"{"personalizationToken":"","requiredPersonalizationInfo":{"fullName":"A"}}"#, "personalizationToken"),
                // A manifest of someone's making sent as the token: it would come back signed with the pass certificate.
                (#"{"personalizationToken":"{\"pass.json\":\"0000\"}","requiredPersonalizationInfo":{"fullName":"A"}}"#,
                 "personalizationToken"),
                (#"{"personalizationToken":"x","requiredPersonalizationInfo":{}}"#, "requiredPersonalizationInfo"),
                (#"{"personalizationToken":"x"}"#, "requiredPersonalizationInfo"),
                ("", "body"),
            ]
            for (body, named) in cases {
                let answer = try await personalize(client, "P-1", body)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(String(buffer: answer.body).contains(named), "\(body): \(String(buffer: answer.body))")
            }
            let fetched = try await client.execute(
                uri: "/wallet/v1/passes/\(Self.type)/P-1", method: .get, headers: .applePass(pass.authenticationToken))
            #expect(fetched.status == .ok)
        }
        let stored = try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-1")
        #expect(stored?.updateTag == pass.updateTag)
        #expect(stored?.personalization == nil)
    }

    @Test("a second enrollment changes nothing: no new version, the holder's details stay; the same details again are answered")
    func repeatChangesNothing() async throws {
        let fixture = try WebServiceFixture()
        _ = try await fixture.createPass(template: "store-card-rewards", serial: "P-2")
        try await fixture.withClient { client in
            let first = try await personalize(client, "P-2", Self.valid)
            #expect(first.status == .ok)
            let after = try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-2")
            let again = try await personalize(
                client, "P-2", #"{"personalizationToken":"tok-2","requiredPersonalizationInfo":{"fullName":"Mallory"}}"#)
            #expect(again.status == .notFound)
            let still = try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-2")
            #expect(still == after)
            let details = String(decoding: still?.personalization ?? Data(), as: UTF8.self)
            #expect(details.contains("Ada Lovelace"))
            // The same details again (the first answer lost on its way): the new token signed, nothing changed.
            let repeated = try await personalize(client, "P-2", Self.valid.replacingOccurrences(of: "tok-1", with: "tok-3"))
            #expect(repeated.status == .ok && repeated.body.readableBytes > 0)
            #expect(try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-2") == after)
        }
    }

    @Test("a voided pass takes no enrollment: 404 as any pass not awaiting one, no new version")
    func voidedPassRefused() async throws {
        let fixture = try WebServiceFixture()
        _ = try await fixture.createPass(template: "store-card-rewards", serial: "P-V")
        let voided = try #require(try await fixture.issuer.voidPass(passTypeIdentifier: Self.type, serialNumber: "P-V"))
        try await fixture.withClient { client in
            let answer = try await personalize(client, "P-V", Self.valid)
            #expect(answer.status == .notFound)
        }
        let stored = try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-V")
        #expect(stored?.updateTag == voided.pass.updateTag && stored?.personalization == nil)
    }

    @Test("concurrent enrollments: exactly one wins")
    func concurrentEnrollments() async throws {
        let fixture = try WebServiceFixture(personalizationBurst: 100)
        let pass = try await fixture.createPass(template: "store-card-rewards", serial: "P-3")
        let statuses = try await fixture.withClient { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await personalize(
                            client, "P-3",
                            #"{"personalizationToken":"t\#(index)","requiredPersonalizationInfo":{"fullName":"Holder \#(index)"}}"#
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
        }
        #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
        let stored = try await fixture.store.pass(passTypeIdentifier: Self.type, serialNumber: "P-3")
        #expect(stored?.updateTag == pass.updateTag + 1)
    }

    @Test("answers do not tell whether a serial number exists")
    func answersHideExistence() async throws {
        let fixture = try WebServiceFixture()
        _ = try await fixture.createPass(template: "store-card-rewards", serial: "P-4")
        _ = try await fixture.createPass(template: "store-card", serial: "P-5")
        try await fixture.withClient { client in
            for body in ["", "{}", #"{"personalizationToken":"x","requiredPersonalizationInfo":{"fullName":{"a":1}}}"#] {
                let existing = try await personalize(client, "P-4", body)
                let missing = try await personalize(client, "P-404", body)
                #expect(existing.status == missing.status, "\(body)")
                #expect(existing.body.data == missing.body.data, "\(body)")
            }
            #expect(try await personalize(client, "P-4", Self.valid).status == .ok)
            // Personalized (for someone else's details), not personalizable and missing: one answer. (Only the very
            // details it was personalized with are answered again, as a lost answer's repeat.)
            let other = Self.valid.replacingOccurrences(of: "Ada Lovelace", with: "Mallory")
            let answers = [
                try await personalize(client, "P-4", other), try await personalize(client, "P-5", other),
                try await personalize(client, "P-404", other),
            ]
            #expect(answers.map(\.status) == [.notFound, .notFound, .notFound])
            #expect(Set(answers.map(\.body.data)).count == 1)
        }
    }

    @Test("rate limited per client like /v1/log")
    func rateLimited() async throws {
        let fixture = try WebServiceFixture(personalizationBurst: 3)
        try await fixture.withClient { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<5 { statuses.append(try await personalize(client, "P-404", Self.valid).status) }
            #expect(statuses == [.notFound, .notFound, .notFound, .tooManyRequests, .tooManyRequests])
        }
    }
}
