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
            let rows = try await connection.query("""
                SELECT id, transaction_id, type, created_at, data::text FROM events
                WHERE (transaction_id, id) > (\(transaction), \(id))
                    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                ORDER BY transaction_id, id LIMIT \(max(0, limit))
                """, logger: logger).collect()
            var fold = AnalyticsFold()
            var templates: [String: String] = [:]
            var last = EventCursor(transaction: transaction, id: id)
            for row in rows {
                let (id, transaction, type, createdAt, data) = try row.decode((Int64, Int64, String, Date, String).self)
                last = EventCursor(transaction: transaction, id: id)
                let event = WalletEvent(id: id, cursor: last, type: type, createdAt: createdAt, data: Data(data.utf8))
                try await self.fold(event, into: &fold, templates: &templates, connection)
            }
            guard !rows.isEmpty else { return 0 }
            for (key, row) in fold.rows { try await addRollup(key, row, connection) }
            try await connection.query("""
                UPDATE analytics_state SET cursor_transaction = \(last.transaction), cursor_id = \(last.id)
                WHERE name = 'fold'
                """, logger: logger)
            return rows.count
        }
    }

    private func fold(_ event: WalletEvent, into fold: inout AnalyticsFold, templates: inout [String: String],
                      _ connection: PostgresConnection) async throws {
        guard ["pass.registered", "pass.unregistered", "pass.updated"].contains(event.type),
              let (type, serial, device) = AnalyticsFold.subject(of: event)
        else { return }
        let passKey = type + "\u{0}" + serial
        if templates[passKey] == nil {
            templates[passKey] = try await connection.query("""
                SELECT template FROM passes WHERE pass_type_identifier = \(type) AND serial_number = \(serial)
                """, logger: logger).collect().first?.decode(String.self) ?? ""
        }
        let template = templates[passKey] ?? ""
        let key = AnalyticsFold.Key(hour: UsageCount.hour(of: event.createdAt), passTypeIdentifier: type, template: template)
        if event.type == "pass.updated" {
            fold.add(key) { $0.updates += 1 }
            return
        }
        guard let device else { return }
        let registered = event.type == "pass.registered"
        let changed = try await connection.query(registered ? """
            INSERT INTO analytics_registrations (pass_type_identifier, serial_number, device, template)
            VALUES (\(type), \(serial), \(device), \(template)) ON CONFLICT DO NOTHING RETURNING 1
            """ : """
            DELETE FROM analytics_registrations
            WHERE pass_type_identifier = \(type) AND serial_number = \(serial) AND device = \(device) RETURNING 1
            """, logger: logger).collect()
        guard !changed.isEmpty else { return }
        let others = try await connection.query("""
            SELECT EXISTS (SELECT 1 FROM analytics_registrations WHERE pass_type_identifier = \(type)
                    AND serial_number = \(serial) AND device <> \(device)),
                EXISTS (SELECT 1 FROM analytics_registrations WHERE template = \(template) AND device = \(device)
                    AND NOT (pass_type_identifier = \(type) AND serial_number = \(serial)))
            """, logger: logger).collect().first.map { try $0.decode((Bool, Bool).self) } ?? (false, false)
        let step = registered ? 1 : -1
        fold.add(key) { row in
            if registered { row.installs += 1 } else { row.removals += 1 }
            if !others.0 { row.activePassesChange += step }
            if !others.1 { row.activeDevicesChange += step }
        }
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
