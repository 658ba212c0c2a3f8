import Foundation
import PassStore
import PostgresStore
import Testing
import TesseraTestSupport

/// The event log every store keeps beside its changes: which changes record which events, in one transaction with
/// them, read back in order through cursors.
@Suite("EventStore conformance")
struct EventStoreConformanceTests {
    func log(_ store: any PassStore) throws -> any EventStore {
        try #require(store as? any EventStore, "the store keeps no event log")
    }

    /// Every event from the start, read in pages of `pageSize`, until at least `count` have shown up (or 30 s,
    /// scaled, passed): on PostgreSQL an event is readable once every older transaction on the server has ended, and
    /// the suite's other tests run transactions of their own on the same server.
    /// Items' `*.created` events are left out unless `includingCreated`: each test inserts its passes first.
    func allEvents(_ store: any EventStore, types: Set<String> = [], pageSize: Int = 1_000, count: Int = 0,
                   includingCreated: Bool = false)
        async throws -> [WalletEvent]
    {
        var cursor = EventCursor.start
        var events: [WalletEvent] = []
        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
        while true {
            let page = try await store.events(after: cursor, types: types, limit: pageSize)
            events += page.filter { includingCreated || !$0.type.hasSuffix(".created") }
            if let last = page.last {
                #expect(last.cursor > cursor)
                cursor = last.cursor
            } else if events.count >= count || ContinuousClock.now >= deadline {
                return events
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    func object(_ event: WalletEvent) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: event.data) as? [String: Any])
    }

    @Test("device registrations, changes, voiding and personalization record their events; no-ops record none",
          arguments: StoreKind.tested)
    func itemEvents(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let events = try log(store)
            let isOrder = kind == .sqliteOrders || kind == .postgresOrders
            let prefix = isOrder ? "order" : "pass"
            try await Fixtures.insert(["E1", "E2"], into: store)
            let created = try await allEvents(events, count: 2, includingCreated: true)
            #expect(created.map(\.type) == ["\(prefix).created", "\(prefix).created"], "creating an item records its creation")
            #expect(try object(created[0])["updateTag"] != nil && object(created[0])["template"] != nil)

            #expect(try await Fixtures.register("device-a", token: "t-a", "E1", in: store) == .created)
            #expect(try await Fixtures.register("device-a", token: "t-a2", "E1", in: store) == .updated)
            _ = try? await Fixtures.register("device-a", token: "t-a", "missing", in: store)
            _ = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "E1",
                change: PassChange(data: Data(#"{"seat":"9"}"#.utf8)), now: Fixtures.now)
            _ = try await Fixtures.void("E1", in: store)
            // A change that does not apply (a stale tag, a missing pass) records nothing.
            _ = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "E1", change: PassChange(voided: false, onlyIfUpdateTag: 1),
                now: Fixtures.now)
            _ = try await Fixtures.void("missing", in: store)
            #expect(try await Fixtures.unregister("device-a", "E1", in: store))
            #expect(try await !Fixtures.unregister("device-a", "E1", in: store))

            let recorded = try await allEvents(events, count: isOrder ? 4 : 5)
            var expected = ["\(prefix).registered", "\(prefix).updated"]
            expected += isOrder ? ["\(prefix).updated"] : ["pass.updated", "pass.voided"]
            expected.append("\(prefix).unregistered")
            #expect(recorded.map(\.type) == expected)
            #expect(recorded.map(\.id) == recorded.map(\.id).sorted() && Set(recorded.map(\.id)).count == recorded.count)

            let registered = try object(recorded[0])
            let device = WalletEventDraft.deviceHash("device-a")
            #expect(registered["device"] as? String == device && device.count == 32)
            #expect(registered[isOrder ? "orderTypeIdentifier" : "passTypeIdentifier"] as? String == Fixtures.passType)
            #expect(registered[isOrder ? "orderIdentifier" : "serialNumber"] as? String == "E1")
            #expect(!String(decoding: recorded[0].data, as: UTF8.self).contains("device-a"))
            #expect(!recorded.contains { String(decoding: $0.data, as: UTF8.self).contains("t-a") })
            #expect(recorded[0].createdAt == Fixtures.now)
            let updated = try object(recorded[1])
            #expect(updated["changed"] as? [String] == ["data"] && updated["template"] as? String == "event")
            #expect(updated["campaign"] == nil && (updated["updateTag"] as? Int).map { $0 > 0 } == true)
            let voiding = try object(recorded[2])
            #expect(voiding["changed"] as? [String] == ["voided"])
            #expect(try object(recorded.last!)["reason"] as? String == "unregistered")
        }
    }

