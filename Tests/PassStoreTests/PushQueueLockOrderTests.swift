import Foundation
import PassStore
import PostgresNIO
import PostgresStore
import Testing
import TesseraTestSupport

/// On PostgreSQL every writer of queued pushes locks the entries it shares with others in id order (a change's bump,
/// the dispatcher's completion, a campaign's release), so none holds an entry another waits for while it waits.
@Suite("PostgreSQL push queue: one lock order")
struct PushQueueLockOrderTests {
    @Test("a campaign's release waits for the first entry by id before it locks a later one",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func releaseLocksInIdOrder() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 2, schemaPrefix: "tessera_lock_order", logger: StoreKind.logger) {
            stores in
            let (store, other) = (stores[0], stores[1])
            try await store.migrate()
            _ = try await store.insertCampaign(NewCampaign(
                id: "C1", specification: CampaignStoreConformanceTests.specification, requestHash: "hash-C1",
                idempotencyKey: nil, scheduledAt: nil), now: Fixtures.now)
            // Two queued pushes whose ids run against their tokens' order ("b" first), both owed by the ended C1.
            let type = Fixtures.passType
            for statement in [
                "UPDATE campaigns SET state = 'done', pushes_held = 2 WHERE id = 'C1'",
                "INSERT INTO campaign_pushes (campaign_id, push_token, pass_type_identifier) VALUES ('C1', 'a', '\(type)'), ('C1', 'b', '\(type)')",
                "INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at) VALUES ('b', '\(type)', 1, 0, now(), now())",
                "INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at) VALUES ('a', '\(type)', 1, 0, now(), now())",
            ] {
                _ = try await store.pool.rows(PostgresQuery(unsafeSQL: statement), mapError: { $0 })
            }
            let ids = try await store.pool.rows("SELECT id, push_token FROM push_queue ORDER BY id", mapError: { $0 })
                .map { try $0.decode((Int64, String).self) }
            try #require(ids.map(\.1) == ["b", "a"])

            let release = try await other.pool.transaction(mapError: { $0 }) { connection in
                // Holds the first entry by id, as a completion locking in id order does, then lets the release start.
                _ = try await connection.query("SELECT id FROM push_queue WHERE id = \(ids[0].0) FOR UPDATE",
                                               logger: StoreKind.logger).collect()
                let release = Task { try await store.releaseCampaignPushes(limit: 10, now: Fixtures.now) }
                try #require(try await Self.waitsForALock(other, query: "%FROM campaign_pushes%"),
                             "the release never waited for the entry held")
                // The later entry is free: the release waits for the first before locking it. (Locking them in
                // token order it held "a" already, and a completion asking for it now would deadlock.)
                let later = try await connection.query(
                    "SELECT id FROM push_queue WHERE id = \(ids[1].0) FOR UPDATE NOWAIT", logger: StoreKind.logger).collect()
                #expect(later.count == 1)
                return release
            }
            #expect(try await release.value == 2)
            let queued = try await store.pool.rows("SELECT push_token, campaigns FROM push_queue ORDER BY push_token",
                                                   mapError: { $0 }).map { try $0.decode((String, [String]).self) }
            #expect(queued.map(\.0) == ["a", "b"] && queued.allSatisfy { $0.1 == ["C1"] })
        }
    }

    @Test("a device's new push token moves the old token's entries, locking them in id order",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func tokenMoveLocksInIdOrder() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 2, schemaPrefix: "tessera_lock_order", logger: StoreKind.logger) {
            stores in
            let (store, other) = (stores[0], stores[1])
            try await store.migrate()
            _ = try await Fixtures.insert(["M1"], into: store)
            _ = try await Fixtures.register("dev-m", token: "a", "M1", in: store)
            // The old token's two entries, ids against their types' order (the index's), among enough others that the
            // planner reads the token's entries through the index.
            for statement in [
                "INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at) VALUES ('a', 'pass.z', 1, 0, now(), now())",
                "INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at) VALUES ('a', 'pass.a', 1, 0, now(), now())",
                """
                INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
                SELECT 'other-' || n, 'pass.a', 1, 0, now(), now() FROM generate_series(1, 5000) n
                """,
                "ANALYZE push_queue",
            ] {
                _ = try await store.pool.rows(PostgresQuery(unsafeSQL: statement), mapError: { $0 })
            }
            let ids = try await store.pool.rows("SELECT id FROM push_queue WHERE push_token = 'a' ORDER BY id", mapError: { $0 })
                .map { try $0.decode(Int64.self) }
            try #require(ids.count == 2)
            let registration = try await other.pool.transaction(mapError: { $0 }) { connection in
                // Holds the first entry by id, as a completion locking in id order does.
                _ = try await connection.query("SELECT id FROM push_queue WHERE id = \(ids[0]) FOR UPDATE",
                                               logger: StoreKind.logger).collect()
                let registration = Task { try await Fixtures.register("dev-m", token: "b", "M1", in: store) }
                try #require(try await Self.waitsForALock(other, query: "%replaced AS%"),
                             "the registration never waited for the entry held")
                // The later entry is free: the registration waits for the first before it locks the second.
                let later = try await connection.query(
                    "SELECT id FROM push_queue WHERE id = \(ids[1]) FOR UPDATE NOWAIT", logger: StoreKind.logger).collect()
                #expect(later.count == 1)
                return registration
            }
            _ = try await registration.value
            let moved = try await store.pool.rows("SELECT push_token FROM push_queue WHERE id = ANY(ARRAY[\(ids[0]), \(ids[1])]::bigint[]) ORDER BY id",
                                                  mapError: { $0 }).map { try $0.decode(String.self) }
            #expect(moved == ["b", "b"])
        }
    }

    /// Whether a statement like `query` comes to wait for a lock within 30 s, asked through `store`'s pool (outside
    /// the test's transaction, which would see one snapshot of the activity throughout).
    static func waitsForALock(_ store: PostgresStore, query: String) async throws -> Bool {
        for _ in 0..<Int(TestTime.seconds(30) * 10) {
            let rows = try await store.pool.rows(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE \(query)", mapError: { $0 })
            if try #require(rows.first).decode(Int64.self) >= 1 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
