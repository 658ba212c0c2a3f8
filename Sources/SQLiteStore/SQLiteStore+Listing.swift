public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: PassListingStore {
    /// One page in primary-key order after the given key (the primary key's index: a page reads its rows and the ones
    /// its filters pass over, wherever it starts), with each item's device count and first valid scan from their
    /// indexes.
    public func listPasses(_ query: PassListQuery) async throws -> [PassListing] {
        try await read { [tables] db in
            let isPasses = tables.names.kind == ItemTables.passes.kind
            let redemptions = isPasses ? "p.redemptions" : "0"
            let first = isPasses ? """
                (SELECT x.scanned_at FROM redemptions x WHERE x.pass_type_identifier = p.pass_type_identifier
                    AND x.serial_number = p.serial_number AND x.result = 'valid' ORDER BY x.id LIMIT 1)
                """ : "NULL"
            let statement = try db.cachedStatement(sql: """
                SELECT \(Self.passColumns),
                    (SELECT count(*) FROM \(tables.registrations) r WHERE r.pass_type_identifier = p.pass_type_identifier
                        AND r.serial_number = p.serial_number),
                    \(redemptions), \(first)
                FROM \(tables.items) p
                WHERE (p.pass_type_identifier, p.serial_number) > (?1, ?2)
                    AND (?3 IS NULL OR p.template = ?3) AND (?4 IS NULL OR p.pass_type_identifier = ?4)
                    AND (?5 IS NULL OR p.voided = ?5) AND (?6 IS NULL OR (\(redemptions) > 0) = ?6)
                    AND (?7 IS NULL OR p.last_modified >= ?7)
                ORDER BY p.pass_type_identifier, p.serial_number LIMIT ?8
                """)
            let since = query.updatedSince.map { Int64($0.timeIntervalSince1970.rounded(.up)) }
            return try Row.fetchAll(statement, arguments: [
                query.after?.typeIdentifier ?? "", query.after?.identifier ?? "", query.template, query.typeIdentifier,
                query.voided, query.redeemed, since, max(0, query.limit),
            ]).map { row in
                let at: Double? = row[14]
                return PassListing(record: Self.passRecord(row), registrations: row[12], redemptions: row[13],
                                   firstRedeemedAt: at.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }
}
