import Foundation
import GRDB
import PassStore
@testable import PostgresStore
import PostgresNIO
@testable import SQLiteStore
import Testing
import TesseraTestSupport

/// A listing filtered by template, or of the voided passes, reads through an index in the listing's order: a page of
/// a small template among many passes costs what the page holds, not what the table does.
@Suite("Pass listings: filtered pages through their indexes")
struct PassListingIndexTests {
    /// 20,000 passes of template "event" and, spread among them, 20 of template "small" (every thousandth serial
    /// number), 20 voided.
    private static let bulk = 20_000

    private static func pass(_ index: Int) -> NewPass {
        var pass = Fixtures.newPass(String(format: "S%06d", index))
        if index % 1_000 == 500 { pass.template = "small" }
        return pass
    }

    private static func expectPages(_ store: any PassListingStore) async throws {
        var query = PassListQuery(template: "small", limit: 7)
        var seen: [String] = []
        while true {
            let page = try await store.listPasses(query)
            seen += page.map(\.record.serialNumber)
            guard page.count == query.limit, let last = page.last else { break }
            query.after = .init(typeIdentifier: last.record.passTypeIdentifier, identifier: last.record.serialNumber)
        }
        #expect(seen == (0..<20).map { String(format: "S%06d", $0 * 1_000 + 500) })
        let voided = try await store.listPasses(PassListQuery(voided: true, limit: 100)).map(\.record.serialNumber)
        #expect(voided == (0..<20).map { String(format: "S%06d", $0 * 1_000 + 7) })
    }

    @Test("SQLite: the template's index in the listing's order, the voided passes' own index, the right pages")
    func sqlite() async throws {
        let folder = try TemporaryDirectory.make(prefix: "listing-index")
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
        try await store.migrate()
        try await store.bulkLoad(passes: (0..<Self.bulk).map(Self.pass), registrations: [], now: Fixtures.now)
        for index in stride(from: 7, to: Self.bulk, by: 1_000) {
            _ = try await Fixtures.void(String(format: "S%06d", index), in: store)
        }
        try await Self.expectPages(store)

        func plan(_ query: PassListQuery) async throws -> String {
            let sql = SQLiteStore.listingSQL(.passes, query)
            return try await store.pool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: ["", "", "small", nil, true, nil, nil, 7])
                    .map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
            }
        }
        let template = try await plan(PassListQuery(template: "small", limit: 7))
        #expect(template.contains("USING INDEX passes_listing_template (template=? AND"), "\(template)")
        #expect(!template.contains("TEMP B-TREE"), "read in the listing's order, not sorted: \(template)")
        let voided = try await plan(PassListQuery(voided: true, limit: 7))
        #expect(voided.contains("USING INDEX passes_listing_voided"), "\(voided)")
        #expect(!voided.contains("TEMP B-TREE"), "\(voided)")
    }

    @Test("PostgreSQL: the same indexes chosen by the planner, the right pages",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func postgres() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_listing", logger: StoreKind.logger) {
            stores in
            let store = stores[0]
            try await store.migrate()
            // One pass through the store, then copied row by row in SQL (every column but the two unique ones kept).
            let seed = Self.pass(0)
            _ = try await store.insertPass(seed, now: Fixtures.now)
            let copy = """
                INSERT INTO passes SELECT (jsonb_populate_record(NULL::passes, to_jsonb(s) || jsonb_build_object(
                    'serial_number', 'S' || lpad(g::text, 6, '0'), 'download_token', 'dl-' || g,
                    'template', CASE WHEN g % 1000 = 500 THEN 'small' ELSE s.template END,
                    'voided', g % 1000 = 7))).*
                FROM passes s, generate_series(1, \(Self.bulk - 1)) g WHERE s.serial_number = '\(seed.serialNumber)'
                """
            for statement in [copy, "ANALYZE passes"] {
                _ = try await store.pool.rows(PostgresQuery(unsafeSQL: statement), mapError: { $0 })
            }
            try await Self.expectPages(store)

            func plan(_ query: PassListQuery) async throws -> String {
                let listing = PostgresStore.listingQuery(.passes, query)
                let rows = try await store.pool.rows(
                    PostgresQuery(unsafeSQL: "EXPLAIN " + listing.sql, binds: listing.binds), mapError: { $0 })
                return try rows.map { try $0.decode(String.self) }.joined(separator: "\n")
            }
            let template = try await plan(PassListQuery(template: "small", limit: 7))
            #expect(template.contains("passes_listing_template"), "\(template)")
            #expect(!template.contains("Sort"), "read in the listing's order, not sorted: \(template)")
            let voided = try await plan(PassListQuery(voided: true, limit: 7))
            #expect(voided.contains("passes_listing_voided"), "\(voided)")
        }
    }
}
