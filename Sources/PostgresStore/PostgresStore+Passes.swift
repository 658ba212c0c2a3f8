public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore {
    static let passColumns = """
        pass_type_identifier, serial_number, authentication_token, template, data, personalization, voided, \
        download_token, update_tag, last_modified, created_at, template_version
        """

    /// A pass record from a row whose first column says whether it is the pass asked for (see
    /// `PassForAuthentication`).
    static func flaggedPassRecord(_ row: PostgresRow) throws -> (Bool, PassRecord) {
        let (found, type, serial, token, template, data, personalization, voided, download, tag, modified, created, version) =
            try row.decode((Bool, String, String, String, String, Data, Data?, Bool, String, Int64, Date, Date, String?).self)
        return (found, PassRecord(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: token, template: template, data: data,
            personalization: personalization, voided: voided, downloadToken: download, updateTag: tag,
            lastModified: modified, createdAt: created, templateVersion: version
        ))
    }

    static func passRecord(_ row: PostgresRow) throws -> PassRecord {
        let (type, serial, token, template, data, personalization, voided, download, tag, modified, created, version) =
            try row.decode((String, String, String, String, Data, Data?, Bool, String, Int64, Date, Date, String?).self)
        return PassRecord(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: token, template: template, data: data,
            personalization: personalization, voided: voided, downloadToken: download, updateTag: tag,
            lastModified: modified, createdAt: created, templateVersion: version
        )
    }

    /// Stores a new pass with a fresh update tag.
    /// - Parameters:
    ///   - new: The pass to store.
    ///   - now: The creation time (kept to the second).
    /// - Throws: ``PassStore/PassStoreError/duplicatePass(passTypeIdentifier:serialNumber:)`` when the serial number
    ///   exists; ``PassStore/PassStoreError/invalidData(_:)`` when the download token is already in use.
    /// - Returns: The stored pass.
    public func insertPass(_ new: NewPass, now: Date) async throws -> PassRecord {
        try await transaction { connection in
            let tag = try await nextUpdateTag(connection)
            let seconds = now.wholeSeconds
            let rows: [PostgresRow]
            do {
                rows = try await connection.query("""
                    INSERT INTO \(unescaped: tables.items) (\(unescaped: Self.passColumns)) VALUES (\(new.passTypeIdentifier), \
                    \(new.serialNumber), \(new.authenticationToken), \(new.template), \(new.data), NULL, false, \
                    \(new.downloadToken), \(tag), \(seconds), \(seconds), \(new.templateVersion))
                    ON CONFLICT (pass_type_identifier, serial_number) DO NOTHING
                    RETURNING \(unescaped: Self.passColumns)
                    """, logger: logger).collect()
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                throw PassStoreError.invalidData("download token already in use")
            }
            guard let row = rows.first else {
                throw PassStoreError.duplicatePass(passTypeIdentifier: new.passTypeIdentifier, serialNumber: new.serialNumber)
            }
            let inserted = try Self.passRecord(row)
            try await self.record([.created(itemKind, record: inserted)], now: now, connection)
            return inserted
        }
    }

    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: The pass, or `nil`.
    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> PassRecord? {
        if holdsOrders {
            return try await rows(PassByKey<OrderKind>(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)).first
        }
        return try await rows(PassByKey<PassKind>(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)).first
    }

    /// The pass for a credential check, reading a stand-in record when it is missing so both cost the same.
    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: The pass or `nil`, and the token to compare a credential with.
    public func passForAuthentication(passTypeIdentifier: String, serialNumber: String) async throws -> PassLookup {
        let row = holdsOrders
            ? try await rows(PassForAuthentication<OrderKind>(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)).first
            : try await rows(PassForAuthentication<PassKind>(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)).first
        guard let (found, record) = row
        else { return PassLookup(pass: nil, comparisonToken: PassLookup.standInToken) }
        return PassLookup(pass: found ? record : nil, comparisonToken: record.authenticationToken)
    }

    /// - Parameter downloadToken: The token of the holder's download link.
    /// - Returns: The pass, or `nil`.
    public func pass(downloadToken: String) async throws -> PassRecord? {
        let rows = try await rows(
            "SELECT \(unescaped: Self.passColumns) FROM \(unescaped: tables.items) WHERE download_token = \(downloadToken)"
        )
        return try rows.first.map(Self.passRecord)
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
        try await transaction { connection in
            try await updatePass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, change: change,
                                 now: now, connection)
        }
    }

    /// ``updatePass(passTypeIdentifier:serialNumber:change:now:)`` inside the caller's transaction.
    func updatePass(passTypeIdentifier: String, serialNumber: String, change: PassChange, now: Date,
                    _ connection: PostgresConnection) async throws -> PassUpdate? {
        let tag = try await nextUpdateTag(connection)
        // `old` is the row before the change (a FROM item's values are the ones read), so the answer says what
        // changed for the events, without another round trip while the update tag counter is held.
        let rows = try await connection.query("""
            UPDATE \(unescaped: tables.items) SET data = COALESCE(\(change.data), data), voided = COALESCE(\(change.voided), voided),
                personalization = COALESCE(\(change.personalization), personalization), update_tag = \(tag),
                template_version = COALESCE(\(change.templateVersion)::text, template_version),
                last_modified = GREATEST(\(now.wholeSeconds), last_modified + interval '1 second')
            FROM (
                SELECT data AS old_data, voided AS old_voided, personalization AS old_personalization,
                    template_version AS old_template_version
                FROM \(unescaped: tables.items)
                WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = \(serialNumber) FOR UPDATE
            ) AS old
            WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = \(serialNumber)
                AND (NOT \(change.onlyIfNotPersonalized) OR personalization IS NULL)
                AND (\(change.onlyIfUpdateTag)::bigint IS NULL OR update_tag = \(change.onlyIfUpdateTag))
            RETURNING \(unescaped: Self.passColumns), old_data IS DISTINCT FROM data, old_voided IS DISTINCT FROM voided,
                old_personalization IS DISTINCT FROM personalization,
                old_template_version IS DISTINCT FROM template_version, old_personalization IS NULL
            """, logger: logger).collect()
        guard let row = rows.first else { return nil }
        let after = try Self.passRecord(row)
        let flags = row.makeRandomAccess()
        var changed: [String] = []
        for (index, member) in ["data", "voided", "personalization", "templateVersion"].enumerated()
        where try flags[12 + index].decode(Bool.self) {
            changed.append(member)
        }
        let queued = try await queuePushes(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now, connection
        )
        try await record(WalletEventDraft.change(
            itemKind, after: after, changed: changed, personalized: try flags[16].decode(Bool.self), campaign: nil
        ), now: now, connection)
        return PassUpdate(pass: after, pushesQueued: queued)
    }
}
