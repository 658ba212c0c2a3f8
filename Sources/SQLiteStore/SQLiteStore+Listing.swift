public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: PassListingStore {
    /// One page in primary-key order after the given key. The filters given are written into the statement (an
    /// absent one is no term at all, so the planner sees which indexes apply): a template's items are read through
    /// their index in the listing's order, the voided ones through theirs, and other filters pass over the primary
    /// key's order from where the page starts. Each item's device count and first valid scan come from their indexes.
    public func listPasses(_ query: PassListQuery) async throws -> [PassListing] {
        try await read { [tables] db in
            let statement = try db.cachedStatement(sql: Self.listingSQL(tables.names, query))
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

    /// The statement of a listing page: the terms of the filters `query` gives (parameters ?1-?8 as `listPasses`
    /// binds them), the columns of ``passRecord(_:)`` and then the device count, redemptions and first valid scan.
    static func listingSQL(_ names: ItemTables, _ query: PassListQuery) -> String {
        let isPasses = names.kind == ItemTables.passes.kind
        let redemptions = isPasses ? "p.redemptions" : "0"
        let first = isPasses ? """
            (SELECT x.scanned_at FROM redemptions x WHERE x.pass_type_identifier = p.pass_type_identifier
                AND x.serial_number = p.serial_number AND x.result = 'valid' ORDER BY x.id LIMIT 1)
            """ : "NULL"
        var filters = ["(p.pass_type_identifier, p.serial_number) > (?1, ?2)"]
        if query.template != nil { filters.append("p.template = ?3") }
        if query.typeIdentifier != nil { filters.append("p.pass_type_identifier = ?4") }
        // A literal, so the partial index of voided items is seen to apply.
        if let voided = query.voided { filters.append("p.voided = \(voided ? 1 : 0)") }
        if query.redeemed != nil { filters.append("(\(redemptions) > 0) = ?6") }
        if query.updatedSince != nil { filters.append("p.last_modified >= ?7") }
        return """
            SELECT \(passColumns),
                (SELECT count(*) FROM \(names.registrations) r WHERE r.pass_type_identifier = p.pass_type_identifier
                    AND r.serial_number = p.serial_number),
                \(redemptions), \(first)
            FROM \(names.items) p
            WHERE \(filters.joined(separator: " AND "))
            ORDER BY p.pass_type_identifier, p.serial_number LIMIT ?8
            """
    }
}
