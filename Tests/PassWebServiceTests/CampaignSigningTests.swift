import Foundation
import Logging
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// A campaign over passes no identity can sign for now (the certificate expired before the campaign's time).
@Suite("Campaign runner: a certificate expired before the campaign runs")
struct CampaignSigningTests {
    @Test("the campaign waits for a renewal, then fails with one reason; no pass is counted failed or changed")
    func expiredCertificate() async throws {
        let fixture = try WebServiceFixture()
        var passType = ""
        for serial in ["X1", "X2", "X3"] { passType = try await fixture.createPass(serial: serial).passTypeIdentifier }
        let clock = fixture.clock
        let service = CampaignService(issuer: fixture.issuer, store: fixture.store, now: { clock.now })
        let (accepted, _) = try await service.create(
            body: ["select": .object(["template": .string("event-ticket")]), "void": .bool(true)], idempotencyKey: nil)
        // Past the test certificate's year.
        clock.advance(Date().addingTimeInterval(400 * 86_400).timeIntervalSince(clock.now))
        let runner = CampaignRunner(
            issuer: fixture.issuer, store: fixture.store, configuration: .init(batchSize: 2, templateTroublePatience: 600),
            logger: Logger(label: "test.campaigns"), now: { clock.now })
        await #expect(throws: (any Error).self) { try await runner.runDueCampaigns() }
        let waiting = try #require(try await fixture.store.campaign(id: accepted.id))
        #expect(waiting.state == .running && waiting.changed == 0 && waiting.failed == 0 && waiting.errors.isEmpty, "\(waiting)")

        clock.advance(601)
        try await runner.runDueCampaigns()
        let failed = try #require(try await fixture.store.campaign(id: accepted.id))
        #expect(failed.state == .failed && failed.changed == 0 && failed.failed == 0, "\(failed)")
        #expect(failed.errors.count == 1 && failed.errors.first?.serialNumber == "", "\(failed.errors)")
        #expect(failed.errors.first?.reason.contains("expired") == true, "\(failed.errors)")
        for serial in ["X1", "X2", "X3"] {
            let pass = try await fixture.store.pass(passTypeIdentifier: passType, serialNumber: serial)
            #expect(pass?.voided == false, "\(serial)")
        }
    }
}