    @Test("personalizing a pass records pass.personalized with the members' names, not their values",
          arguments: StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres })
    func personalized(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["P1"], into: store)
            let info = Data(#"{"fullName":"Ada Lovelace","emailAddress":"ada@example.com"}"#.utf8)
            let change = PassChange(personalization: info, onlyIfNotPersonalized: true)
            _ = try await store.updatePass(passTypeIdentifier: Fixtures.passType, serialNumber: "P1", change: change, now: Fixtures.now)
            #expect(try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "P1", change: change, now: Fixtures.now) == nil)
            let recorded = try await allEvents(try log(store), count: 2)
            #expect(recorded.map(\.type) == ["pass.updated", "pass.personalized"])
            #expect(try object(recorded[1])["fields"] as? [String] == ["emailAddress", "fullName"])
            #expect(!recorded.contains { String(decoding: $0.data, as: UTF8.self).contains("Ada") })
        }
    }

    @Test("APNs dropping a push token records pass.unregistered for each of its passes", arguments: StoreKind.tested)
    func pushTokenRemoved(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["G1", "G2"], into: store)
            _ = try await Fixtures.register("device-g", token: "gone", "G1", in: store)
            _ = try await Fixtures.register("device-g", token: "gone", "G2", in: store)
            #expect(try await store.removeRegistrations(
                pushToken: "gone", passTypeIdentifier: Fixtures.passType, unlessRefreshedAfter: nil) == 2)
            let removals = try await allEvents(try log(store), count: 4).filter { $0.type.hasSuffix(".unregistered") }
            #expect(removals.count == 2)
            #expect(try removals.map { try object($0)["reason"] as? String } == ["pushTokenInvalid", "pushTokenInvalid"])
            #expect(Set(try removals.map { try object($0)["serialNumber"] ?? object($0)["orderIdentifier"] }
                .compactMap { $0 as? String }) == ["G1", "G2"])
        }
    }

    @Test("pages after a cursor neither skip nor repeat; a type filter keeps only its types; old events are deleted",
          arguments: StoreKind.tested)
    func paging(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let events = try log(store)
            try await Fixtures.insert(["Q1"], into: store)
            for index in 0..<25 {
                let time = Fixtures.now.addingTimeInterval(Double(index))
                _ = try await Fixtures.register("device-\(index)", token: "t\(index)", "Q1", at: time, in: store)
                if index.isMultiple(of: 5) {
                    _ = try await store.updatePass(
                        passTypeIdentifier: Fixtures.passType, serialNumber: "Q1",
                        change: PassChange(data: Data(#"{"n":\#(index)}"#.utf8)), now: time)
                }
            }
            let whole = try await allEvents(events, count: 30)
            #expect(whole.count == 30)
            let paged = try await allEvents(events, pageSize: 7, count: 30)
            #expect(paged == whole)
            let updatesOnly = try await allEvents(events, types: [whole[1].type], pageSize: 2, count: 5)
            #expect(updatesOnly.map(\.id) == whole.filter { $0.type == whole[1].type }.map(\.id))
            #expect(try await events.events(after: whole.last!.cursor, types: [], limit: 10).isEmpty)

            // Events the analytics rollups have not folded yet are kept, however old. SQLite folds each event in the
            // transaction that records it while the fold is caught up, as here: those are gone at once.
            var deleted = 0
            if let analytics = store as? any AnalyticsStore, !(store is MemoryPassStore) {
                deleted = try await events.deleteEvents(createdBefore: Fixtures.now.addingTimeInterval(10), limit: 100)
                let foldedAtWrite = kind == .sqlite || kind == .sqliteOrders
                #expect(deleted == (foldedAtWrite ? 13 : 0))
                var folded = 0
                let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
                while folded < (foldedAtWrite ? 0 : 31), ContinuousClock.now < deadline {
                    let round = try await analytics.foldAnalytics(limit: 100)
                    folded += round
                    if round == 0 { try await Task.sleep(for: .milliseconds(20)) }
                }
            }
            // Events of the first ten seconds go; a small batch size takes several rounds of the caller's.
            while true {
                let round = try await events.deleteEvents(createdBefore: Fixtures.now.addingTimeInterval(10), limit: 4)
                deleted += round
                if round == 0 { break }
            }
            let kept = try await allEvents(events, count: 18)
            // The pass's creation, at the start, goes too.
            #expect(deleted == 13 && kept.count == 18)
            #expect(kept.allSatisfy { $0.createdAt >= Fixtures.now.addingTimeInterval(10) })
        }
    }

    @Test("a campaign's changes record pass.updated with its id, and its end campaign.finished",
          arguments: StoreKind.campaignKinds)
    func campaignEvents(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let passes = try await Fixtures.insert(["K1", "K2"], into: store)
            _ = try await store.insertCampaign(NewCampaign(
                id: "camp-1", specification: Data("{}".utf8), requestHash: "h", idempotencyKey: nil, scheduledAt: nil),
                now: Fixtures.now)
            _ = try await store.startDueCampaigns(now: Fixtures.now)
            let changes = passes.map {
                CampaignPassChange(serialNumber: $0.serialNumber, updateTag: $0.updateTag, data: nil, voided: true,
                                   previous: $0)
            }
            let outcome = try await store.writeCampaignBatch(CampaignBatch(
                campaignID: "camp-1", expectedCursor: nil, cursor: "K2", passTypeIdentifier: Fixtures.passType,
                changes: changes, matched: 2, failures: [], finishes: true), now: Fixtures.now)
            guard case .written = outcome else { Issue.record("batch not written: \(outcome)"); return }
            _ = try await store.insertCampaign(NewCampaign(
                id: "camp-2", specification: Data("{}".utf8), requestHash: "h2", idempotencyKey: nil,
                scheduledAt: Fixtures.now.addingTimeInterval(3_600)), now: Fixtures.now)
            _ = try await store.cancelCampaign(id: "camp-2", now: Fixtures.now)
            _ = try await store.cancelCampaign(id: "camp-2", now: Fixtures.now)

            let recorded = try await allEvents(try log(store), count: 6)
            #expect(recorded.map(\.type) == [
                "pass.updated", "pass.voided", "pass.updated", "pass.voided", "campaign.finished", "campaign.finished",
            ])
            #expect(try object(recorded[0])["campaign"] as? String == "camp-1")
            #expect(try object(recorded[0])["changed"] as? [String] == ["voided"])
            let finished = try object(recorded[4])
            #expect(finished["campaign"] as? String == "camp-1" && finished["state"] as? String == "done")
            #expect(finished["changed"] as? Int == 2)
            #expect(try object(recorded[5])["state"] as? String == "cancelled")
        }
    }
}

