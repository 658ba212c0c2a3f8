import Foundation
import PassStore
import PostgresStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// The behaviour every ``TemplateVersionStore`` shares, run against each pass store (memory, SQLite, PostgreSQL).
@Suite("TemplateVersionStore conformance")
struct TemplateVersionStoreConformanceTests {
    func withVersionStore(_ kind: StoreKind, _ body: (any PassStore & CampaignStore & TemplateVersionStore) async throws -> Void)
        async throws
    {
        try await withStore(kind) { store in
            let versions = try #require(store as? any PassStore & CampaignStore & TemplateVersionStore,
                                        "the \(kind) store keeps no template versions")
            try await body(versions)
        }
    }

    @Test("a version is kept once; passes without one are pinned to the first version saved, pinned ones stay",
          arguments: StoreKind.campaignKinds)
    func saveAndPin(kind: StoreKind) async throws {
        try await withVersionStore(kind) { store in
            _ = try await Fixtures.insert(["LEGACY-1", "LEGACY-2"], into: store)
            var pinnedPass = Fixtures.newPass("PINNED")
            pinnedPass.templateVersion = "0000000000000000"
            let pinned = try await store.insertPass(pinnedPass, now: Fixtures.now)
            #expect(pinned.templateVersion == "0000000000000000")

            #expect(try await store.saveTemplateVersion(name: "event", version: "aaaa", content: Data("first".utf8), now: Fixtures.now) == 2)
            // Saved again (another process, another start): the content kept is the first; nobody is left to pin.
            #expect(try await store.saveTemplateVersion(name: "event", version: "aaaa", content: Data("other".utf8), now: Fixtures.now) == 0)
            #expect(try await store.saveTemplateVersion(name: "event", version: "bbbb", content: Data("second".utf8), now: Fixtures.now) == 0)
            #expect(try await store.templateVersionContent(name: "event", version: "aaaa") == Data("first".utf8))
            #expect(try await store.templateVersionContent(name: "event", version: "bbbb") == Data("second".utf8))
            #expect(try await store.templateVersionContent(name: "event", version: "cccc") == nil)
            #expect(try await store.templateVersionContent(name: "other", version: "aaaa") == nil)

            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "LEGACY-1")?.templateVersion == "aaaa")
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "PINNED")?.templateVersion == "0000000000000000")
        }
    }

    @Test("a change moves a pass to another version only when it names one; a campaign batch likewise",
          arguments: StoreKind.campaignKinds)
    func changesMoveThePin(kind: StoreKind) async throws {
        try await withVersionStore(kind) { store in
            var new = Fixtures.newPass("MOVE-1")
            new.templateVersion = "aaaa"
            _ = try await store.insertPass(new, now: Fixtures.now)
            let kept = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "MOVE-1", change: PassChange(data: Data("{}".utf8)),
                now: Fixtures.now)
            #expect(kept?.pass.templateVersion == "aaaa")
            let moved = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "MOVE-1", change: PassChange(templateVersion: "bbbb"),
                now: Fixtures.now)
            #expect(moved?.pass.templateVersion == "bbbb")
            #expect(moved.map { $0.pass.updateTag > kept!.pass.updateTag } == true, "a republish is a new version")

            let passes = try await Fixtures.insert(["MOVE-2", "MOVE-3"], into: store)
            _ = try await store.insertCampaign(
                NewCampaign(id: "republish", specification: Data(#"{"republishTemplate":true}"#.utf8), requestHash: "h",
                            idempotencyKey: nil, scheduledAt: nil), now: Fixtures.now)
            _ = try await store.startDueCampaigns(now: Fixtures.now)
            let outcome = try await store.writeCampaignBatch(CampaignBatch(
                campaignID: "republish", expectedCursor: nil, cursor: "MOVE-3", passTypeIdentifier: Fixtures.passType,
                changes: [
                    CampaignPassChange(serialNumber: "MOVE-2", updateTag: passes[0].updateTag, data: nil, voided: nil, templateVersion: "cccc"),
                    CampaignPassChange(serialNumber: "MOVE-3", updateTag: passes[1].updateTag, data: nil, voided: nil),
                ], matched: 2, failures: [], finishes: true), now: Fixtures.now)
            guard case .written = outcome else { Issue.record("batch not written: \(outcome)"); return }
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "MOVE-2")?.templateVersion == "cccc")
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "MOVE-3")?.templateVersion == nil)
        }
    }

    @Test("an order store pins its orders and keeps its versions apart from a pass template of the same name",
          arguments: StoreKind.tested.filter { $0 == .sqliteOrders || $0 == .postgresOrders })
    func ordersApart(kind: StoreKind) async throws {
        try await withStore(kind == .sqliteOrders ? .sqlite : .postgres) { passes in
            let orders: any PassStore = switch passes {
            case let store as SQLiteStore: store.orderStore()
            case let store as PostgresStore: store.orderStore()
            default: passes
            }
            let passVersions = try #require(passes as? any TemplateVersionStore)
            let orderVersions = try #require(orders as? any TemplateVersionStore)
            _ = try await Fixtures.insert(["P-1"], into: passes)
            _ = try await Fixtures.insert(["O-1", "O-2"], into: orders)
            // Both kinds have a template named "event", at the same version name with other content.
            #expect(try await orderVersions.saveTemplateVersion(
                name: "event", version: "aaaa", content: Data("order".utf8), now: Fixtures.now) == 2)
            #expect(try await passVersions.saveTemplateVersion(
                name: "event", version: "aaaa", content: Data("pass".utf8), now: Fixtures.now) == 1)
            #expect(try await orderVersions.templateVersionContent(name: "event", version: "aaaa") == Data("order".utf8))
            #expect(try await passVersions.templateVersionContent(name: "event", version: "aaaa") == Data("pass".utf8))
            #expect(try await orders.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "O-2")?.templateVersion == "aaaa")
            #expect(try await passes.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "P-1")?.templateVersion == "aaaa")
        }
    }
}
