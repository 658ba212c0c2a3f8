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
            try Self.bringMirror(to: cursor, db)
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
            try db.execute(sql: "UPDATE analytics_state SET cursor_id = ? WHERE name IN ('fold', 'mirror')",
                           arguments: [last[0] as Int64])
            return rows.count
        }
    }

    /// Makes the registration mirror hold the pass registrations as they were after event `cursor`, unless it
    /// already does: the folds at write (``foldRecorded(_:lastID:_:)``) leave it as it was, so the first fold of a
    /// backlog after them (events another process left unfolded) rebuilds it: the registrations now, each device by
    /// its hash, with every registration and removal logged after `cursor` taken back, latest first. Every change of
    /// a registration is logged in the transaction that makes it, and the log keeps what the fold has not folded.
    static func bringMirror(to cursor: Int64, _ db: Database) throws {
        let current = try Int64.fetchOne(db, sql: "SELECT cursor_id FROM analytics_state WHERE name = 'mirror'")
        guard current != cursor else { return }
        // Every registration in the mirror's key order, its device hashed by a function of this transaction's, and
        // the device index built once over the sorted rows rather than changed row by row: on 1,000,000 registrations
        // half the time of one insert per registration (4.8 s against 9.3 s).
        let hash = DatabaseFunction("tessera_device_hash", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(WalletEventDraft.deviceHash)
        }
        db.add(function: hash)
        defer { db.remove(function: hash) }
        // The index made again as the schema defines it (its own text, not a second copy here).
        guard let deviceIndex = try String.fetchOne(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'analytics_registrations_device'
            """)
        else { throw PassStoreError.invalidData("the schema has no index analytics_registrations_device") }
        try db.execute(sql: """
            DELETE FROM analytics_registrations;
            DROP INDEX analytics_registrations_device;
            INSERT INTO analytics_registrations (pass_type_identifier, serial_number, device, template)
            SELECT r.pass_type_identifier, r.serial_number, tessera_device_hash(r.device_library_identifier), p.template
            FROM registrations r
            JOIN passes p ON p.pass_type_identifier = r.pass_type_identifier AND p.serial_number = r.serial_number
            WHERE true ORDER BY 1, 2, 3
            ON CONFLICT DO NOTHING;
            \(deviceIndex);
            """)
        let (insert, delete) = try (mirrorInsert(db), mirrorDelete(db))
        let later = try Row.fetchAll(db, sql: """
            SELECT e.type, e.type_identifier, e.identifier, e.device, coalesce(p.template, '') FROM events e
            LEFT JOIN passes p ON p.pass_type_identifier = e.type_identifier AND p.serial_number = e.identifier
            WHERE e.id > ? AND e.type IN ('pass.registered', 'pass.unregistered') AND e.device IS NOT NULL
            ORDER BY e.id DESC
            """, arguments: [cursor])
        for row in later {
            let arguments: StatementArguments = [row[1], row[2], row[3]]
            if row[0] as String == WalletEventType.passRegistered.rawValue {
                try delete.execute(arguments: arguments)
            } else {
                try insert.execute(arguments: arguments + [row[4]])
            }
        }
        try db.execute(sql: "UPDATE analytics_state SET cursor_id = ? WHERE name = 'mirror'", arguments: [cursor])
    }

    /// Folds the events the current transaction just recorded, the fold having folded every earlier event, and moves
    /// the fold's cursor past them: the same counts ``foldAnalytics(limit:)`` would make later, made while the writer
    /// is held anyway. The template comes from each event (or its pass) for the event types the fold counts.
    ///
    /// Whether a device's pass was the pass's last (or first) device and the device's last (or first) pass of its
    /// template is read from the registrations themselves, not from the mirror ``foldAnalytics(limit:)`` keeps while
    /// it catches up on a backlog: the transaction has just changed them, so they hold the state after its last
    /// event, and each earlier event is judged against that state with the later events undone
    /// (``RegistrationsUndone``). A new registration then changes two index pages fewer than with the mirror.
    ///
    /// The mirror is only read and written while the fold is behind the log: after the migration that brought
    /// analytics to a store whose log already had events, or when a process of an earlier release, which does not
    /// fold at write, shares the file. ``bringMirror(to:_:)`` makes it current first when these folds left it behind.
    static func foldRecorded(_ events: [RecordedEvent], lastID: Int64, _ db: Database) throws {
        var fold = AnalyticsFold()
        var undone = RegistrationsUndone()
        // Latest first: each event's state is the registrations now, with the events after it undone.
        for event in events.reversed() {
            let draft = event.draft
            guard foldedTypes.contains(draft.type), let type = draft.typeIdentifier, let serial = draft.identifier
            else { continue }
            let template = try event.template ?? String.fetchOne(db.cachedStatement(sql: """
                SELECT template FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                """), arguments: [type, serial]) ?? ""
            let key = AnalyticsFold.Key(hour: UsageCount.hour(of: event.now), passTypeIdentifier: type, template: template)
            guard draft.type != .passUpdated else {
                fold.add(key) { $0.updates += 1 }
                continue
            }
            let added = draft.type == .passRegistered
            if let judged = event.judged {
                if case .changed(let otherDevices, let otherPasses) = judged {
                    fold.addRegistration(key, added: added, otherDevices: otherDevices, otherPasses: otherPasses)
                }
                continue
            }
            guard let device = event.deviceLibraryIdentifier else {
                // Every caller names the device; without it, an install or removal with no registration to judge the
                // active counts by.
                fold.addRegistration(key, added: added, otherDevices: true, otherPasses: true)
                continue
            }
            let pass = RegistrationsUndone.Pass(type: type, serial: serial)
            let otherDevices = try undone.otherDevices(pass, besides: device, db)
            let otherPasses = try undone.otherPasses(of: device, template: template, besides: pass, db)
            fold.addRegistration(key, added: added, otherDevices: otherDevices, otherPasses: otherPasses)
            undone.undo(added: added, pass, device: device, template: template)
        }
        for (key, row) in fold.rows { try Self.addRollup(key, row, db) }
        try db.cachedStatement(sql: "UPDATE analytics_state SET cursor_id = ? WHERE name = 'fold'")
            .execute(arguments: [lastID])
    }

    /// The pass registrations as they were after an earlier event of the transaction: the registrations table, with
    /// what the transaction's later events did undone (a registration added is taken back out, one removed put back).
    struct RegistrationsUndone {
        struct Pass: Hashable {
            var type: String
            var serial: String
        }

        /// Per pass, the devices whose registration differs from the table: present (`true`) or absent.
        private var devicesByPass: [Pass: [String: Bool]] = [:]
        /// Per device, the passes whose registration differs from the table, whether present, and their template.
        private var passesByDevice: [String: [Pass: (present: Bool, template: String)]] = [:]

        /// Takes an event's change back: the state before it.
        mutating func undo(added: Bool, _ pass: Pass, device: String, template: String) {
            devicesByPass[pass, default: [:]][device] = !added
            passesByDevice[device, default: [:]][pass] = (!added, template)
        }

        /// Whether a device other than `device` has the pass.
        func otherDevices(_ pass: Pass, besides device: String, _ db: Database) throws -> Bool {
            let changed = devicesByPass[pass] ?? [:]
            if changed.contains(where: { $0.key != device && $0.value }) { return true }
            let absent = changed.filter { $0.key != device && !$0.value }.count
            // One more row than the registrations taken back: if all of those come back, one is still there.
            let rows = try String.fetchAll(db.cachedStatement(sql: """
                SELECT device_library_identifier FROM registrations
                WHERE pass_type_identifier = ? AND serial_number = ? AND device_library_identifier <> ? LIMIT ?
                """), arguments: [pass.type, pass.serial, device, absent + 1])
            if rows.contains(where: { changed[$0] != false }) { return true }
            // Saved in Google Wallet: that object counts as a device that has the pass, as in the mirror.
            return try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT saved FROM google_callbacks WHERE pass_type_identifier = ? AND serial_number = ?
                ORDER BY received_at DESC LIMIT 1
                """), arguments: [pass.type, pass.serial]) ?? false
        }

        /// Whether the device has a pass of the template other than `pass`.
        func otherPasses(of device: String, template: String, besides pass: Pass, _ db: Database) throws -> Bool {
            let changed = passesByDevice[device] ?? [:]
            if changed.contains(where: { $0.key != pass && $0.value.present && $0.value.template == template }) {
                return true
            }
            let absent = changed.filter { $0.key != pass && !$0.value.present }.count
            // The device's few registrations by the primary key, each pass by its own.
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT r.pass_type_identifier, r.serial_number FROM registrations r
                CROSS JOIN passes p ON p.pass_type_identifier = r.pass_type_identifier AND p.serial_number = r.serial_number
                WHERE r.device_library_identifier = ?1 AND p.template = ?2
                    AND NOT (r.pass_type_identifier = ?3 AND r.serial_number = ?4)
                LIMIT ?5
                """), arguments: [device, template, pass.type, pass.serial, absent + 1])
            return rows.contains { row in changed[Pass(type: row[0], serial: row[1])]?.present != false }
        }
    }

    /// The event types the fold counts, and the only ones it reads a pass's template for.
    private static let foldedTypes: Set<WalletEventType> = [.passRegistered, .passUnregistered, .passUpdated]

    /// One event's changes, from and to the registration mirror (the fold catching up on a backlog: see
    /// ``foldRecorded(_:lastID:_:)``).
    private static func fold(_ subject: AnalyticsFold.Subject, into fold: inout AnalyticsFold, _ db: Database) throws {
        let (type, serial, device, template) = (subject.passTypeIdentifier, subject.serialNumber, subject.device, subject.template)
        let key = AnalyticsFold.Key(hour: UsageCount.hour(of: subject.createdAt), passTypeIdentifier: type, template: template)
        switch subject.event {
        case "pass.updated":
            fold.add(key) { $0.updates += 1 }
        case "pass.registered", "pass.unregistered":
            guard let device else { return }
            let added = subject.event == "pass.registered"
            if added {
                try mirrorInsert(db).execute(arguments: [type, serial, device, template])
            } else {
                try mirrorDelete(db).execute(arguments: [type, serial, device])
            }
            guard db.changesCount == 1 else { return }
            let (otherDevices, otherPasses) = try others(type, serial, device, template, db)
            fold.addRegistration(key, added: added, otherDevices: otherDevices, otherPasses: otherPasses)
        default:
            return
        }
    }

    /// The mirror's row added, unless there: pass type, serial number, device hash, template.
    private static func mirrorInsert(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: """
            INSERT INTO analytics_registrations (pass_type_identifier, serial_number, device, template)
            VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
            """)
    }

    /// The mirror's row deleted: pass type, serial number, device hash.
    private static func mirrorDelete(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: """
            DELETE FROM analytics_registrations WHERE pass_type_identifier = ? AND serial_number = ? AND device = ?
            """)
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
