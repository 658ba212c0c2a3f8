public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore {
    /// The columns a ``PassStore/PassRecord`` is read from, in the order ``passRecord(_:)`` expects.
    static let passColumns = """
        pass_type_identifier, serial_number, authentication_token, template, data, personalization, voided, \
        download_token, update_tag, last_modified, created_at, template_version
        """

    static func passRecord(_ row: Row, from first: Int = 0) -> PassRecord {
        PassRecord(
            passTypeIdentifier: row[first], serialNumber: row[first + 1], authenticationToken: row[first + 2],
            template: row[first + 3], data: row[first + 4], personalization: row[first + 5], voided: row[first + 6],
            downloadToken: row[first + 7], updateTag: row[first + 8],
            lastModified: Date(timeIntervalSince1970: Double(row[first + 9] as Int64)),
            createdAt: Date(timeIntervalSince1970: Double(row[first + 10] as Int64)), templateVersion: row[first + 11]
        )
    }

    /// One statement either way: the pass by its key, or, when there is none, the last stored pass in its place (a
    /// compound SELECT with LIMIT 1 stops after its first row, so a found pass reads one record and a missing one
    /// reads one record too), so both cost the same.
    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: The pass or `nil`, and the token to compare a credential with.
    public func passForAuthentication(passTypeIdentifier: String, serialNumber: String) async throws -> PassLookup {
        try await read { [tables] db in
            let statement = try db.cachedStatement(sql: tables.itemForAuthentication)
            guard let row = try Row.fetchOne(statement, arguments: [passTypeIdentifier, serialNumber]) else {
                return PassLookup(pass: nil, comparisonToken: PassLookup.standInToken)
            }
            let record = Self.passRecord(row, from: 1)
            let found = (row[0] as Int64) == 1
            return PassLookup(pass: found ? record : nil, comparisonToken: record.authenticationToken)
        }
    }

    /// Stores a new pass with a fresh update tag.
    /// - Parameters:
    ///   - new: The pass to store.
    ///   - now: The creation time (kept to the second).
    /// - Throws: ``PassStore/PassStoreError/duplicatePass(passTypeIdentifier:serialNumber:)`` when the serial number
    ///   exists; ``PassStore/PassStoreError/invalidData(_:)`` when the download token is already in use.
    /// - Returns: The stored pass.
    public func insertPass(_ new: NewPass, now: Date) async throws -> PassRecord {
        try await write { [tables] db in try Self.insertPass(new, now: now, tables, db) }
    }

    static func insertPass(_ new: NewPass, now: Date, _ tables: Tables, _ db: Database) throws -> PassRecord {
        let tag = try nextUpdateTag(tables, db)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let statement = try db.cachedStatement(sql: """
            INSERT INTO \(tables.items) (\(passColumns)) VALUES (?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?)
            ON CONFLICT (pass_type_identifier, serial_number) DO NOTHING
            RETURNING \(passColumns)
            """)
        let row: Row?
        do {
            row = try Row.fetchOne(statement, arguments: [
                new.passTypeIdentifier, new.serialNumber, new.authenticationToken, new.template, new.data,
                new.downloadToken, tag, seconds, seconds, new.templateVersion,
            ])
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw PassStoreError.invalidData("download token already in use")
        }
        guard let row else {
            throw PassStoreError.duplicatePass(passTypeIdentifier: new.passTypeIdentifier, serialNumber: new.serialNumber)
        }
        let inserted = passRecord(row)
        try Self.record([.created(tables.itemKind, record: inserted)], now: now, db)
        return inserted
    }

    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: The pass, or `nil`.
    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> PassRecord? {
        try await read { [tables] db in
            let statement = try db.cachedStatement(sql: tables.itemByKey)
            return try Row.fetchOne(statement, arguments: [passTypeIdentifier, serialNumber]).map { Self.passRecord($0) }
        }
    }

    /// - Parameter downloadToken: The token of the holder's download link.
    /// - Returns: The pass, or `nil`.
    public func pass(downloadToken: String) async throws -> PassRecord? {
        try await read { [tables] db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.passColumns) FROM \(tables.items) WHERE download_token = ?")
            return try Row.fetchOne(statement, arguments: [downloadToken]).map { Self.passRecord($0) }
        }
    }

    /// Applies a change as a new version and queues the pushes it owes, in one transaction.
    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    ///   - change: The new values.
    ///   - now: The time of the change (`lastModified`, to the second; at least a second after the previous
    ///   version's, so a device holding that version never gets 304 for this one).
    /// - Returns: The new version and how many pushes were queued, or `nil` when there is no such pass.
    public func updatePass(passTypeIdentifier: String, serialNumber: String, change: PassChange, now: Date)
        async throws -> PassUpdate?
    {
        try await write { [tables] db in
            try Self.updatePass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, change: change,
                                now: now, tables, db)
        }
    }

    /// ``updatePass(passTypeIdentifier:serialNumber:change:now:)`` inside the caller's write transaction.
    static func updatePass(passTypeIdentifier: String, serialNumber: String, change: PassChange, now: Date,
                           _ tables: Tables, _ db: Database) throws -> PassUpdate? {
        let read = try db.cachedStatement(sql: tables.itemByKey)
        guard let before = try Row.fetchOne(read, arguments: [passTypeIdentifier, serialNumber]).map({
            passRecord($0)
        }) else { return nil }
        let tag = try nextUpdateTag(tables, db)
        let update = try db.cachedStatement(sql: """
            UPDATE \(tables.items) SET data = COALESCE(?, data), voided = COALESCE(?, voided),
                personalization = COALESCE(?, personalization), template_version = COALESCE(?, template_version),
                update_tag = ?, last_modified = MAX(?, last_modified + 1)
            WHERE pass_type_identifier = ? AND serial_number = ? AND (? = 0 OR personalization IS NULL)
                AND (? IS NULL OR update_tag = ?)
            RETURNING \(passColumns)
            """)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let arguments: StatementArguments = [
            change.data, change.voided, change.personalization, change.templateVersion, tag, seconds, passTypeIdentifier, serialNumber,
            change.onlyIfNotPersonalized, change.onlyIfUpdateTag, change.onlyIfUpdateTag,
        ]
        guard let row = try Row.fetchOne(update, arguments: arguments) else { return nil }
        let after = passRecord(row)
        let queued = try queuePushes(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now, tables, db)
        try record(WalletEventDraft.change(tables.itemKind, before: before, after: after, campaign: nil),
                        now: now, db)
        return PassUpdate(pass: after, pushesQueued: queued)
    }
}
