import Foundation
import PassStore
import PostgresStore
import Testing
import TesseraTestSupport

/// Campaign batches that write nothing or part of their counts, pushes marked sent, and two PostgreSQL instances racing.
extension CampaignStoreConformanceTests {
    @Test("errors keep the first ones and the campaign's own reason; a batch without changes still moves the cursor and counts",
          arguments: StoreKind.campaignKinds)
    func keptErrors(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            _ = try await running("E", in: store)
            let failures = (0..<30).map { CampaignFailure(serialNumber: "X\($0)", reason: "reason \($0)") }
            let first = try written(try await store.writeCampaignBatch(
                batch("E", after: nil, to: "X14", [], failures: Array(failures[0..<15])), now: Fixtures.now))
            #expect(first.errors == Array(failures[0..<15]) && first.failed == 15 && first.matched == 15)
            let second = try written(try await store.writeCampaignBatch(
                batch("E", after: "X14", to: "X29", [], failures: Array(failures[15...])), now: Fixtures.now))
            #expect(second.errors == Array(failures[0..<CampaignRecord.keptErrors]))
            #expect(second.failed == 30 && second.matched == 30 && second.changed == 0 && second.pushesQueued == 0)
            #expect(second.cursor == "X29")
            #expect(try await store.campaign(id: "E") == second)
            // The campaign's own reason is kept even when the list is full: in place of the last pass's failure.
            try await store.failCampaign(id: "E", reason: "stopped", now: Fixtures.now)
            #expect(try await store.campaign(id: "E")?.errors
                    == Array(failures[0..<(CampaignRecord.keptErrors - 1)]) + [CampaignFailure(serialNumber: "", reason: "stopped")])
        }
    }

    @Test("a batch read after a cursor that moved, or for a campaign that is not running, writes nothing",
          arguments: StoreKind.campaignKinds)
    func cursorMoved(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let before = try await Fixtures.insert(["M1", "M2"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "M2", in: store)
            _ = try await running("M", in: store)
            let first = try written(try await store.writeCampaignBatch(
                batch("M", after: nil, to: "M1", [change(before[0], voided: true)]), now: Fixtures.now))
            let afterFirst = try await passes(["M1", "M2"], in: store)

            // The same batch again (another process wrote it), and one after a cursor the campaign never had.
            #expect(try await store.writeCampaignBatch(
                batch("M", after: nil, to: "M1", [change(afterFirst[0], data: "{}")]), now: Fixtures.now) == .cursorMoved)
            #expect(try await store.writeCampaignBatch(
                batch("M", after: "M0", to: "M2", [change(afterFirst[1], data: "{}")]), now: Fixtures.now) == .cursorMoved)
            #expect(try await store.writeCampaignBatch(
                batch("nope", after: nil, to: "M2", [change(afterFirst[1], data: "{}")]), now: Fixtures.now) == .cursorMoved)
            _ = try await store.insertCampaign(newCampaign("later", at: Fixtures.now.addingTimeInterval(600)), now: Fixtures.now)
            #expect(try await store.writeCampaignBatch(
                batch("later", after: nil, to: "M2", [change(afterFirst[1], data: "{}")]), now: Fixtures.now) == .cursorMoved)

            #expect(try await passes(["M1", "M2"], in: store) == afterFirst)
            #expect(try await store.campaign(id: "M") == first)
            #expect(try await store.campaign(id: "later")?.cursor == nil)
            #expect(try await claimAll(store).isEmpty)

            // The writes that did nothing left no owed push behind: the batch that changes M2 owes dev-1's, counts
            // it, and the campaign's end releases exactly that one.
            let done = try written(try await store.writeCampaignBatch(
                batch("M", after: "M1", to: "M2", [change(afterFirst[1], data: "{}")], finishes: true), now: Fixtures.now))
            #expect(done.state == .done && done.changed == 2 && done.pushesQueued == 1, "\(done)")
            #expect(try await store.releaseCampaignPushes(limit: 10, now: Fixtures.now) == 1)
            #expect(try await store.releaseCampaignPushes(limit: 10, now: Fixtures.now) == 0)
        }
    }

    @Test("a pass changed since it was read rolls the whole batch back: no pass, push, count or cursor changes",
          arguments: StoreKind.campaignKinds)
    func passChanged(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let read = try await Fixtures.insert(["C1", "C2", "C3"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "C1", in: store)
            _ = try await Fixtures.register("dev-3", token: "token-c", "C3", in: store)
            let campaign = try await running("C", in: store)
            // C2 (no device) changes after the batch was read.
            let changed = try #require(try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "C2", change: PassChange(data: Data("{}".utf8)),
                now: Fixtures.now))
            #expect(changed.pushesQueued == 0)
            let current = try await passes(["C1", "C2", "C3"], in: store)

            let stale = batch("C", after: nil, to: "C3", read.map { change($0, data: #"{"v":2}"#) },
                              failures: [CampaignFailure(serialNumber: "C9", reason: "gone")], finishes: true)
            #expect(try await store.writeCampaignBatch(stale, now: Fixtures.now.addingTimeInterval(5)) == .passChanged)
            #expect(try await passes(["C1", "C2", "C3"], in: store) == current)
            #expect(try await store.campaign(id: "C") == campaign)
            #expect(try await claimAll(store).isEmpty)

            // A pass that is gone is a changed one too.
            let missing = batch("C", after: nil, to: "C3", [
                change(current[0], data: #"{"v":2}"#),
                CampaignPassChange(serialNumber: "C9", updateTag: current[0].updateTag, data: nil, voided: true),
            ])
            #expect(try await store.writeCampaignBatch(missing, now: Fixtures.now) == .passChanged)
            #expect(try await passes(["C1", "C2", "C3"], in: store) == current)
            #expect(try await store.campaign(id: "C") == campaign)

            // Read again: written, with the pushes the rolled-back attempts did not keep.
            let fresh = batch("C", after: nil, to: "C3", current.map { change($0, data: #"{"v":2}"#) }, finishes: true)
            let record = try written(try await store.writeCampaignBatch(fresh, now: Fixtures.now))
            #expect(record.changed == 3 && record.pushesQueued == 2 && record.state == .done && record.errors.isEmpty)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 2)
            #expect(try await claimAll(store).map(\.pushToken).sorted() == ["token-a", "token-c"])
        }
    }

    @Test("a campaign's push counts as sent once its queue entry is done, for every campaign that owed it",
          arguments: StoreKind.campaignKinds)
    func pushesSent(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            try await Fixtures.insert(["T1", "T2"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "T1", in: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "T2", in: store)
            _ = try await running("A", in: store)
            var current = try await passes(["T1", "T2"], in: store)
            let a = try written(try await store.writeCampaignBatch(
                batch("A", after: nil, to: "T1", [change(current[0], data: #"{"a":1}"#)], finishes: true), now: Fixtures.now))
            #expect(a.pushesQueued == 1)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 1)

            // A pass change while A's push is in flight bumps it: completing the flight releases it, not sent yet.
            let inFlight = try #require(try await claimAll(store).first)
            _ = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "T2", change: PassChange(voided: true), now: Fixtures.now)
            try await store.completePush(inFlight)
            #expect(try await store.campaign(id: "A")?.pushesSent == 0)
            let next = try #require(try await claimAll(store, at: Fixtures.now.addingTimeInterval(1)).first)
            #expect(next.id == inFlight.id && next.generation == inFlight.generation + 1)
            try await store.completePush(next)
            #expect(try await store.campaign(id: "A")?.pushesSent == 1)

            // A push for another change while a running campaign holds the device's push does not count for it: the
            // campaign may still change the device's other passes.
            _ = try await running("H", in: store)
            current = try await passes(["T1", "T2"], in: store)
            _ = try written(try await store.writeCampaignBatch(
                batch("H", after: nil, to: "T1", [change(current[0], data: #"{"h":1}"#)]), now: Fixtures.now))
            _ = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "T2", change: PassChange(voided: false), now: Fixtures.now)
            let other = try await claimAll(store, at: Fixtures.now.addingTimeInterval(2))
            #expect(other.count == 1)
            for push in other { try await store.completePush(push) }
            #expect(try await store.campaign(id: "H")?.pushesSent == 0)
            current = try await passes(["T1", "T2"], in: store)
            let h = try written(try await store.writeCampaignBatch(
                batch("H", after: "T1", to: "T2", [change(current[1], data: #"{"h":2}"#)], finishes: true), now: Fixtures.now))
            #expect(h.state == .done && h.pushesQueued == 1)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now.addingTimeInterval(3)) == 1)
            let held = try await claimAll(store, at: Fixtures.now.addingTimeInterval(3))
            #expect(held.count == 1)
            for push in held { try await store.completePush(push) }
            #expect(try await store.campaign(id: "H")?.pushesSent == 1)

            // Two campaigns owing the same device: one queue entry (the second bumps it), and one push serves both.
            _ = try await running("B", in: store)
            _ = try await running("C", in: store)
            current = try await passes(["T1", "T2"], in: store)
            let b = try written(try await store.writeCampaignBatch(
                batch("B", after: nil, to: "T1", [change(current[0], data: #"{"b":1}"#)], finishes: true), now: Fixtures.now))
            let c = try written(try await store.writeCampaignBatch(
                batch("C", after: nil, to: "T2", [change(current[1], data: #"{"c":1}"#)], finishes: true), now: Fixtures.now))
            #expect(b.pushesQueued == 1 && c.pushesQueued == 1)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 1)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 1)
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 0)
            // A stale completion of the push already done marks nothing.
            try await store.completePush(next)
            #expect(try await store.campaign(id: "B")?.pushesSent == 0)
            let shared = try await claimAll(store, at: Fixtures.now.addingTimeInterval(4))
            #expect(shared.count == 1 && shared.first?.generation == 2)
            try await store.completePush(try #require(shared.first))
            #expect(try await store.campaign(id: "A")?.pushesSent == 1)
            #expect(try await store.campaign(id: "B")?.pushesSent == 1)
            #expect(try await store.campaign(id: "C")?.pushesSent == 1)
            let listed = try await store.campaigns(state: .done, limit: 10, beforeSequence: nil)
            #expect(listed.map(\.id) == ["C", "B", "H", "A"] && listed.map(\.pushesSent) == [1, 1, 1, 1])
        }
    }

    // MARK: Several processes

    @Test("two PostgreSQL instances writing the same batch: exactly one writes it",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func racingInstances() async throws {
        try await withPostgresStores(count: 2) { stores in
            let serialNumbers = (0..<40).map { String(format: "R%02d", $0) }
            try await Fixtures.insert(serialNumbers, into: stores[0])
            for (index, serialNumber) in serialNumbers.enumerated() {
                _ = try await Fixtures.register("dev-\(index % 10)", token: "token-\(index % 10)", serialNumber, in: stores[index % 2])
            }
            _ = try await running("race", in: stores[1])
            var cursor: String?
            for round in 0..<8 {
                let campaign = try #require(try await stores[round % 2].campaign(id: "race"))
                #expect(campaign.cursor == cursor)
                let passes = try await stores[0].campaignPasses(.template("event"), after: campaign.cursor, limit: 5)
                let next = batch(
                    "race", after: campaign.cursor, to: passes.last?.serialNumber,
                    passes.map { change($0, data: #"{"round":\#(round)}"#) }, finishes: round == 7)
                let outcomes = try await withThrowingTaskGroup(of: CampaignBatchOutcome.self) { group in
                    for store in stores {
                        group.addTask { try await store.writeCampaignBatch(next, now: Fixtures.now) }
                    }
                    return try await group.reduce(into: [CampaignBatchOutcome]()) { $0.append($1) }
                }
                let writes = outcomes.filter { if case .written = $0 { true } else { false } }
                #expect(writes.count == 1, "round \(round): \(outcomes)")
                #expect(outcomes.filter { $0 == .cursorMoved }.count == 1, "round \(round): \(outcomes)")
                cursor = passes.last?.serialNumber
            }
            let done = try #require(try await stores[0].campaign(id: "race"))
            #expect(done.state == .done && done.changed == 40 && done.matched == 40)
            #expect(done.pushesQueued == 10)
            let changed = try await stores[1].campaignPasses(.template("event"), after: nil, limit: 100)
            #expect(changed.count == 40)
            #expect(Set(changed.map(\.updateTag)).count == 40)
            #expect(changed.allSatisfy { $0.lastModified == Fixtures.now.addingTimeInterval(1) })
            // Both instances queue the ended campaign's pushes at once, a few at a time: each is queued once.
            let released = try await withThrowingTaskGroup(of: Int.self) { group in
                for store in stores {
                    group.addTask {
                        var count = 0
                        while case let released = try await store.releaseCampaignPushes(limit: 3, now: Fixtures.now),
                              released > 0 { count += released }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
            // An instance that finds the campaign locked by the other queues nothing and stops; the other goes on.
            #expect(released == 10)
            let pushes = try await stores[0].claimPushes(limit: 100, now: Fixtures.now, lease: 30)
            #expect(pushes.count == 10 && pushes.allSatisfy { $0.generation == 1 })
        }
    }
}
