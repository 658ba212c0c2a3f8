import PassStore
internal import PostgresNIO

extension PostgresStore {
    /// The key of the advisory lock migrations run under, so server instances starting together apply them once.
    package static let migrationLockKey: Int64 = 0x7465_7373_6572_6131  // "tessera1"

    /// Creates the tables or brings them up to date.
    ///
    /// Each migration's statements and its `schema_migrations` row are applied in one transaction that first takes a
    /// transaction-level advisory lock: a second process starting at the same time waits, then finds them applied.
    public func migrate() async throws {
        try await transaction { connection in
            try await connection.applyMigrations(
                Self.migrations, versionTable: "schema_migrations", lockKey: Self.migrationLockKey, kind: "store",
                logger: logger
            ) { connection in
                guard let schema = configuration.schema else { return }
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(Self.quoted(schema))"), logger: logger
                )
            }
        }
    }

    /// Drops the configured schema and everything in it (test clean-up); does nothing without a schema.
    package func dropSchema() async throws {
        guard let schema = configuration.schema else { return }
        _ = try await rows(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(Self.quoted(schema)) CASCADE"))
    }

    /// The migrations in order (version = index + 1), one statement per string. Never edit a released one. They run
    /// inside one PL/pgSQL block (``PostgresNIO/PostgresConnection/applyMigrations(_:versionTable:lockKey:kind:logger:prepare:)``):
    /// DDL and DML only, no statement that returns rows (a bare `SELECT` is an error there).
    /// (Version 1 is written through ``itemTables(_:)`` since orders came; its statements are the same as released.)
    package static let migrations: [[String]] = [
        itemTables(.passes) + [
            "CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL)",
            "INSERT INTO counters (name, value) VALUES ('update_tag', 0)",
        ],
        // Wallet orders: new tables only, so the migration is instant on a store of any size and the pass tables
        // and their indexes are untouched.
        itemTables(.orders) + ["INSERT INTO counters (name, value) VALUES ('order_update_tag', 0)"],
        campaignTables,
        templateVersionTables,
        eventTables,
        webhookTables,
        redemptionTables,
        analyticsTables,
        campaignPushCountTables,
        apiKeyTables,
        googleCallbackTables,
        consoleSessionTables,
        heldCampaignPushTables,
        campaignsOnQueuedPushes,
        listingIndexes,
        ["CREATE INDEX orders_template_version ON orders (template, template_version)"],
        barcodeMessageHashIndex,
    ]

    /// Version 15: a listing of one template's items, or of the voided ones, reads only the items it shows: in the
    /// listing's order (type identifier, then serial number, the primary key's collation) within a template, and the
    /// voided ones (usually few) apart. Built inside the migration's transaction, reading each table once.
    private static let listingIndexes: [String] = [
        "CREATE INDEX passes_listing_template ON passes (template, pass_type_identifier, serial_number)",
        "CREATE INDEX passes_listing_voided ON passes (pass_type_identifier, serial_number) WHERE voided",
        "CREATE INDEX orders_listing_template ON orders (template, pass_type_identifier, serial_number)",
        "CREATE INDEX orders_listing_voided ON orders (pass_type_identifier, serial_number) WHERE voided",
    ]

    /// Version 14: a campaign's owed push is a row of `campaign_pushes` only while the campaign holds it. Releasing it
    /// deletes the row and names the campaign on the queued push (`push_queue.campaigns`), whose completion counts it
    /// sent for each campaign named: an owed push is written once and deleted once, instead of a row updated twice
    /// (released, then sent) under two partial indexes. Pushes released before the upgrade and not yet sent name
    /// their campaigns on their queued entries; their rows, and the sent ones, go.
    private static let campaignsOnQueuedPushes: [String] = [
        "ALTER TABLE push_queue ADD COLUMN campaigns text[]",
        """
        UPDATE push_queue q SET campaigns = owed.campaigns
        FROM (SELECT push_token, pass_type_identifier, array_agg(campaign_id ORDER BY campaign_id) AS campaigns
              FROM campaign_pushes WHERE NOT held AND NOT sent GROUP BY push_token, pass_type_identifier) owed
        WHERE q.push_token = owed.push_token AND q.pass_type_identifier = owed.pass_type_identifier
        """,
        "DELETE FROM campaign_pushes WHERE NOT held",
        "DROP INDEX campaign_pushes_unsent",
        "DROP INDEX campaign_pushes_held",
        "ALTER TABLE campaign_pushes DROP COLUMN sent, DROP COLUMN held",
    ]

    /// Version 13: campaigns hold the pushes they owe until they end (see
    /// ``PassStore/CampaignStore/releaseCampaignPushes(limit:now:)``): a flag on each owed push and a count on each
    /// campaign, both with a constant default, so adding them rewrites no row; the pushes owed before the upgrade were
    /// queued when they were written. The indexes hold only what is held.
    private static let heldCampaignPushTables: [String] = [
        "ALTER TABLE campaign_pushes ADD COLUMN held boolean NOT NULL DEFAULT false",
        "ALTER TABLE campaigns ADD COLUMN pushes_held bigint NOT NULL DEFAULT 0",
        "CREATE INDEX campaign_pushes_held ON campaign_pushes (campaign_id) WHERE held",
        "CREATE INDEX campaigns_pushes_held ON campaigns (sequence) WHERE pushes_held > 0",
    ]

    /// Version 12: the console's signed-in sessions (see ``PassStore/ConsoleSessionStore``), the recent posts to webhook
    /// endpoints and retry requests (``PassStore/WebhookAttemptStore``): new tables; and the events of one item
    /// (``PassStore/ItemEventStore``) and the passes of each template version (``PassStore/TemplateVersionCounting``):
    /// indexes, built once over the kept log and the passes.
    private static let consoleSessionTables: [String] = [
        """
        CREATE TABLE console_sessions (
            secret_hash bytea PRIMARY KEY,
            key_id text,
            created_at timestamptz NOT NULL,
            expires_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX console_sessions_expiry ON console_sessions (expires_at)",
        """
        CREATE TABLE webhook_attempts (
            id bigserial PRIMARY KEY,
            endpoint text NOT NULL,
            event_id bigint NOT NULL,
            event_type text NOT NULL,
            attempted_at timestamptz NOT NULL,
            outcome text NOT NULL,
            status integer,
            detail text,
            next_attempt_at timestamptz
        )
        """,
        "CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint, id)",
        "CREATE TABLE webhook_retry_requests (endpoint text PRIMARY KEY, requested_at timestamptz NOT NULL)",
        "CREATE INDEX events_item ON events (type_identifier, identifier, id)",
        "CREATE INDEX passes_template_version ON passes (template, template_version)",
    ]

    /// Version 11: Google Wallet's save and delete callbacks, once per nonce (see ``PassStore/GoogleCallbackStore``).
    private static let googleCallbackTables: [String] = [
        """
        CREATE TABLE google_callbacks (
            nonce text PRIMARY KEY,
            pass_type_identifier text NOT NULL,
            serial_number text NOT NULL,
            saved boolean NOT NULL,
            received_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX google_callbacks_pass ON google_callbacks (pass_type_identifier, serial_number)",
    ]

    /// Version 10: issuer API keys of brands and teams (see ``PassStore/APIKeyStore``): a new table only.
    private static let apiKeyTables: [String] = [
        """
        CREATE TABLE api_keys (
            id text PRIMARY KEY,
            name text NOT NULL,
            secret_hash bytea NOT NULL UNIQUE,
            scope text NOT NULL,
            created_at timestamptz NOT NULL,
            revoked_at timestamptz
        )
        """,
    ]

    /// Version 9: each campaign's pushes sent as a counter the push completions add to, so reading a campaign costs
    /// the same at 250,000 pushes as at none. Filled from `campaign_pushes` for the campaigns already there.
    private static let campaignPushCountTables: [String] = [
        "CREATE TABLE campaign_push_counts (campaign_id text PRIMARY KEY, sent bigint NOT NULL)",
        """
        INSERT INTO campaign_push_counts (campaign_id, sent)
            SELECT campaign_id, COUNT(*) FROM campaign_pushes WHERE sent GROUP BY campaign_id
        """,
    ]

    /// Version 8, analytics (see ``PassStore/AnalyticsStore``): hourly rollups by template and pass type, the
    /// registrations mirrored from the event log that active counts are decided from, and the fold's cursor (its row
    /// is locked while a process folds, so processes fold one after another).
    private static let analyticsTables: [String] = [
        """
        CREATE TABLE analytics_hourly (
            template text NOT NULL,
            pass_type_identifier text NOT NULL,
            hour bigint NOT NULL,
            installs bigint NOT NULL DEFAULT 0,
            removals bigint NOT NULL DEFAULT 0,
            updates bigint NOT NULL DEFAULT 0,
            pushes_sent bigint NOT NULL DEFAULT 0,
            fetches bigint NOT NULL DEFAULT 0,
            active_passes bigint NOT NULL DEFAULT 0,
            active_devices bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (template, pass_type_identifier, hour)
        )
        """,
        "CREATE INDEX analytics_hourly_type ON analytics_hourly (pass_type_identifier, hour)",
        "CREATE INDEX analytics_hourly_hour ON analytics_hourly (hour)",
        """
        CREATE TABLE analytics_registrations (
            pass_type_identifier text NOT NULL,
            serial_number text NOT NULL,
            device text NOT NULL,
            template text NOT NULL,
            PRIMARY KEY (pass_type_identifier, serial_number, device)
        )
        """,
        "CREATE INDEX analytics_registrations_device ON analytics_registrations (template, device)",
        """
        CREATE TABLE analytics_state (
            name text PRIMARY KEY,
            cursor_transaction bigint NOT NULL,
            cursor_id bigint NOT NULL
        )
        """,
        "INSERT INTO analytics_state (name, cursor_transaction, cursor_id) VALUES ('fold', 0, 0)",
    ]

    /// Version 4, template versions (see ``PassStore/TemplateVersionStore``): each version's content, and the
    /// version each item is built from (a nullable column without a default: adding it rewrites no row).
    private static let templateVersionTables: [String] = [
        """
        CREATE TABLE template_versions (
            name text NOT NULL,
            version text NOT NULL,
            content bytea NOT NULL,
            created_at timestamptz NOT NULL,
            PRIMARY KEY (name, version)
        )
        """,
        "ALTER TABLE passes ADD COLUMN template_version text",
        "ALTER TABLE orders ADD COLUMN template_version text",
    ]

    /// Version 3, campaigns (see ``PassStore/CampaignStore``): the campaigns, the (push token, pass type) pairs each
    /// one queued a push for (so a device gets one push per campaign however many of its passes change), and an index
    /// of passes by template in serial-number order, the order a campaign walks them in. The serial numbers are
    /// indexed in byte order (`COLLATE "C"`), the order the other stores and Swift compare them in, whatever the
    /// database's collation. Times are `timestamptz` like the rest of the schema. The new tables are instant; the
    /// index is built inside the migration's transaction (not `CONCURRENTLY`), so pass writes wait while it reads the
    /// passes table once.
    private static let campaignTables: [String] = [
        """
        CREATE TABLE campaigns (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text NOT NULL UNIQUE,
            specification bytea NOT NULL,
            request_hash text NOT NULL,
            idempotency_key text UNIQUE,
            state text NOT NULL,
            matched bigint NOT NULL DEFAULT 0,
            changed bigint NOT NULL DEFAULT 0,
            failed bigint NOT NULL DEFAULT 0,
            errors text NOT NULL DEFAULT '[]',
            pushes_queued bigint NOT NULL DEFAULT 0,
            created_at timestamptz NOT NULL,
            scheduled_at timestamptz,
            started_at timestamptz,
            finished_at timestamptz,
            cursor text
        )
        """,
        "CREATE INDEX campaigns_state ON campaigns (state, scheduled_at)",
        """
        CREATE TABLE campaign_pushes (
            campaign_id text NOT NULL,
            push_token text NOT NULL,
            pass_type_identifier text NOT NULL,
            sent boolean NOT NULL DEFAULT false,
            PRIMARY KEY (campaign_id, push_token, pass_type_identifier)
        )
        """,
        "CREATE INDEX campaign_pushes_unsent ON campaign_pushes (push_token, pass_type_identifier) WHERE NOT sent",
        #"CREATE INDEX passes_template ON passes (template, serial_number COLLATE "C")"#,
    ]

    /// The tables of one kind of item: the items, their devices, registrations and push queue.
    private static func itemTables(_ tables: ItemTables) -> [String] {
        [
            """
            CREATE TABLE \(tables.items) (
                pass_type_identifier text NOT NULL,
                serial_number text NOT NULL,
                authentication_token text NOT NULL,
                template text NOT NULL,
                data bytea NOT NULL,
                personalization bytea,
                voided boolean NOT NULL DEFAULT false,
                download_token text NOT NULL,
                update_tag bigint NOT NULL,
                last_modified timestamptz NOT NULL,
                created_at timestamptz NOT NULL,
                CONSTRAINT \(tables.items)_pkey PRIMARY KEY (pass_type_identifier, serial_number),
                CONSTRAINT \(tables.items)_download_token_key UNIQUE (download_token)
            )
            """,
            "CREATE INDEX \(tables.items)_update_tag ON \(tables.items) (update_tag)",
            """
            CREATE TABLE \(tables.devices) (
                device_library_identifier text PRIMARY KEY,
                push_token text NOT NULL,
                updated_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX \(tables.devices)_push_token ON \(tables.devices) (push_token)",
            """
            CREATE TABLE \(tables.registrations) (
                device_library_identifier text NOT NULL
                    REFERENCES \(tables.devices) (device_library_identifier) ON DELETE CASCADE,
                pass_type_identifier text NOT NULL,
                serial_number text NOT NULL,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (device_library_identifier, pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number)
                    REFERENCES \(tables.items) (pass_type_identifier, serial_number) ON DELETE CASCADE
            )
            """,
            """
            CREATE INDEX \(tables.registrations)_\(tables.kind) ON \(tables.registrations) \
            (pass_type_identifier, serial_number)
            """,
            """
            CREATE TABLE \(tables.pushQueue) (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                push_token text NOT NULL,
                pass_type_identifier text NOT NULL,
                generation bigint NOT NULL DEFAULT 1,
                attempts integer NOT NULL DEFAULT 0,
                not_before timestamptz NOT NULL,
                claimed_until timestamptz,
                queued_at timestamptz NOT NULL,
                UNIQUE (push_token, pass_type_identifier)
            )
            """,
        ]
    }
}

extension PostgresStore {
    /// Waits for a first connection to the database, for at most `limit`, saying every `warnEvery` that it is still
    /// waiting. At start-up a database that cannot be reached (a wrong host, port, user, password or database name,
    /// or PostgreSQL not running) then stops the start with an error naming where it looked, instead of the server
    /// waiting without end before it listens. A database that comes up within the limit (started beside the server)
    /// is used.
    /// - Throws: ``PassStoreError/unavailable(_:)`` when no connection is made in time.
    public func waitForConnection(within limit: Duration, warnEvery: Duration = .seconds(10)) async throws {
        let target = configuration.socketPath
            ?? "\(configuration.host):\(configuration.port)/\(configuration.database ?? configuration.username)"
        let connected = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.pool.withConnection { _ in }
                return true
            }
            group.addTask { [logger] in
                let clock = ContinuousClock()
                let start = clock.now
                while clock.now - start < limit {
                    try await Task.sleep(for: min(warnEvery, limit - (clock.now - start)))
                    let waited = clock.now - start
                    if waited < limit {
                        logger.warning("no connection to the database at \(target) after \(waited.components.seconds) s; still trying")
                    }
                }
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard connected else {
            throw PassStoreError.unavailable(
                "no connection to the database at \(target) within \(limit.components.seconds) s: check --database (host, "
                    + "port, user, password, database name) and that PostgreSQL is running; the connection errors are in the log")
        }
    }
}
