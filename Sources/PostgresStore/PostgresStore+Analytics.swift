public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: AnalyticsStore {
    /// Folds events in the event log's order (see ``events(after:types:limit:)``: only events of transactions older
    /// than every one still running, so none is passed over), holding the cursor's row so processes take turns.
    public func foldAnalytics(limit: Int) async throws -> Int {
        try await transaction { connection in
            let state = try await connection.query(
                "SELECT cursor_transaction, cursor_id FROM analytics_state WHERE name = 'fold' FOR UPDATE",
                logger: logger).collect().first
            var (transaction, id): (Int64, Int64) = (0, 0)
            if let state { (transaction, id) = try state.decode((Int64, Int64).self) }
            // The subject from the event's own columns and its pass's template by a join: no JSON read per event.
            let rows = try await connection.query("""
                SELECT e.id, e.transaction_id, e.type, e.created_at, e.type_identifier, e.identifier, e.device, p.template
                FROM events e
                LEFT JOIN passes p ON e.type IN ('pass.registered', 'pass.unregistered', 'pass.updated')
                    AND p.pass_type_identifier = e.type_identifier AND p.serial_number = e.identifier
                WHERE (e.transaction_id, e.id) > (\(transaction), \(id))
                    AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                ORDER BY e.transaction_id, e.id LIMIT \(max(0, limit))
                """, logger: logger).collect()
            var fold = AnalyticsFold()
            var last = EventCursor(transaction: transaction, id: id)
            for row in rows {
                let (id, transaction, event, createdAt, type, serial, device, template) =
                    try row.decode((Int64, Int64, String, Date, String?, String?, String?, String?).self)
                last = EventCursor(transaction: transaction, id: id)
                guard let type, let serial else { continue }
                try await self.fold(
                    AnalyticsFold.Subject(event: event, createdAt: createdAt, passTypeIdentifier: type, serialNumber: serial,
                                          device: device, template: template ?? ""),
                    into: &fold, connection)
            }
            guard !rows.isEmpty else { return 0 }
            // In key order, as addUsage writes them: a fold and another process's usage counts of the same rows
            // would otherwise lock them in opposite orders and deadlock.
            let ordered = fold.rows.sorted { ($0.key.template, $0.key.passTypeIdentifier, $0.key.hour)
                < ($1.key.template, $1.key.passTypeIdentifier, $1.key.hour) }
            for (key, row) in ordered { try await addRollup(key, row, connection) }
            try await connection.query("""
                UPDATE analytics_state SET cursor_transaction = \(last.transaction), cursor_id = \(last.id)
                WHERE name = 'fold'
                """, logger: logger)
            return rows.count
        }
    }

    private func fold(_ subject: AnalyticsFold.Subject, into fold: inout AnalyticsFold, _ connection: PostgresConnection)
        async throws
    {
        guard ["pass.registered", "pass.unregistered", "pass.updated"].contains(subject.event) else { return }
        let (type, serial, device, template) = (subject.passTypeIdentifier, subject.serialNumber, subject.device, subject.template)
        let key = AnalyticsFold.Key(hour: UsageCount.hour(of: subject.createdAt), passTypeIdentifier: type, template: template)
        if subject.event == "pass.updated" {
            fold.add(key) { $0.updates += 1 }
            return
        }
        guard let device else { return }
        let registered = subject.event == "pass.registered"
        // One round trip: the mirror row added or removed, and whether other devices have the pass and the device
        // other passes of the template (the EXISTS see the rows as they were, and leave this one out either way).
        let change = registered ? """
            WITH changed AS (INSERT INTO analytics_registrations (pass_type_identifier, serial_number, device, template)
                VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1)
            """ : """
            WITH changed AS (DELETE FROM analytics_registrations
                WHERE pass_type_identifier = $1 AND serial_number = $2 AND device = $3 RETURNING 1)
            """
        var bindings = PostgresBindings()
        bindings.append(type)
        bindings.append(serial)
        bindings.append(device)
        bindings.append(template)
        let answer = try await connection.query(PostgresQuery(unsafeSQL: change + """
            SELECT (SELECT count(*) FROM changed)::bigint,
                EXISTS (SELECT 1 FROM analytics_registrations WHERE pass_type_identifier = $1 AND serial_number = $2
                    AND device <> $3),
                EXISTS (SELECT 1 FROM analytics_registrations WHERE template = $4 AND device = $3
                    AND NOT (pass_type_identifier = $1 AND serial_number = $2))
            """, binds: bindings), logger: logger).collect().first
        guard let answer else { return }
        let (count, otherDevices, otherPasses) = try answer.decode((Int64, Bool, Bool).self)
        guard count == 1 else { return }
        fold.addRegistration(key, added: registered, otherDevices: otherDevices, otherPasses: otherPasses)
    }

    private func addRollup(_ key: AnalyticsFold.Key, _ row: AnalyticsRow, _ connection: PostgresConnection) async throws {
        try await connection.query("""
            INSERT INTO analytics_hourly AS a (template, pass_type_identifier, hour, installs, removals, updates,
                pushes_sent, fetches, active_passes, active_devices)
            VALUES (\(key.template), \(key.passTypeIdentifier), \(key.hour), \(row.installs), \(row.removals),
                \(row.updates), \(row.pushesSent), \(row.fetches), \(row.activePassesChange), \(row.activeDevicesChange))
            ON CONFLICT (template, pass_type_identifier, hour) DO UPDATE SET
                installs = a.installs + excluded.installs, removals = a.removals + excluded.removals,
                updates = a.updates + excluded.updates, pushes_sent = a.pushes_sent + excluded.pushes_sent,
                fetches = a.fetches + excluded.fetches, active_passes = a.active_passes + excluded.active_passes,
                active_devices = a.active_devices + excluded.active_devices
            """, logger: logger)
    }

    public func addUsage(_ usage: [UsageCount]) async throws {
        guard !usage.isEmpty else { return }
        // In key order, so two processes adding to the same rows lock them in the same order.
        let sorted = usage.sorted { ($0.template, $0.passTypeIdentifier, $0.hour) < ($1.template, $1.passTypeIdentifier, $1.hour) }
        try await transaction { connection in
            for count in sorted {
                var row = AnalyticsRow(hour: Date(timeIntervalSince1970: Double(count.hour)))
                if count.kind == .fetch { row.fetches = count.count } else { row.pushesSent = count.count }
                try await addRollup(AnalyticsFold.Key(hour: count.hour, passTypeIdentifier: count.passTypeIdentifier,
                                                      template: count.template), row, connection)
            }
        }
    }

    public func analyticsRows(_ filter: AnalyticsFilter, from: Date, to: Date) async throws
        -> (baseline: ActiveCounts, rows: [AnalyticsRow])
    {
        let start = UsageCount.hour(of: from)
        let end = Int64(to.timeIntervalSince1970.rounded(.up))
        let template = filter.template
        let type = filter.passTypeIdentifier
        let templateType = filter.templatePassType ?? ""
        let baselineRows = try await rows("""
            SELECT coalesce(sum(active_passes), 0)::bigint, coalesce(sum(active_devices), 0)::bigint FROM analytics_hourly
            WHERE hour < \(start)
                AND (\(template)::text IS NULL OR template = \(template) OR (template = '' AND pass_type_identifier = \(templateType)))
                AND (\(type)::text IS NULL OR pass_type_identifier = \(type))
            """)
        var baseline: (Int64, Int64) = (0, 0)
        if let row = baselineRows.first { baseline = try row.decode((Int64, Int64).self) }
        let rows = try await rows("""
            SELECT hour, sum(installs)::bigint, sum(removals)::bigint, sum(updates)::bigint, sum(pushes_sent)::bigint,
                sum(fetches)::bigint, sum(active_passes)::bigint, sum(active_devices)::bigint
            FROM analytics_hourly
            WHERE hour >= \(start) AND hour < \(end)
                AND (\(template)::text IS NULL OR template = \(template) OR (template = '' AND pass_type_identifier = \(templateType)))
                AND (\(type)::text IS NULL OR pass_type_identifier = \(type))
            GROUP BY hour ORDER BY hour
            """)
        return (ActiveCounts(passes: Int(baseline.0), devices: Int(baseline.1)), try rows.map { row in
            let (hour, installs, removals, updates, pushes, fetches, passes, devices) =
                try row.decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
            return AnalyticsRow(hour: Date(timeIntervalSince1970: Double(hour)), installs: Int(installs),
                                removals: Int(removals), updates: Int(updates), pushesSent: Int(pushes),
                                fetches: Int(fetches), activePassesChange: Int(passes), activeDevicesChange: Int(devices))
        })
    }

    public func activeCounts() async throws -> [ActiveGauge] {
        try await rows("""
            SELECT pass_type_identifier, template, sum(active_passes)::bigint, sum(active_devices)::bigint
            FROM analytics_hourly WHERE template <> '' GROUP BY pass_type_identifier, template ORDER BY 1, 2
            """).map { row in
            let (type, template, passes, devices) = try row.decode((String, String, Int64, Int64).self)
            return ActiveGauge(passTypeIdentifier: type, template: template,
                               counts: ActiveCounts(passes: Int(passes), devices: Int(devices)))
        }
    }
}
