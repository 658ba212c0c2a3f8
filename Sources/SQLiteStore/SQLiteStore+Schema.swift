import PassStore
internal import GRDB

extension SQLiteStore {
    /// The schema's migrations, in order. Never edit a released one: add the next.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: passes, devices, registrations, push queue") { db in
            try db.execute(sql: version1)
        }
        migrator.registerMigration("v2: orders, their devices, registrations and push queue") { db in
            try db.execute(sql: version2)
        }
        migrator.registerMigration("v3: campaigns and the pushes they queued") { db in
            try db.execute(sql: version3)
        }
        migrator.registerMigration("v4: template versions, and the version each pass is built from") { db in
            try db.execute(sql: version4)
        }
        migrator.registerMigration("v5: the event log") { db in
            try db.execute(sql: version5)
        }
        migrator.registerMigration("v6: webhook delivery cursors") { db in
            try db.execute(sql: version6)
        }
        migrator.registerMigration("v7: redemptions, and passes by barcode message") { db in
            try db.execute(sql: version7)
        }
        migrator.registerMigration("v8: analytics rollups") { db in
            try db.execute(sql: version8)
        }
        migrator.registerMigration("v9: each campaign's count of pushes sent") { db in
            try db.execute(sql: version9)
        }
        migrator.registerMigration("v10: issuer API keys") { db in
            try db.execute(sql: version10)
        }
        migrator.registerMigration("v11: Google Wallet callbacks") { db in
            try db.execute(sql: version11)
        }
        migrator.registerMigration("v12: console sessions, webhook attempts, events by item, passes by template version") { db in
            try db.execute(sql: version12)
        }
        migrator.registerMigration("v13: campaign pushes held until the campaign ends") { db in
            try db.execute(sql: version13)
        }
        migrator.registerMigration("v14: released campaign pushes named on their queued pushes") { db in
            try db.execute(sql: version14)
        }
        migrator.registerMigration("v15: the event up to which the analytics mirror is current") { db in
            try db.execute(sql: version15)
        }
        migrator.registerMigration("v16: passes and orders listed by template, and the voided ones") { db in
            try db.execute(sql: version16)
        }
        migrator.registerMigration("v17: orders by template version") { db in
            try db.execute(sql: "CREATE INDEX orders_template_version ON orders (template, template_version)")
        }
        return migrator
    }()

    /// A listing of one template's items, or of the voided ones, reads only the items it shows: in the listing's
    /// order (type identifier, then serial number) within a template, and the voided ones (usually few) apart. Built
    /// reading each table once.
    private static let version16 = """
        CREATE INDEX passes_listing_template ON passes (template, pass_type_identifier, serial_number);
        CREATE INDEX passes_listing_voided ON passes (pass_type_identifier, serial_number) WHERE voided = 1;
        CREATE INDEX orders_listing_template ON orders (template, pass_type_identifier, serial_number);
        CREATE INDEX orders_listing_voided ON orders (pass_type_identifier, serial_number) WHERE voided = 1;
        """

    /// The analytics fold's registration mirror is kept only while the fold catches up on a backlog (see
    /// `SQLiteStore.foldRecorded`); its row in `analytics_state` names the event up to which it is current. Until now
    /// every fold kept it, so it is current at the fold's cursor.
    private static let version15 = """
        INSERT INTO analytics_state (name, cursor_transaction, cursor_id)
        SELECT 'mirror', 0, cursor_id FROM analytics_state WHERE name = 'fold';
        """

    /// A campaign's owed push is a row of `campaign_pushes` only while the campaign holds it. Releasing it deletes the
    /// row and names the campaign on the queued push (`push_queue.campaigns`, a JSON array), whose completion counts
    /// it sent for each campaign named: an owed push is written once and deleted once, instead of a row updated twice
    /// (released, then sent) under two partial indexes. Pushes released before the upgrade and not yet sent name
    /// their campaigns on their queued entries; their rows, and the sent ones, go.
    private static let version14 = """
        ALTER TABLE push_queue ADD COLUMN campaigns TEXT;
        UPDATE push_queue SET campaigns = (
            SELECT json_group_array(campaign_id) FROM (
                SELECT campaign_id FROM campaign_pushes c
                WHERE c.push_token = push_queue.push_token AND c.pass_type_identifier = push_queue.pass_type_identifier
                    AND c.sent = 0 AND c.held = 0
                ORDER BY campaign_id))
        WHERE EXISTS (
            SELECT 1 FROM campaign_pushes c
            WHERE c.push_token = push_queue.push_token AND c.pass_type_identifier = push_queue.pass_type_identifier
                AND c.sent = 0 AND c.held = 0);
        DELETE FROM campaign_pushes WHERE held = 0;
        DROP INDEX campaign_pushes_unsent;
        DROP INDEX campaign_pushes_held;
        ALTER TABLE campaign_pushes DROP COLUMN sent;
        ALTER TABLE campaign_pushes DROP COLUMN held;
        """

    /// Campaigns hold the pushes they owe until they end (see ``PassStore/CampaignStore/releaseCampaignPushes(limit:now:)``):
    /// a flag on each owed push and a count on each campaign, both with a constant default, so adding them rewrites no
    /// row; the pushes owed before the upgrade were queued when they were written. The indexes hold only what is held.
    private static let version13 = """
        ALTER TABLE campaign_pushes ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE campaigns ADD COLUMN pushes_held INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX campaign_pushes_held ON campaign_pushes (campaign_id, push_token, pass_type_identifier) WHERE held = 1;
        CREATE INDEX campaigns_pushes_held ON campaigns (sequence) WHERE pushes_held > 0;
        """

    /// The first schema: the pass tables and the update tag counter. (Written through ``itemTables(_:kind:)`` since
    /// orders came; the statements are the same as released.)
    private static let version1 = itemTables(.passes, kind: "pass") + """
        CREATE TABLE counters (
            name TEXT NOT NULL PRIMARY KEY,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO counters (name, value) VALUES ('update_tag', 0);
        """

    /// Wallet orders, in tables of their own with the pass tables' layout (see ``Tables``): new tables only, so the
    /// migration is instant on a store of any size and the pass tables and their indexes are untouched.
    private static let version2 = itemTables(.orders, kind: "order") + """
        INSERT INTO counters (name, value) VALUES ('order_update_tag', 0);
        """

    /// Campaigns (see ``PassStore/CampaignStore``): the campaigns, the (push token, pass type) pairs each one
    /// queued a push for (so a device gets one push per campaign however many of its passes change), and an index
    /// of passes by template, the order a campaign walks them in.
    private static let version3 = """
        CREATE TABLE campaigns (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            specification BLOB NOT NULL,
            request_hash TEXT NOT NULL,
            idempotency_key TEXT UNIQUE,
            state TEXT NOT NULL,
            matched INTEGER NOT NULL DEFAULT 0,
            changed INTEGER NOT NULL DEFAULT 0,
            failed INTEGER NOT NULL DEFAULT 0,
            errors BLOB NOT NULL DEFAULT '[]',
            pushes_queued INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            scheduled_at REAL,
            started_at REAL,
            finished_at REAL,
            cursor TEXT
        );
        CREATE INDEX campaigns_state ON campaigns (state, scheduled_at);
        CREATE TABLE campaign_pushes (
            campaign_id TEXT NOT NULL,
            push_token TEXT NOT NULL,
            pass_type_identifier TEXT NOT NULL,
            sent INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (campaign_id, push_token, pass_type_identifier)
        ) WITHOUT ROWID;
        CREATE INDEX campaign_pushes_unsent ON campaign_pushes (push_token, pass_type_identifier) WHERE sent = 0;
        CREATE INDEX passes_template ON passes (template, serial_number);
        """

    /// Template versions (see ``PassStore/TemplateVersionStore``): each version's content, and the version each item
    /// is built from (a nullable column: adding it rewrites no row, so the migration is instant on a large store).
    private static let version4 = """
        CREATE TABLE template_versions (
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            content BLOB NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (name, version)
        ) WITHOUT ROWID;
        ALTER TABLE passes ADD COLUMN template_version TEXT;
        ALTER TABLE orders ADD COLUMN template_version TEXT;
        """

    /// The event log (see ``PassStore/EventStore``): ids in commit order (SQLite has one writer), the item each event
    /// is about, and an index by type for readers that ask for some types only. New tables only: instant on any store.
    private static let version5 = """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            type TEXT NOT NULL,
            created_at REAL NOT NULL,
            type_identifier TEXT,
            identifier TEXT,
            device TEXT,
            data BLOB NOT NULL
        );
        CREATE INDEX events_type ON events (type, id);
        """

    /// Webhook delivery (see ``PassStore/WebhookOutboxStore``): one row per endpoint, its cursor and lease.
    private static let version6 = """
        CREATE TABLE webhook_deliveries (
            endpoint TEXT NOT NULL PRIMARY KEY,
            cursor_transaction INTEGER NOT NULL,
            cursor_id INTEGER NOT NULL,
            owner TEXT,
            lease_until REAL NOT NULL
        ) WITHOUT ROWID;
        """

    /// Redemption (see ``PassStore/RedemptionStore``): each pass's count of valid scans (a column with a constant
    /// default: adding it rewrites no row), the log of every scan with its idempotency key, and an index of passes by
    /// the barcode message their data sets (built once from the stored passes, then kept by SQLite on every write).
    private static let version7 = """
        ALTER TABLE passes ADD COLUMN redemptions INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX passes_barcode_message ON passes (\(barcodeMessageExpression));
        CREATE TABLE redemptions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            pass_type_identifier TEXT,
            serial_number TEXT,
            result TEXT NOT NULL,
            place TEXT,
            scanned_at REAL NOT NULL,
            redemptions INTEGER NOT NULL,
            idempotency_key TEXT UNIQUE,
            request_hash TEXT NOT NULL
        );
        CREATE INDEX redemptions_pass ON redemptions (pass_type_identifier, serial_number, result, id);
        """

    /// Analytics (see ``PassStore/AnalyticsStore``): hourly rollups by template and pass type, the registrations
    /// mirrored from the event log (devices by hash) that active counts are decided from, and the fold's cursor.
    /// Each campaign's pushes sent as a counter the push completions add to, so reading a campaign costs the same
    /// at 250,000 pushes as at none (counting the sent rows of `campaign_pushes` grew with every push). Filled from
    /// those rows for the campaigns already there.
    /// Google Wallet's save and delete callbacks, once per nonce (see ``PassStore/GoogleCallbackStore``): a new table.
    private static let version11 = """
        CREATE TABLE google_callbacks (
            nonce TEXT NOT NULL PRIMARY KEY,
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            saved INTEGER NOT NULL,
            received_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX google_callbacks_pass ON google_callbacks (pass_type_identifier, serial_number);
        """

    /// The console's signed-in sessions (see ``PassStore/ConsoleSessionStore``), the recent posts to webhook endpoints
    /// and retry requests (``PassStore/WebhookAttemptStore``): new tables; and the events of one item
    /// (``PassStore/ItemEventStore``) and the passes of each template version (``PassStore/TemplateVersionCounting``):
    /// indexes, built once over the kept log and the passes.
    private static let version12 = """
        CREATE TABLE console_sessions (
            secret_hash BLOB NOT NULL PRIMARY KEY,
            key_id TEXT,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
        CREATE TABLE webhook_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            endpoint TEXT NOT NULL,
            event_id INTEGER NOT NULL,
            event_type TEXT NOT NULL,
            attempted_at REAL NOT NULL,
            outcome TEXT NOT NULL,
            status INTEGER,
            detail TEXT,
            next_attempt_at REAL
        );
        CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint, id);
        CREATE TABLE webhook_retry_requests (
            endpoint TEXT NOT NULL PRIMARY KEY,
            requested_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX events_item ON events (type_identifier, identifier, id);
        CREATE INDEX passes_template_version ON passes (template, template_version);
        """

    /// Issuer API keys of brands and teams (see ``PassStore/APIKeyStore``): a new table only.
    private static let version10 = """
        CREATE TABLE api_keys (
            id TEXT NOT NULL PRIMARY KEY,
            name TEXT NOT NULL,
            secret_hash BLOB NOT NULL UNIQUE,
            scope TEXT NOT NULL,
            created_at REAL NOT NULL,
            revoked_at REAL
        );
        """

    private static let version9 = """
        CREATE TABLE campaign_push_counts (
            campaign_id TEXT NOT NULL PRIMARY KEY,
            sent INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO campaign_push_counts (campaign_id, sent)
            SELECT campaign_id, COUNT(*) FROM campaign_pushes WHERE sent = 1 GROUP BY campaign_id;
        """

    private static let version8 = """
        CREATE TABLE analytics_hourly (
            template TEXT NOT NULL,
            pass_type_identifier TEXT NOT NULL,
            hour INTEGER NOT NULL,
            installs INTEGER NOT NULL DEFAULT 0,
            removals INTEGER NOT NULL DEFAULT 0,
            updates INTEGER NOT NULL DEFAULT 0,
            pushes_sent INTEGER NOT NULL DEFAULT 0,
            fetches INTEGER NOT NULL DEFAULT 0,
            active_passes INTEGER NOT NULL DEFAULT 0,
            active_devices INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (template, pass_type_identifier, hour)
        ) WITHOUT ROWID;
        CREATE INDEX analytics_hourly_type ON analytics_hourly (pass_type_identifier, hour);
        CREATE INDEX analytics_hourly_hour ON analytics_hourly (hour);
        CREATE TABLE analytics_registrations (
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            device TEXT NOT NULL,
            template TEXT NOT NULL,
            PRIMARY KEY (pass_type_identifier, serial_number, device)
        ) WITHOUT ROWID;
        CREATE INDEX analytics_registrations_device ON analytics_registrations (template, device);
        CREATE TABLE analytics_state (
            name TEXT NOT NULL PRIMARY KEY,
            cursor_transaction INTEGER NOT NULL,
            cursor_id INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO analytics_state (name, cursor_transaction, cursor_id) VALUES ('fold', 0, 0);
        """

    /// The barcode message a pass's data sets (``PassStore/PassRecord/barcodeMessage(in:)``), as SQL: the index and
    /// the lookup use this exact text. The data is a BLOB, read as JSON text.
    static let barcodeMessageExpression = """
        COALESCE(json_extract(CAST(data AS TEXT), '$.barcodeMessage'), \
        json_extract(CAST(data AS TEXT), '$.barcodes[0].message'))
        """

    /// The tables of one kind of item: the items, their devices, registrations and push queue.
    private static func itemTables(_ tables: Tables, kind: String) -> String {
        """
        CREATE TABLE \(tables.items) (
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            authentication_token TEXT NOT NULL,
            template TEXT NOT NULL,
            data BLOB NOT NULL,
            personalization BLOB,
            voided INTEGER NOT NULL DEFAULT 0,
            download_token TEXT NOT NULL UNIQUE,
            update_tag INTEGER NOT NULL,
            last_modified INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (pass_type_identifier, serial_number)
        );
        CREATE INDEX \(tables.items)_update_tag ON \(tables.items) (update_tag);

        CREATE TABLE \(tables.devices) (
            device_library_identifier TEXT NOT NULL PRIMARY KEY,
            push_token TEXT NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX \(tables.devices)_push_token ON \(tables.devices) (push_token);

        CREATE TABLE \(tables.registrations) (
            device_library_identifier TEXT NOT NULL
                REFERENCES \(tables.devices) (device_library_identifier) ON DELETE CASCADE,
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (device_library_identifier, pass_type_identifier, serial_number),
            FOREIGN KEY (pass_type_identifier, serial_number)
                REFERENCES \(tables.items) (pass_type_identifier, serial_number) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX \(tables.registrations)_\(kind) ON \(tables.registrations) (pass_type_identifier, serial_number);

        -- AUTOINCREMENT: an id is never reused, so a late completePush cannot hit a newer entry.
        CREATE TABLE \(tables.pushQueue) (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            push_token TEXT NOT NULL,
            pass_type_identifier TEXT NOT NULL,
            generation INTEGER NOT NULL DEFAULT 1,
            attempts INTEGER NOT NULL DEFAULT 0,
            not_before REAL NOT NULL,
            claimed_until REAL,
            queued_at REAL NOT NULL,
            UNIQUE (push_token, pass_type_identifier)
        );

        """
    }
}
