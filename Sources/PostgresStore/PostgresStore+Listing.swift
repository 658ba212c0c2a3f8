public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: PassListingStore {
    /// One page in primary-key order after the given key, with each item's device count and first valid scan from
    /// their indexes. The order is the database's collation's, stable from page to page. Each statement is planned
    /// with its values, so a filter not given drops out and the filters given choose the index: a template's items
    /// in the listing's order, the voided ones apart, the primary key's order otherwise.
    public func listPasses(_ query: PassListQuery) async throws -> [PassListing] {
        let rows = try await rows(Self.listingQuery(tables, query))
        return try rows.map { row in
            let (type, serial, token, template, data, personalization, voided, download, tag, modified, created, version,
                 registrations, redeemed, firstAt) = try row.decode(
                (String, String, String, String, Data, Data?, Bool, String, Int64, Date, Date, String?, Int, Int, Date?).self)
            return PassListing(
                record: PassRecord(
                    passTypeIdentifier: type, serialNumber: serial, authenticationToken: token, template: template,
                    data: data, personalization: personalization, voided: voided, downloadToken: download,
                    updateTag: tag, lastModified: modified, createdAt: created, templateVersion: version),
                registrations: registrations, redemptions: redeemed, firstRedeemedAt: firstAt)
        }
    }

    /// The statement of a listing page: the columns of ``passColumns`` and then the device count, redemptions and
    /// first valid scan.
    static func listingQuery(_ tables: ItemTables, _ query: PassListQuery) -> PostgresQuery {
        let holdsOrders = tables.kind == ItemTables.orders.kind
        let redemptions = holdsOrders ? "0" : "p.redemptions"
        let first = holdsOrders ? "NULL::timestamptz" : """
            (SELECT x.scanned_at FROM redemptions x WHERE x.pass_type_identifier = p.pass_type_identifier
                AND x.serial_number = p.serial_number AND x.result = 'valid' ORDER BY x.id LIMIT 1)
            """
        let columns = Self.passColumns.split(separator: ",").map { "p." + $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ", ")
        return """
            SELECT \(unescaped: columns),
                (SELECT count(*) FROM \(unescaped: tables.registrations) r
                    WHERE r.pass_type_identifier = p.pass_type_identifier AND r.serial_number = p.serial_number),
                \(unescaped: redemptions), \(unescaped: first)
            FROM \(unescaped: tables.items) p
            WHERE (p.pass_type_identifier, p.serial_number) > (\(query.after?.typeIdentifier ?? ""), \(query.after?.identifier ?? ""))
                AND (\(query.template)::text IS NULL OR p.template = \(query.template))
                AND (\(query.typeIdentifier)::text IS NULL OR p.pass_type_identifier = \(query.typeIdentifier))
                AND (\(query.voided)::boolean IS NULL OR p.voided = \(query.voided))
                AND (\(query.redeemed)::boolean IS NULL OR (\(unescaped: redemptions) > 0) = \(query.redeemed))
                AND (\(query.updatedSince)::timestamptz IS NULL OR p.last_modified >= \(query.updatedSince))
            ORDER BY p.pass_type_identifier, p.serial_number LIMIT \(max(0, query.limit))
            """
    }
}