/// PostgreSQL's concurrent writers take event ids out of commit order: a reader polling while they write must still
/// see every event exactly once.
@Suite("Event log under concurrent writers")
struct EventLogConcurrencyTests {
    @Test("two PostgreSQL stores registering 400 devices at once while a reader polls: every event seen once, in order")
    func concurrentWriters() async throws {
        guard !TestPostgres.skipped else { return }
        try await withPostgresStores(count: 2) { stores in
            try await Fixtures.insert((0..<8).map { "W\($0)" }, into: stores[0])
            let done = DoneFlag()
            let writers = Task {
                defer { Task { await done.set() } }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<400 {
                        group.addTask {
                            _ = try await Fixtures.register(
                                "device-\(index)", token: "t\(index)", "W\(index % 8)", in: stores[index % 2])
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var seen: [WalletEvent] = []
            var cursor = EventCursor.start
            // Polls while the writers run, then until every event showed up: an event becomes visible once every
            // transaction older than its own has ended, and other tests' transactions on the same server count too.
            let deadline = ContinuousClock.now + .seconds(TestTime.seconds(60))
            while seen.count < 400, ContinuousClock.now < deadline {
                let finished = await done.value
                let page = try await stores[1].events(after: cursor, types: [], limit: 37)
                seen += page.filter { !$0.type.hasSuffix(".created") }
                if let last = page.last { cursor = last.cursor }
                if finished && page.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            try await writers.value
            #expect(seen.count == 400)
            #expect(Set(seen.map(\.id)).count == 400)
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        }
    }

}

private actor DoneFlag {
    private(set) var value = false
    func set() { value = true }
}
