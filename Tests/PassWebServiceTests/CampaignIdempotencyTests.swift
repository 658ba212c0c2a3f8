import Foundation
import HTTPTypes
import PassModel
import PassStore
import PassWebService
import Testing

/// A retried campaign request (its answer lost) with the same `Idempotency-Key` gets the campaign accepted the first
/// time, whatever changed since: the retry is not checked again as a new campaign.
@Suite("Campaigns: a retry with the same Idempotency-Key")
struct CampaignIdempotencyTests {
    @Test("answered with the stored campaign after its scheduledAt passed; another body under the key is 409")
    func retryAfterTheScheduledTime() async throws {
        let fixture = try WebServiceFixture()
        _ = try await fixture.createPass(serial: "K-1")
        let clock = fixture.clock
        let service = CampaignService(issuer: fixture.issuer, store: fixture.store, now: { clock.now })
        let at = clock.now.addingTimeInterval(30).formatted(Date.ISO8601FormatStyle())
        let body: [String: JSONValue] = [
            "select": .object(["template": .string("event-ticket")]), "void": .bool(true), "scheduledAt": .string(at),
        ]
        let (first, created) = try await service.create(body: body, idempotencyKey: "void-at-close")
        #expect(created)
        // Two minutes later the client, which never saw the answer, sends the request again.
        clock.advance(120)
        let (again, createdAgain) = try await service.create(body: body, idempotencyKey: "void-at-close")
        #expect(again.id == first.id && !createdAgain)
        // Without the key the same body is a new campaign, checked as such: its time has passed.
        await #expect(throws: IssuerError.self) { try await service.create(body: body, idempotencyKey: nil) }
        var other = body
        other["void"] = nil
        other["unvoid"] = .bool(true)
        do {
            _ = try await service.create(body: other, idempotencyKey: "void-at-close")
            Issue.record("another body under the key was accepted")
        } catch let error as IssuerError {
            #expect(error.status.code == 409, "\(error)")
        }
    }
}
