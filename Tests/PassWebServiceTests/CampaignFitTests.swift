import Foundation
import Logging
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// A campaign's change that fits some passes of a template version and not others (their own data differs).
@Suite("Campaign runner: a change that fits some passes of a version only")
struct CampaignFitTests {
    @Test("a barcode encoding that one pass's own message cannot be written in: that pass is reported and left as it is")
    func encodingAgainstOwnMessages() async throws {
        let fixture = try WebServiceFixture()
        var passType = ""
        // B2 and B3 (ASCII) fit US-ASCII; B1's message does not, and comes first: it must not decide for the others.
        for (serial, message) in [("B1", "Café-1"), ("B2", "TICKET-2"), ("B3", "TICKET-3")] {
            passType = try await fixture.issuer.createPass(
                template: "event-ticket",
                data: ["serialNumber": .string(serial), "barcodeMessage": .string(message)]).passTypeIdentifier
        }
        let before = try #require(try await fixture.store.pass(passTypeIdentifier: passType, serialNumber: "B1"))
        let clock = fixture.clock
        let service = CampaignService(issuer: fixture.issuer, store: fixture.store, now: { clock.now })
        let barcode: JSONValue = .object([
            "format": .string("PKBarcodeFormatQR"), "message": .string("placeholder"),
            "messageEncoding": .string("us-ascii"),
        ])
        let (accepted, _) = try await service.create(
            body: ["select": .object(["template": .string("event-ticket")]), "data": .object(["barcodes": .array([barcode])])],
            idempotencyKey: nil)
        let runner = CampaignRunner(
            issuer: fixture.issuer, store: fixture.store, configuration: .init(batchSize: 10),
            logger: Logger(label: "test.campaigns"), now: { clock.now })
        try await runner.runDueCampaigns()
        let done = try #require(try await fixture.store.campaign(id: accepted.id))
        #expect(done.state == .done && done.changed == 2 && done.failed == 1, "\(done)")
        #expect(done.errors.map(\.serialNumber) == ["B1"], "\(done.errors)")
        #expect(done.errors.first?.reason.contains("us-ascii") == true, "\(done.errors)")
        let after = try #require(try await fixture.store.pass(passTypeIdentifier: passType, serialNumber: "B1"))
        #expect(after.updateTag == before.updateTag && after.data == before.data)
        // The passes the campaign changed carry the new barcode, and build.
        for serial in ["B2", "B3"] {
            let pass = try #require(try await fixture.store.pass(passTypeIdentifier: passType, serialNumber: serial))
            #expect(String(decoding: pass.data, as: UTF8.self).contains("us-ascii"), "\(serial)")
            _ = try await fixture.issuer.bundle(for: pass)
        }
    }
}
