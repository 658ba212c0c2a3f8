import Foundation
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// SQLite folds an event into the analytics rollups in the transaction that records it, while the fold has folded
/// every earlier event; behind, it leaves the event to the analytics worker, in order, and the log keeps it until then.
@Suite("SQLiteStore: analytics folded as events are written")
struct SQLiteAnalyticsFoldTests {
    /// Every rollup from the fixtures' day to now (an unregistration is recorded at the time it is made).
    private static func totals(_ store: SQLiteStore) async throws -> AnalyticsRow {
        let rows = try await store.analyticsRows(AnalyticsFilter(), from: Fixtures.now.addingTimeInterval(-86_400),
                                                 to: Date().addingTimeInterval(86_400)).rows
        return rows.reduce(into: AnalyticsRow(hour: Fixtures.now)) { $0.add($1) }
    }

    private static func sqlite(_ path: String, _ sql: String) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, sql])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("caught up: folded at write, nothing left for the worker; behind: left to the worker in order, then at write again")
    func foldAtWrite() async throws {
        try await withSQLiteFile { path in
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            try await Fixtures.insert(["L1", "L2", "L3"], into: store)
            #expect(try await Fixtures.register("dev-a", token: "t", "L1", in: store) == .created)
            #expect(try await store.foldAnalytics(limit: 100) == 0, "the creations and the registration were folded at write")
            var totals = try await Self.totals(store)
            #expect(totals.installs == 1 && totals.activePassesChange == 1 && totals.activeDevicesChange == 1)
            // An event the fold has not seen, as a process that does not fold at write (an earlier release) leaves it.
            let hash = WalletEventDraft.deviceHash("dev-x")
            _ = try await Self.sqlite(path, """
                INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
                VALUES ('pass.registered', \(Fixtures.now.timeIntervalSince1970), '\(Fixtures.passType)', 'L2', '\(hash)', '{}');
                """)
            // Behind by one event: the next registration is not folded before it, nor is the log's old part deleted.
            #expect(try await Fixtures.register("dev-b", token: "t", "L2", in: store) == .created)
            #expect(try await Self.totals(store).installs == 1)
            #expect(try await store.deleteEvents(createdBefore: Date(), limit: 100) == 4, "only the folded events go")
            #expect(try await store.foldAnalytics(limit: 100) == 2)
            totals = try await Self.totals(store)
            // dev-x installed L2 first, so dev-b's L2 is a new install but not a newly active pass.
            #expect(totals.installs == 3 && totals.activePassesChange == 2 && totals.activeDevicesChange == 3)
            // Caught up again: folded at write.
            #expect(try await Fixtures.register("dev-a", token: "t", "L3", in: store) == .created)
            #expect(try await Fixtures.unregister("dev-a", "L1", in: store))
            #expect(try await store.foldAnalytics(limit: 100) == 0)
            totals = try await Self.totals(store)
            #expect(totals.installs == 4 && totals.removals == 1)
            #expect(totals.activePassesChange == 2 && totals.activeDevicesChange == 3, "L1 inactive, L3 active; dev-a keeps L3")
            let state = try await Self.sqlite(path, """
                SELECT (SELECT cursor_id FROM analytics_state WHERE name = 'fold') = (SELECT max(id) FROM events),
                    (SELECT count(*) FROM analytics_registrations)
                """)
            #expect(state == "1|3", "the cursor at the last event; the mirror holds dev-x/L2, dev-b/L2, dev-a/L3")
        }
    }

    @Test("200 devices registering at once: every new registration folded once at write, also in shared transactions")
    func concurrentRegistrations() async throws {
        try await withSQLiteFile { path in
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            try await Fixtures.insert((0..<20).map { "C\($0)" }, into: store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Device i registers for passes i % 20 and (i + 7) % 20; every fifth asks again for its first.
                for index in 0..<200 {
                    group.addTask {
                        for serial in [index % 20, (index + 7) % 20] + (index.isMultiple(of: 5) ? [index % 20] : []) {
                            _ = try await Fixtures.register("dev-\(index)", token: "t", "C\(serial)", in: store)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.foldAnalytics(limit: 1_000) == 0)
            let totals = try await Self.totals(store)
            #expect(totals.installs == 400 && totals.activePassesChange == 20 && totals.activeDevicesChange == 200)
            #expect(try await Self.sqlite(path, "SELECT count(*) FROM analytics_registrations") == "400")
        }
    }
}
