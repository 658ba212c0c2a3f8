import Foundation
import PassStore
import PostgresNIO
import PostgresStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// The upgrade that names a released campaign push's campaigns on its queued push (SQLite v14, PostgreSQL 14), on a
/// store holding what the schema before it held: a push released and queued but not yet sent (owed by two
/// campaigns), one sent, one still held.
@Suite("Campaign pushes across the upgrade that names campaigns on queued pushes")
struct CampaignPushUpgradeTests {
    /// The rows the previous schema held, `true`/`false` and the queued push's times written as the store writes them.
    private static func previousRows(true yes: String, false no: String, queuedAt: String) -> String {
        """
        UPDATE campaigns SET state = 'done', pushes_held = 1 WHERE id = 'C1';
        UPDATE campaigns SET state = 'done' WHERE id = 'C2';
        INSERT INTO campaign_pushes (campaign_id, push_token, pass_type_identifier, sent, held) VALUES
            ('C1', 'T1', '\(Fixtures.passType)', \(no), \(no)),
            ('C1', 'T2', '\(Fixtures.passType)', \(yes), \(no)),
            ('C1', 'T3', '\(Fixtures.passType)', \(no), \(yes)),
            ('C2', 'T1', '\(Fixtures.passType)', \(no), \(no));
        INSERT INTO campaign_push_counts (campaign_id, sent) VALUES ('C1', 1);
        INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
            VALUES ('T1', '\(Fixtures.passType)', 1, 0, \(queuedAt), \(queuedAt));
        """
    }

    private static func campaign(_ id: String) -> NewCampaign {
        NewCampaign(
            id: id, specification: CampaignStoreConformanceTests.specification, requestHash: "hash-\(id)",
            idempotencyKey: nil, scheduledAt: nil)
    }

    /// After the upgrade: the queued push counts for both campaigns it was released for, the held one is released
    /// once, and its push counts for its campaign.
    private func expectUpgraded(_ store: any CampaignStore & PassStore) async throws {
        let now = Fixtures.now
        let queued = try await store.claimPushes(limit: 10, now: now, lease: 60)
        #expect(queued.map(\.pushToken) == ["T1"])
        try await store.completePushes(queued)
        #expect(try await store.campaign(id: "C1")?.pushesSent == 2)
        #expect(try await store.campaign(id: "C2")?.pushesSent == 1)

        #expect(try await store.releaseCampaignPushes(limit: 10, now: now) == 1)
        #expect(try await store.releaseCampaignPushes(limit: 10, now: now) == 0)
        let released = try await store.claimPushes(limit: 10, now: now, lease: 60)
        #expect(released.map(\.pushToken) == ["T3"])
        try await store.completePushes(released)
        #expect(try await store.campaign(id: "C1")?.pushesSent == 3)
        #expect(try await store.campaign(id: "C2")?.pushesSent == 1)
    }

    @Test("SQLite: a released push counts for its campaigns once sent, a held one is released once")
    func sqlite() async throws {
        try await withSQLiteFile { path in
            do {
                let store = try SQLiteStore(path: path)
                try await store.migrate()
                for id in ["C1", "C2"] { _ = try await store.insertCampaign(Self.campaign(id), now: Fixtures.now) }
            }
            // Back to the previous schema (what version 13 made), with its rows.
            let queuedAt = Fixtures.now.addingTimeInterval(-60).timeIntervalSince1970
            let downgrade = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, """
                ALTER TABLE push_queue DROP COLUMN campaigns;
                ALTER TABLE campaign_pushes ADD COLUMN sent INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE campaign_pushes ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX campaign_pushes_unsent ON campaign_pushes (push_token, pass_type_identifier) WHERE sent = 0;
                CREATE INDEX campaign_pushes_held ON campaign_pushes (campaign_id, push_token, pass_type_identifier) WHERE held = 1;
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v14:%';
                """ + Self.previousRows(true: "1", false: "0", queuedAt: "\(queuedAt)")])
            try #require(downgrade.status == 0, "\(downgrade.stderr)")

            let store = try SQLiteStore(path: path)
            try await store.migrate()
            try await expectUpgraded(store)
        }
    }

    @Test("PostgreSQL: a released push counts for its campaigns once sent, a held one is released once",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func postgres() async throws {
        let url = try #require(TestPostgres.url)
        let previous = 13  // the migrations before version 14, which this upgrade is
        try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_upgrade", logger: StoreKind.logger) {
            stores in
            let store = stores[0]
            try await applyFirstMigrations(previous, to: store)
            for id in ["C1", "C2"] { _ = try await store.insertCampaign(Self.campaign(id), now: Fixtures.now) }
            let queuedAt = "to_timestamp(\(Fixtures.now.addingTimeInterval(-60).timeIntervalSince1970))"
            for statement in Self.previousRows(true: "true", false: "false", queuedAt: queuedAt)
                .split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }).filter({ !$0.isEmpty })
            {
                _ = try await store.pool.rows(PostgresQuery(unsafeSQL: statement), mapError: { $0 })
            }
            try await store.migrate()
            try await expectUpgraded(store)
        }
    }
}
