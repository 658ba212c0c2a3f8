public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: AnalyticsStore {
    public func foldAnalytics(limit: Int) async throws -> Int {
        // An idle store is only read: no write lock every round when nothing happened.
        let pending = try await read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM events WHERE id > (SELECT cursor_id FROM analytics_state WHERE name = 'fold'))
                """) ?? false
        }
        guard pending else { return 0 }
        return try await write { db in
            let cursor = try Int64.fetchOne(db, sql: "SELECT cursor_id FROM analytics_state WHERE name = 'fold'") ?? 0
            // The subject from the event's own columns and its pass's template by a join: no JSON read per event.
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT e.id, e.type, e.created_at, e.type_identifier, e.identifier, e.device, p.template FROM events e
                LEFT JOIN passes p ON e.type IN ('pass.registered', 'pass.unregistered', 'pass.updated')
                    AND p.pass_type_identifier = e.type_identifier AND p.serial_number = e.identifier
                WHERE e.id > ? ORDER BY e.id LIMIT ?
                """), arguments: [cursor, max(0, limit)])
            guard let last = rows.last else { return 0 }
            var fold = AnalyticsFold()
            for row in rows {
                guard let type = row[3] as String?, let serial = row[4] as String? else { continue }
                let subject = AnalyticsFold.Subject(
                    event: row[1], createdAt: Date(timeIntervalSince1970: row[2]), passTypeIdentifier: type,
                    serialNumber: serial, device: row[5], template: row[6] ?? "")
                try Self.fold(subject, into: &fold, db)
            }
            for (key, row) in fold.rows { try Self.addRollup(key, row, db) }
            try db.execute(sql: "UPDATE analytics_state SET cursor_id = ? WHERE name = 'fold'", arguments: [last[0] as Int64])
            return rows.count
        }
    }

    /// Folds the events the current transaction just recorded, the fold having folded every event before them, and
    /// moves the fold's cursor past them: the same changes ``foldAnalytics(limit:)`` would make later, made while
    /// the writer is held anyway. The subject is taken from each draft as the worker reads it from the log's columns,
    /// the template from the pass (or the event's `template`) for the event types the fold counts.
    static func foldRecorded(_ events: [RecordedEvent], lastID: Int64, _ db: Database) throws {
        var fold = AnalyticsFold()
        for event in events {
            let draft = event.draft
            guard foldedTypes.contains(draft.type), let type = draft.typeIdentifier, let serial = draft.identifier
            else { continue }
            let itemTemplate = try event.template ?? String.fetchOne(db.cachedStatement(sql: """
                SELECT template FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                """), arguments: [type, serial])
            let subject = AnalyticsFold.Subject(event: draft.type.rawValue, createdAt: event.now,
                                                passTypeIdentifier: type, serialNumber: serial, device: draft.device,
                                                template: itemTemplate ?? "")
            try Self.fold(subject, into: &fold, db)
        }
        for (key, row) in fold.rows { try Self.addRollup(key, row, db) }
        try db.cachedStatement(sql: "UPDATE analytics_state SET cursor_id = ? WHERE name = 'fold'")
            .execute(arguments: [lastID])
    }

    /// The event types the fold counts, and the only ones it reads a pass's template for.
    private static let foldedTypes: Set<WalletEventType> = [.passRegistered, .passUnregistered, .passUpdated]

    /// One event's changes, from and to the registration mirror.
    private static func fold(_ subject: AnalyticsFold.Subject, into fold: inout AnalyticsFold, _ db: Database) throws {
        let (type, serial, device, template) = (subject.passTypeIdentifier, subject.serialNumber, subject.device, subject.template)
        let key = AnalyticsFold.Key(hour: UsageCount.hour(of: subject.createdAt), passTypeIdentifier: type, template: template)
        switch subject.event {
        case "pass.updated":
            fold.add(key) { $0.updates += 1 }
        case "pass.registered":
            guard let device else { return }
            try db.cachedStatement(sql: """
                INSERT INTO analytics_registrations (pass_type_identifier, serial_number, device, template)
                VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                """).execute(arguments: [type, serial, device, template])
            guard db.changesCount == 1 else { return }
            let (otherDevices, otherPasses) = try others(type, serial, device, template, db)
            fold.add(key) { row in
                row.installs += 1
                if !otherDevices { row.activePassesChange += 1 }
                if !otherPasses { row.activeDevicesChange += 1 }
            }
        case "pass.unregistered":
            guard let device else { return }
            try db.cachedStatement(sql: """
                DELETE FROM analytics_registrations WHERE pass_type_identifier = ? AND serial_number = ? AND device = ?
                """).execute(arguments: [type, serial, device])
            guard db.changesCount == 1 else { return }
            let (otherDevices, otherPasses) = try others(type, serial, device, template, db)
            fold.add(key) { row in
                row.removals += 1
                if !otherDevices { row.activePassesChange -= 1 }
                if !otherPasses { row.activeDevicesChange -= 1 }
            }
        default:
            return
        }
    }

    /// Whether other devices have the pass, and whether the device has other passes of the template.
    private static func others(_ type: String, _ serial: String, _ device: String, _ template: String,
                               _ db: Database) throws -> (Bool, Bool) {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM analytics_registrations WHERE pass_type_identifier = ?1 AND serial_number = ?2
                    AND device <> ?3),
                EXISTS (SELECT 1 FROM analytics_registrations WHERE template = ?4 AND device = ?3
                    AND NOT (pass_type_identifier = ?1 AND serial_number = ?2))
            """), arguments: [type, serial, device, template])
        return ((row?[0] as Bool?) ?? false, (row?[1] as Bool?) ?? false)
    }

    private static func addRollup(_ key: AnalyticsFold.Key, _ row: AnalyticsRow, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO analytics_hourly (template, pass_type_identifier, hour, installs, removals, updates, pushes_sent,
                fetches, active_passes, active_devices) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (template, pass_type_identifier, hour) DO UPDATE SET
                installs = installs + excluded.installs, removals = removals + excluded.removals,
                updates = updates + excluded.updates, pushes_sent = pushes_sent + excluded.pushes_sent,
                fetches = fetches + excluded.fetches, active_passes = active_passes + excluded.active_passes,
                active_devices = active_devices + excluded.active_devices
            """).execute(arguments: [
                key.template, key.passTypeIdentifier, key.hour, row.installs, row.removals, row.updates, row.pushesSent,
                row.fetches, row.activePassesChange, row.activeDevicesChange,
            ])
    }

    public func addUsage(_ usage: [UsageCount]) async throws {
        guard !usage.isEmpty else { return }
        try await write { db in
            for count in usage {
                let key = AnalyticsFold.Key(hour: count.hour, passTypeIdentifier: count.passTypeIdentifier,
                                            template: count.template)
                var row = AnalyticsRow(hour: Date(timeIntervalSince1970: Double(count.hour)))
                if count.kind == .fetch { row.fetches = count.count } else { row.pushesSent = count.count }
                try Self.addRollup(key, row, db)
            }
        }
    }

    /// The rows a filter matches, as SQL and its arguments, written for the index each shape uses: a template's own
    /// rows and its pass type's pushes (kept without a template) through the primary key (template, pass type, hour);
    /// a pass type's through (pass type, hour); every row through (hour).
    private static func condition(_ filter: AnalyticsFilter) -> (sql: String, arguments: [DatabaseValueConvertible?]) {
        switch (filter.template, filter.passTypeIdentifier) {
        case let (template?, type?):
            return ("""
                template IN (?, '') AND (template <> '' OR pass_type_identifier = ?) AND pass_type_identifier = ?
                """, [template, filter.templatePassType ?? "", type])
        case let (template?, nil):
            return ("template IN (?, '') AND (template <> '' OR pass_type_identifier = ?)",
                    [template, filter.templatePassType ?? ""])
        case let (nil, type?):
            return ("pass_type_identifier = ?", [type])
        case (nil, nil):
            return ("1", [])
        }
    }

    public func analyticsRows(_ filter: AnalyticsFilter, from: Date, to: Date) async throws
        -> (baseline: ActiveCounts, rows: [AnalyticsRow])
    {
        try await read { db in
            let (condition, arguments) = Self.condition(filter)
            let start = UsageCount.hour(of: from)
            let end = Int64(to.timeIntervalSince1970.rounded(.up))
            let baseline = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT coalesce(sum(active_passes), 0), coalesce(sum(active_devices), 0) FROM analytics_hourly
                WHERE \(condition) AND hour < ?
                """), arguments: StatementArguments(arguments + [start]))
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT hour, sum(installs), sum(removals), sum(updates), sum(pushes_sent), sum(fetches),
                    sum(active_passes), sum(active_devices)
                FROM analytics_hourly WHERE \(condition) AND hour >= ? AND hour < ?
                GROUP BY hour ORDER BY hour
                """), arguments: StatementArguments(arguments + [start, end]))
            return (ActiveCounts(passes: baseline?[0] ?? 0, devices: baseline?[1] ?? 0), rows.map { row in
                AnalyticsRow(hour: Date(timeIntervalSince1970: Double(row[0] as Int64)), installs: row[1], removals: row[2],
                             updates: row[3], pushesSent: row[4], fetches: row[5], activePassesChange: row[6],
                             activeDevicesChange: row[7])
            })
        }
    }

    public func activeCounts() async throws -> [ActiveGauge] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT pass_type_identifier, template, sum(active_passes), sum(active_devices) FROM analytics_hourly
                WHERE template <> '' GROUP BY pass_type_identifier, template ORDER BY 1, 2
                """).map { row in
                ActiveGauge(passTypeIdentifier: row[0], template: row[1], counts: ActiveCounts(passes: row[2], devices: row[3]))
            }
        }
    }
}
