import Foundation
import PassStore
import PostgresStore
import Testing
import TesseraTestSupport

extension StoreKind {
    /// The kinds that hold campaigns: each store's passes (campaigns change passes, never orders).
    static let campaignKinds: [StoreKind] = tested.filter { [.memory, .sqlite, .postgres].contains($0) }
}

/// Runs `body` with a fresh, migrated pass store of a kind as a ``CampaignStore`` (see `withStore`).
func withCampaignStore(_ kind: StoreKind, _ body: (any PassStore & CampaignStore) async throws -> Void) async throws {
    try await withStore(kind) { store in
        let campaigns = try #require(store as? any PassStore & CampaignStore, "the \(kind) store holds no campaigns")
        try await body(campaigns)
    }
}

/// The behaviour every ``CampaignStore`` shares, run against each pass store (memory, SQLite, PostgreSQL).
@Suite("CampaignStore conformance")
struct CampaignStoreConformanceTests {
    static let specification = Data(#"{"select":{"template":"event"},"voided":true}"#.utf8)

    func newCampaign(_ id: String, key: String? = nil, at scheduledAt: Date? = nil) -> NewCampaign {
        NewCampaign(
            id: id, specification: Self.specification, requestHash: "hash-\(id)", idempotencyKey: key,
            scheduledAt: scheduledAt)
    }

    /// Stores a campaign due at once and starts it.
    func running(_ id: String, in store: any CampaignStore, now: Date = Fixtures.now) async throws
        -> CampaignRecord
    {
        _ = try await store.insertCampaign(newCampaign(id), now: now)
        let started = try await store.startDueCampaigns(now: now)
        return try #require(started.first { $0.id == id })
    }

    func batch(
        _ campaign: String, after expected: String?, to cursor: String?, _ changes: [CampaignPassChange],
        matched: Int? = nil, failures: [CampaignFailure] = [], finishes: Bool = false
    ) -> CampaignBatch {
        CampaignBatch(
            campaignID: campaign, expectedCursor: expected, cursor: cursor, passTypeIdentifier: Fixtures.passType,
            changes: changes, matched: matched ?? changes.count + failures.count, failures: failures,
            finishes: finishes)
    }

    func change(_ pass: PassRecord, data: String? = nil, voided: Bool? = nil) -> CampaignPassChange {
        CampaignPassChange(
            serialNumber: pass.serialNumber, updateTag: pass.updateTag, data: data.map { Data($0.utf8) },
            voided: voided)
    }

    private struct NotWritten: Error, CustomStringConvertible {
        var outcome: CampaignBatchOutcome
        var description: String { "expected the batch written, got \(outcome)" }
    }

    /// The campaign a batch wrote; throws when it wrote none.
    func written(_ outcome: CampaignBatchOutcome) throws -> CampaignRecord {
        guard case .written(let record) = outcome else { throw NotWritten(outcome: outcome) }
        return record
    }

    func passes(_ serialNumbers: [String], in store: any PassStore) async throws -> [PassRecord] {
        var records: [PassRecord] = []
        for serialNumber in serialNumbers {
            records.append(
                try #require(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: serialNumber)))
        }
        return records
    }

    func claimAll(_ store: any PassStore, at time: Date = Fixtures.now) async throws -> [PendingPush] {
        try await store.claimPushes(limit: 100, now: time, lease: 30)
    }

    // MARK: Campaigns

    @Test("insert stores a scheduled campaign; a repeated idempotency key returns the stored one, not inserted",
          arguments: StoreKind.campaignKinds)
    func insertAndIdempotency(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let at = Fixtures.now.addingTimeInterval(3600)
            let (first, inserted) = try await store.insertCampaign(newCampaign("c1", key: "key-1", at: at), now: Fixtures.now)
            #expect(inserted)
            #expect(first == CampaignRecord(
                id: "c1", sequence: first.sequence, specification: Self.specification, requestHash: "hash-c1",
                idempotencyKey: "key-1", state: .scheduled, createdAt: Fixtures.now, scheduledAt: at))
            #expect(try await store.campaign(id: "c1") == first)

            // The same key with another identifier (a retried request): the first campaign, nothing stored.
            let (again, insertedAgain) = try await store.insertCampaign(
                newCampaign("c2", key: "key-1"), now: Fixtures.now.addingTimeInterval(5))
            #expect(!insertedAgain)
            #expect(again == first)
            #expect(try await store.campaign(id: "c2") == nil)

            // No key: every insert stores one, each with a later sequence.
            let (third, insertedThird) = try await store.insertCampaign(newCampaign("c3"), now: Fixtures.now)
            let (fourth, insertedFourth) = try await store.insertCampaign(newCampaign("c4"), now: Fixtures.now)
            #expect(insertedThird && insertedFourth)
            #expect(third.idempotencyKey == nil && third.scheduledAt == nil)
            #expect(first.sequence < third.sequence && third.sequence < fourth.sequence)
            #expect(try await store.campaign(id: "c4") == fourth)

            // A second campaign with a stored identifier is refused and changes nothing.
            await #expect(throws: PassStoreError.self) {
                _ = try await store.insertCampaign(self.newCampaign("c3", key: "key-2"), now: Fixtures.now)
            }
            #expect(try await store.campaign(id: "c3") == third)
            #expect(try await store.campaign(id: "nope") == nil)
            let (other, insertedOther) = try await store.insertCampaign(newCampaign("c5", key: "key-2"), now: Fixtures.now)
            #expect(insertedOther && other.idempotencyKey == "key-2")
        }
    }

    @Test("listings are newest first, filtered by state and paged before a sequence", arguments: StoreKind.campaignKinds)
    func listings(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            for id in ["L1", "L2"] { _ = try await store.insertCampaign(newCampaign(id), now: Fixtures.now) }
            #expect(try await store.startDueCampaigns(now: Fixtures.now).map(\.id) == ["L1", "L2"])
            for id in ["L3", "L4", "L5"] {
                _ = try await store.insertCampaign(newCampaign(id, at: Fixtures.now.addingTimeInterval(600)), now: Fixtures.now)
            }

            let all = try await store.campaigns(state: nil, limit: 10, beforeSequence: nil)
            #expect(all.map(\.id) == ["L5", "L4", "L3", "L2", "L1"])
            for record in all { #expect(try await store.campaign(id: record.id) == record) }
            #expect(try await store.campaigns(state: nil, limit: 2, beforeSequence: nil).map(\.id) == ["L5", "L4"])
            #expect(try await store.campaigns(state: nil, limit: 2, beforeSequence: all[1].sequence).map(\.id) == ["L3", "L2"])
            #expect(try await store.campaigns(state: nil, limit: 10, beforeSequence: all[4].sequence).isEmpty)
            #expect(try await store.campaigns(state: .running, limit: 10, beforeSequence: nil).map(\.id) == ["L2", "L1"])
            #expect(try await store.campaigns(state: .running, limit: 1, beforeSequence: all[3].sequence).map(\.id) == ["L1"])
            #expect(try await store.campaigns(state: .scheduled, limit: 10, beforeSequence: all[1].sequence).map(\.id) == ["L3"])
            #expect(try await store.campaigns(state: .done, limit: 10, beforeSequence: nil).isEmpty)
            #expect(try await store.campaigns(state: nil, limit: 0, beforeSequence: nil).isEmpty)
        }
    }

    @Test("cancel stops a scheduled or running campaign; a finished one stays as it was; fail ends a running one",
          arguments: StoreKind.campaignKinds)
    func cancelAndFail(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            _ = try await store.insertCampaign(newCampaign("S", at: Fixtures.now.addingTimeInterval(600)), now: Fixtures.now)
            let runningRecord = try await running("R", in: store)

            let cancelledScheduled = try #require(try await store.cancelCampaign(id: "S", now: Fixtures.now.addingTimeInterval(10)))
            #expect(cancelledScheduled.state == .cancelled)
            #expect(cancelledScheduled.finishedAt == Fixtures.now.addingTimeInterval(10))
            #expect(cancelledScheduled.startedAt == nil)
            let cancelledRunning = try #require(try await store.cancelCampaign(id: "R", now: Fixtures.now.addingTimeInterval(20)))
            #expect(cancelledRunning.state == .cancelled)
            #expect(cancelledRunning.finishedAt == Fixtures.now.addingTimeInterval(20))
            #expect(cancelledRunning.startedAt == Fixtures.now)

            // Already finished: unchanged.
            #expect(try await store.cancelCampaign(id: "S", now: Fixtures.now.addingTimeInterval(30)) == cancelledScheduled)
            #expect(try await store.campaign(id: "S") == cancelledScheduled)
            #expect(try await store.cancelCampaign(id: "nope", now: Fixtures.now) == nil)
            // A cancelled campaign takes no batch and does not start again.
            #expect(try await store.writeCampaignBatch(
                batch("R", after: runningRecord.cursor, to: "x", [], matched: 0), now: Fixtures.now) == .cursorMoved)
            #expect(try await store.campaign(id: "R") == cancelledRunning)
            #expect(try await store.startDueCampaigns(now: Fixtures.now.addingTimeInterval(3600)).isEmpty)

            // Done: cancel and fail leave it.
            _ = try await running("D", in: store)
            let done = try written(try await store.writeCampaignBatch(
                batch("D", after: nil, to: nil, [], matched: 0, finishes: true), now: Fixtures.now.addingTimeInterval(40)))
            #expect(done.state == .done && done.finishedAt == Fixtures.now.addingTimeInterval(40))
            #expect(try await store.cancelCampaign(id: "D", now: Fixtures.now.addingTimeInterval(50)) == done)
            try await store.failCampaign(id: "D", reason: "late", now: Fixtures.now.addingTimeInterval(50))
            #expect(try await store.campaign(id: "D") == done)

            // Fail: a running campaign ends with the reason as its one error.
            _ = try await running("F", in: store)
            try await store.failCampaign(id: "F", reason: "the template is gone", now: Fixtures.now.addingTimeInterval(60))
            let failed = try #require(try await store.campaign(id: "F"))
            #expect(failed.state == .failed)
            #expect(failed.finishedAt == Fixtures.now.addingTimeInterval(60))
            #expect(failed.errors == [CampaignFailure(serialNumber: "", reason: "the template is gone")])
            #expect(try await store.cancelCampaign(id: "F", now: Fixtures.now.addingTimeInterval(70)) == failed)
            try await store.failCampaign(id: "nope", reason: "none", now: Fixtures.now)
        }
    }

    @Test("startDueCampaigns starts the due ones only and returns every running one; nextScheduledCampaign",
          arguments: StoreKind.campaignKinds)
    func startDue(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            #expect(try await store.nextScheduledCampaign() == nil)
            #expect(try await store.startDueCampaigns(now: Fixtures.now).isEmpty)
            let now = Fixtures.now
            _ = try await store.insertCampaign(newCampaign("A", at: now.addingTimeInterval(100)), now: now)
            _ = try await store.insertCampaign(newCampaign("B", at: now.addingTimeInterval(50)), now: now)
            #expect(try await store.nextScheduledCampaign() == now.addingTimeInterval(50))
            #expect(try await store.startDueCampaigns(now: now).isEmpty)
            #expect(try await store.campaign(id: "B")?.state == .scheduled)

            _ = try await store.insertCampaign(newCampaign("C", at: now.addingTimeInterval(-10)), now: now)
            #expect(try await store.nextScheduledCampaign() == now.addingTimeInterval(-10))
            let first = try await store.startDueCampaigns(now: now)
            #expect(first.map(\.id) == ["C"])
            #expect(first.first?.state == .running && first.first?.startedAt == now)
            #expect(try await store.nextScheduledCampaign() == now.addingTimeInterval(50))

            // Exactly due; the running one comes again, oldest first, its start kept.
            let second = try await store.startDueCampaigns(now: now.addingTimeInterval(50))
            #expect(second.map(\.id) == ["B", "C"])
            #expect(second.map(\.startedAt) == [now.addingTimeInterval(50), now])
            #expect(try await store.campaign(id: "A")?.state == .scheduled)
            #expect(try await store.nextScheduledCampaign() == now.addingTimeInterval(100))
            #expect(try await store.startDueCampaigns(now: now.addingTimeInterval(100)).map(\.id) == ["A", "B", "C"])
            #expect(try await store.nextScheduledCampaign() == nil)

            // One without a time is due at once.
            _ = try await store.insertCampaign(newCampaign("E"), now: now)
            let next = try #require(try await store.nextScheduledCampaign())
            #expect(next <= now)
            #expect(try await store.startDueCampaigns(now: now).map(\.id) == ["A", "B", "C", "E"])
        }
    }

    // MARK: Passes

    @Test("campaignPasses reads a template's passes in serial-number (byte) order after a cursor, or given serial numbers",
          arguments: StoreKind.campaignKinds)
    func campaignPasses(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let records = try await Fixtures.insert(["P03", "P01", "a1", "P10", "P02"], into: store)
            let other = try await Fixtures.insert(["P04"], passType: Fixtures.otherPassType, into: store)[0]
            var elsewhere = Fixtures.newPass("P05")
            elsewhere.template = "other"
            let otherTemplate = try await store.insertPass(elsewhere, now: Fixtures.now)
            let voided = try #require(try await Fixtures.void("P03", in: store)).pass
            let bySerial = Dictionary(uniqueKeysWithValues: (records + [other]).map { ($0.serialNumber, $0) })
                .merging(["P03": voided]) { $1 }

            let template = try await store.campaignPasses(.template("event"), after: nil, limit: 10)
            #expect(template.map(\.serialNumber) == ["P01", "P02", "P03", "P04", "P10", "a1"])
            #expect(template == template.map { bySerial[$0.serialNumber]! })
            #expect(template.first { $0.serialNumber == "P03" }?.voided == true)
            #expect(try await store.campaignPasses(.template("event"), after: nil, limit: 2).map(\.serialNumber) == ["P01", "P02"])
            #expect(try await store.campaignPasses(.template("event"), after: "P02", limit: 2).map(\.serialNumber) == ["P03", "P04"])
            #expect(try await store.campaignPasses(.template("event"), after: "P099", limit: 10).map(\.serialNumber) == ["P10", "a1"])
            #expect(try await store.campaignPasses(.template("event"), after: "a1", limit: 10).isEmpty)
            #expect(try await store.campaignPasses(.template("event"), after: nil, limit: 0).isEmpty)
            #expect(try await store.campaignPasses(.template("other"), after: nil, limit: 10) == [otherTemplate])
            #expect(try await store.campaignPasses(.template("nope"), after: nil, limit: 10).isEmpty)

            let listed = CampaignPassSelection.serialNumbers(
                passTypeIdentifier: Fixtures.passType, ["P10", "P01", "missing", "P03", "P01", "P04"])
            let found = try await store.campaignPasses(listed, after: nil, limit: 10)
            #expect(found.map(\.serialNumber) == ["P01", "P03", "P10"])
            #expect(found == found.map { bySerial[$0.serialNumber]! })
            #expect(try await store.campaignPasses(listed, after: "P01", limit: 1).map(\.serialNumber) == ["P03"])
            #expect(try await store.campaignPasses(listed, after: nil, limit: 2).map(\.serialNumber) == ["P01", "P03"])
            #expect(try await store.campaignPasses(
                .serialNumbers(passTypeIdentifier: Fixtures.otherPassType, ["P01", "P04"]), after: nil, limit: 10) == [other])
            #expect(try await store.campaignPasses(
                .serialNumbers(passTypeIdentifier: Fixtures.passType, []), after: nil, limit: 10).isEmpty)
        }
    }

    // MARK: Batches

    @Test("batches change passes with new increasing tags, owe one push per push token and pass type per campaign, queued when it ends",
          arguments: StoreKind.campaignKinds)
    func batches(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let before = try await Fixtures.insert(["S1", "S2", "S3", "S4"], into: store)
            let otherType = try await Fixtures.insert(["O1"], passType: Fixtures.otherPassType, into: store)[0]
            // dev-1 holds S1 and S2, dev-2 shares its token and holds S3; dev-3 holds S2, dev-4 S4; dev-1 also holds a
            // pass of another type, which no batch changes.
            _ = try await Fixtures.register("dev-1", token: "token-a", "S1", in: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "S2", in: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "O1", passType: Fixtures.otherPassType, in: store)
            _ = try await Fixtures.register("dev-2", token: "token-a", "S3", in: store)
            _ = try await Fixtures.register("dev-3", token: "token-b", "S2", in: store)
            _ = try await Fixtures.register("dev-4", token: "token-c", "S4", in: store)
            let campaign = try await running("B", in: store)
            let lastTag = max(before.map(\.updateTag).max()!, otherType.updateTag)

            // First batch: S1's data, S2 voided, one failure.
            let failure = CampaignFailure(serialNumber: "S0", reason: "no such pass")
            let first = try written(try await store.writeCampaignBatch(batch(
                "B", after: campaign.cursor, to: "S2",
                [change(before[0], data: #"{"seat":"new"}"#), change(before[1], voided: true)], failures: [failure]
            ), now: Fixtures.now))
            #expect(first.state == .running && first.cursor == "S2")
            #expect(first.matched == 3 && first.changed == 2 && first.failed == 1 && first.errors == [failure])
            #expect(first.pushesQueued == 2 && first.pushesSent == 0 && first.finishedAt == nil)
            #expect(try await store.campaign(id: "B") == first)

            let afterFirst = try await passes(["S1", "S2", "S3", "S4"], in: store)
            #expect(afterFirst[0].data == Data(#"{"seat":"new"}"#.utf8) && afterFirst[0].voided == false)
            #expect(afterFirst[1].data == before[1].data && afterFirst[1].voided == true)
            #expect(afterFirst[0].updateTag > lastTag && afterFirst[1].updateTag > afterFirst[0].updateTag)
            #expect(afterFirst[0].lastModified == Fixtures.now.addingTimeInterval(1))
            #expect(afterFirst[0].authenticationToken == before[0].authenticationToken)
            #expect(Array(afterFirst[2...]) == Array(before[2...]))
            #expect(try await Fixtures.serialNumbers("dev-1", since: lastTag, in: store)?.serialNumbers == ["S1", "S2"])
            #expect(try await store.pass(passTypeIdentifier: Fixtures.otherPassType, serialNumber: "O1") == otherType)

            // Owed (token-a for two changed passes on dev-1, and token-b), but held while the campaign runs: a later
            // batch may change more of these devices' passes.
            #expect(try await claimAll(store).isEmpty)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 0)

            // Second and last batch: token-a is owed already; token-c is new.
            let second = try written(try await store.writeCampaignBatch(batch(
                "B", after: "S2", to: "S4",
                [change(afterFirst[2], data: #"{"seat":"3"}"#), change(afterFirst[3], data: #"{"seat":"4"}"#, voided: true)],
                finishes: true
            ), now: Fixtures.now.addingTimeInterval(30)))
            #expect(second.state == .done && second.finishedAt == Fixtures.now.addingTimeInterval(30))
            #expect(second.cursor == "S4" && second.matched == 5 && second.changed == 4 && second.failed == 1)
            #expect(second.errors == [failure] && second.pushesQueued == 3 && second.pushesSent == 0)
            let afterSecond = try await passes(["S1", "S2", "S3", "S4"], in: store)
            #expect(afterSecond[2].updateTag > afterFirst[1].updateTag && afterSecond[3].updateTag > afterSecond[2].updateTag)
            #expect(afterSecond[3].voided && afterSecond[3].data == Data(#"{"seat":"4"}"#.utf8))
            #expect(afterSecond[2].lastModified == Fixtures.now.addingTimeInterval(30))
            #expect(try await claimAll(store, at: Fixtures.now.addingTimeInterval(30)).isEmpty)

            // Ended: its pushes are queued, at most `limit` at a time, each once; nothing for the other pass type.
            let releaseTime = Fixtures.now.addingTimeInterval(31)
            #expect(try await store.releaseCampaignPushes(limit: 2, now: releaseTime) == 2)
            #expect(try await store.releaseCampaignPushes(limit: 2, now: releaseTime) == 1)
            #expect(try await store.releaseCampaignPushes(limit: 2, now: releaseTime) == 0)
            let pushes = try await claimAll(store, at: releaseTime)
            #expect(pushes.map(\.pushToken).sorted() == ["token-a", "token-b", "token-c"])
            #expect(pushes.allSatisfy { $0.passTypeIdentifier == Fixtures.passType && $0.generation == 1 })
            for push in pushes { try await store.completePush(push) }
            #expect(try await store.campaign(id: "B")?.pushesSent == 3)
            // A finished campaign takes no more batches.
            #expect(try await store.writeCampaignBatch(batch("B", after: "S4", to: "S5", [], matched: 0), now: Fixtures.now)
                == .cursorMoved)

            // A later campaign owes the same devices again; cancelled after its first batch, it still pushes the
            // devices of the passes it changed.
            _ = try await running("B2", in: store)
            let later = try written(try await store.writeCampaignBatch(
                batch("B2", after: nil, to: "S2", [change(afterSecond[0], voided: true), change(afterSecond[1], voided: false)]),
                now: Fixtures.now.addingTimeInterval(60)))
            #expect(later.pushesQueued == 2 && later.pushesSent == 0)
            #expect(try await claimAll(store, at: Fixtures.now.addingTimeInterval(60)).isEmpty)
            _ = try await store.cancelCampaign(id: "B2", now: Fixtures.now.addingTimeInterval(61))
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now.addingTimeInterval(61)) == 2)
            #expect(try await claimAll(store, at: Fixtures.now.addingTimeInterval(61)).map(\.pushToken).sorted()
                == ["token-a", "token-b"])
            #expect(try await store.campaign(id: "B")?.pushesSent == 3)
        }
    }
}
