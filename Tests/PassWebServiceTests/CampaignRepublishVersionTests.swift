import Foundation
import Logging
import PassBundle
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// A republish accepted by one server process and run by another that has not read the edited template yet (each
/// host with its own copy of the templates, the second not yet given SIGHUP).
@Suite("Campaigns: a republish moves every pass to the version accepted")
struct CampaignRepublishVersionTests {
    @Test("a process that still has the earlier content moves the passes to the accepted version, read from the store")
    func staleProcessUsesAcceptedVersion() async throws {
        let chain = try TestChain()
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
            wwdrPath: chain.path("wwdr.pem")))
        let store = MemoryPassStore()
        func issuer(_ name: String) throws -> (PassIssuer, URL) {
            let folder = try TemporaryDirectory.make(prefix: "republish-\(name)")
            try FileManager.default.copyItem(
                at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket"),
                to: folder.appendingPathComponent("event-ticket"))
            return (PassIssuer(store: store, signer: signer, configuration: .init(
                templatesDirectory: folder, publicURL: WebServiceFixture.publicURL)), folder)
        }
        let (accepting, folder) = try issuer("a")
        let (stale, _) = try issuer("b")
        var passType = ""
        for serial in ["R1", "R2", "R3"] {
            passType = try await accepting.createPass(template: "event-ticket", data: ["serialNumber": .string(serial)]).passTypeIdentifier
        }
        let before = try await stale.currentTemplateVersion(named: "event-ticket")
        // Edited on the first host only, and read again there.
        let passJSON = folder.appendingPathComponent("event-ticket/pass.json")
        let edited = try String(contentsOf: passJSON, encoding: .utf8).replacingOccurrences(of: "Tessera Arena", with: "Arena Hall")
        try Data(edited.utf8).write(to: passJSON)
        await accepting.reloadTemplates()
        let after = try await accepting.currentTemplateVersion(named: "event-ticket")
        try #require(after != before)

        let (campaign, _) = try await CampaignService(issuer: accepting, store: store).create(
            body: ["select": .object(["template": .string("event-ticket")]), "republishTemplate": .bool(true)],
            idempotencyKey: nil)
        try await CampaignRunner(issuer: stale, store: store, configuration: .init(batchSize: 2),
                                 logger: Logger(label: "test.campaigns")).runDueCampaigns()
        let done = try #require(try await store.campaign(id: campaign.id))
        #expect(done.state == .done && done.changed == 3, "\(done)")
        for serial in ["R1", "R2", "R3"] {
            let pass = try #require(try await store.pass(passTypeIdentifier: passType, serialNumber: serial))
            #expect(pass.templateVersion == after, "\(serial)")
            // The stale process builds the pass from the accepted version (the store keeps it), not its own copy.
            #expect(try await stale.currentPass(of: pass).pass.organizationName == "Arena Hall", "\(serial)")
        }
    }
}
