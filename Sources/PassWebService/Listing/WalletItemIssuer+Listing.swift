public import Foundation
import HTTPTypes
public import PassModel
public import PassStore

/// One page of a search.
public struct ItemListPage: Sendable {
    /// The matching items, in listing order.
    public var items: [PassListing]
    /// The cursor of the next page; `nil` after the last.
    public var nextCursor: String?
}

extension WalletItemIssuer {
    /// The most stored items one page reads while `field.*` filters pass over non-matching ones: a page costs at most
    /// this however sparse the matches; a page with fewer items (even none) and a `nextCursor` continues the search.
    static var maximumItemsScannedPerPage: Int { 5_000 }
    /// The most item data one page holds (passes carrying their own images, up to 8 MB each): past it the page ends
    /// early with a `nextCursor`, rather than a page of 1,000 such passes held in memory at once.
    static var maximumDataBytesPerPage: Int { 16 << 20 }
    /// The most items read from the store at a time, so a page's data is read in parts it can stop between.
    static var storeReadSize: Int { 200 }

    /// One page of a search: items after the cursor that pass its filters, at most `limit`, and the cursor of the
    /// next page (`nil` after the last).
    /// - Throws: ``IssuerError`` 501 when the store cannot list.
    public func listItems(_ request: ItemListRequest) async throws -> ItemListPage {
        let store = try listingStore()
        if let scope = request.visibleScope, let type = request.query.typeIdentifier, !scope.covers(type) {
            return ItemListPage(items: [], nextCursor: nil)
        }
        var query = request.query
        // One more than a page: when it is there, the page is not the last, so the last page ends with no cursor.
        // Filters applied here (field values, an API key's scope) read the store in larger pages: a page of 1 would
        // otherwise take thousands of store reads to pass over items that do not match.
        let filtersHere = !request.fields.isEmpty || request.visibleScope != nil
        query.limit = min(filtersHere ? max(request.limit + 1, 500) : request.limit + 1, Self.storeReadSize)
        var items: [PassListing] = []
        var scanned = 0
        var bytes = 0
        while true {
            let page = try await store.listPasses(query)
            scanned += page.count
            for (index, listing) in page.enumerated() where try await matches(listing.record, request) {
                items.append(listing)
                bytes += listing.record.data.count
                if items.count == request.limit || bytes >= Self.maximumDataBytesPerPage {
                    var more = index < page.count - 1 || page.count == query.limit
                    if more, !filtersHere, index == page.count - 1 {
                        // The store was read in parts: whether anything follows is asked, so the last page still
                        // ends without a cursor.
                        var next = query
                        (next.after, next.limit) = (listing.key, 1)
                        more = try await !store.listPasses(next).isEmpty
                    }
                    return ItemListPage(items: items, nextCursor: more ? ItemListRequest.cursor(after: listing.key) : nil)
                }
            }
            guard let last = page.last, page.count == query.limit else {
                return ItemListPage(items: items, nextCursor: nil)
            }
            query.after = last.key
            if scanned >= Self.maximumItemsScannedPerPage {
                return ItemListPage(items: items, nextCursor: ItemListRequest.cursor(after: last.key))
            }
        }
    }

    /// Every item that passes a search's filters, from its cursor to the end, handed to `body` a store page at a time
    /// (so an export of any size holds one page in memory).
    public func forEachItem(_ request: ItemListRequest, pageSize: Int = 500, _ body: ([PassListing]) async throws -> Void)
        async throws
    {
        let store = try listingStore()
        if let scope = request.visibleScope, let type = request.query.typeIdentifier, !scope.covers(type) { return }
        var query = request.query
        query.limit = pageSize
        while true {
            let page = try await store.listPasses(query)
            var matching: [PassListing] = []
            for listing in page where try await matches(listing.record, request) { matching.append(listing) }
            if !matching.isEmpty { try await body(matching) }
            guard let last = page.last, page.count == pageSize else { return }
            query.after = last.key
        }
    }

    private func listingStore() throws -> any PassListingStore {
        guard let store = store as? any PassListingStore else {
            throw IssuerError(status: .notImplemented, description: "this store cannot list its items")
        }
        return store
    }

    private func matches(_ item: PassRecord, _ request: ItemListRequest) async throws -> Bool {
        if let scope = request.visibleScope, !scope.covers(item.passTypeIdentifier) { return false }
        let fields = request.fields
        guard !fields.isEmpty else { return true }
        let values = try await currentFieldValues(of: item)
        return fields.allSatisfy { Self.sameValue(values[$0.key], $0.value) }
    }

    /// A field's value equals a query's text: as text, or as a number when the value is a number and the text a
    /// decimal number (`12`, `-3.5`, `1e3`; not `0x10` or `inf`), whole numbers compared exactly (no rounding past
    /// 2^53).
    static func sameValue(_ value: JSONValue?, _ wanted: String) -> Bool {
        switch value {
        case .string(let text)?: return text == wanted
        case .integer(let number)?:
            if let whole = Int(wanted) { return whole == number }
            return isDecimal(wanted) && Double(wanted) == Double(number)
        case .number(let number)?: return isDecimal(wanted) && Double(wanted) == number
        case .bool(let flag)?: return wanted == (flag ? "true" : "false")
        default: return false
        }
    }

    private static func isDecimal(_ text: String) -> Bool {
        text.wholeMatch(of: /[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil
    }
}
