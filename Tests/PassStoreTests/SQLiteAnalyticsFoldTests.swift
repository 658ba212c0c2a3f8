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
                    (SELECT count(*) FROM analytics_registrations),
                    (SELECT sql FROM sqlite_master WHERE name = 'analytics_registrations_device')
                """)
            #expect(state == "1|3|CREATE INDEX analytics_registrations_device ON analytics_registrations (template, device)", """
                the cursor at the last event; the mirror as the catch-up left it (dev-a/L1, dev-x/L2, dev-b/L2): the folds \
                at write read the registrations; the mirror's device index rebuilt with it
                """)
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
            #expect(try await Self.sqlite(path, "SELECT count(*) FROM analytics_registrations") == "0",
                    "folds at write read the registrations, not the mirror")
        }
    }

    /// Active passes and devices per template as the registrations themselves say.
    private static func truth(_ path: String) async throws -> String {
        try await sqlite(path, """
            SELECT p.template, count(DISTINCT r.pass_type_identifier || '/' || r.serial_number),
                count(DISTINCT r.device_library_identifier)
            FROM registrations r JOIN passes p USING (pass_type_identifier, serial_number)
            GROUP BY p.template ORDER BY p.template
            """)
    }

    /// Active passes and devices per template as the analytics rollups say (templates with none left out).
    private static func counted(_ store: SQLiteStore) async throws -> String {
        try await store.activeCounts().filter { $0.counts.passes != 0 || $0.counts.devices != 0 }
            .map { "\($0.template)|\($0.counts.passes)|\($0.counts.devices)" }.joined(separator: "\n")
    }

    /// A fixed pseudo-random sequence (SplitMix64), so a failure repeats.
    private struct Sequence: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("active counts equal the registrations' own after random registrations (many at once), removals and invalid tokens, folded at write and by a catch-up", arguments: [1, 2, 3])
    func activeCountsMatchRegistrations(seed: UInt64) async throws {
        try await withSQLiteFile { path in
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            var random = Sequence(state: seed)
            let serials = (0..<8).map { "R\($0)" }
            for (index, serial) in serials.enumerated() {
                var pass = Fixtures.newPass(serial)
                pass.template = index < 4 ? "event" : "member"
                _ = try await store.insertPass(pass, now: Fixtures.now)
            }
            let devices = (0..<6).map { "dev-\($0)" }
            func token(_ device: String) -> String { device < "dev-3" ? "token-a" : "token-b" }
            var installs = 0, removals = 0
            func step() async throws {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6:
                    // Several devices at once, often the same pass or device twice: a batch's events judged in order.
                    let group = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                        (devices.randomElement(using: &random)!, serials.randomElement(using: &random)!)
                    }
                    installs += try await withThrowingTaskGroup(of: Int.self) { tasks in
                        for (device, serial) in group {
                            tasks.addTask {
                                try await Fixtures.register(device, token: token(device), serial, in: store) == .created ? 1 : 0
                            }
                        }
                        return try await tasks.reduce(0, +)
                    }
                case 6..<9:
                    let device = devices.randomElement(using: &random)!, serial = serials.randomElement(using: &random)!
                    if try await Fixtures.unregister(device, serial, in: store) { removals += 1 }
                default:
                    removals += try await store.removeRegistrations(
                        pushToken: Bool.random(using: &random) ? "token-a" : "token-b",
                        passTypeIdentifier: Fixtures.passType, unlessRefreshedAfter: nil)
                }
            }
            for _ in 0..<40 { try await step() }
            #expect(try await Self.counted(store) == Self.truth(path), "folded at write")
            // Behind: an event another process left unfolded; the next ones wait for the worker, whose catch-up
            // first brings the mirror (untouched by the folds at write) to the fold's cursor.
            _ = try await Self.sqlite(path, """
                INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
                VALUES ('pass.personalized', \(Fixtures.now.timeIntervalSince1970), '\(Fixtures.passType)', 'R0', NULL, '{}');
                """)
            for _ in 0..<40 { try await step() }
            #expect(try await store.foldAnalytics(limit: 7) == 7, "a catch-up in several rounds")
            while try await store.foldAnalytics(limit: 7) > 0 {}
            #expect(try await Self.counted(store) == Self.truth(path), "folded by the worker's catch-up")
            for _ in 0..<40 { try await step() }
            #expect(try await store.foldAnalytics(limit: 100) == 0)
            #expect(try await Self.counted(store) == Self.truth(path), "folded at write again")
            let totals = try await Self.totals(store)
            #expect(totals.installs == installs && totals.removals == removals)
        }
    }
}
