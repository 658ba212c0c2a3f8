public import Foundation

/// Listing the items of a store for the issuer's search and export: a filtered walk in a stable order, a page at a time
/// after a key (keyset paging, so a page costs the same at the start and the end of a large table, and items that
/// change between pages are neither skipped nor repeated).
public protocol PassListingStore: Sendable {
    /// Items after `query.after` in (type identifier, identifier) order that pass the query's filters, at most
    /// `query.limit`, each with its device count and redemption summary.
    func listPasses(_ query: PassListQuery) async throws -> [PassListing]
}

/// The filters and position of one page of ``PassListingStore/listPasses(_:)``.
public struct PassListQuery: Sendable, Equatable {
    /// Only items made from this template.
    public var template: String?
    /// Only items of this pass (or order) type.
    public var typeIdentifier: String?
    /// Only voided (`true`) or only valid (`false`) items.
    public var voided: Bool?
    /// Only items redeemed at least once (`true`) or never (`false`).
    public var redeemed: Bool?
    /// Only items whose last change is at or after this time.
    public var updatedSince: Date?
    /// The key of the last item of the previous page (`nil`: from the start).
    public var after: PassListKey?
    /// At most this many items.
    public var limit: Int

    /// Creates a query.
    public init(template: String? = nil, typeIdentifier: String? = nil, voided: Bool? = nil, redeemed: Bool? = nil,
                updatedSince: Date? = nil, after: PassListKey? = nil, limit: Int) {
        self.template = template
        self.typeIdentifier = typeIdentifier
        self.voided = voided
        self.redeemed = redeemed
        self.updatedSince = updatedSince
        self.after = after
        self.limit = limit
    }
}

/// An item's key in listing order.
public struct PassListKey: Sendable, Hashable {
    public var typeIdentifier: String
    public var identifier: String

    /// Creates a key.
    public init(typeIdentifier: String, identifier: String) {
        self.typeIdentifier = typeIdentifier
        self.identifier = identifier
    }
}

/// One listed item.
public struct PassListing: Sendable, Equatable {
    public var record: PassRecord
    /// Devices registered for it.
    public var registrations: Int
    /// Valid scans so far (0 for orders).
    public var redemptions: Int
    /// The first valid scan's time.
    public var firstRedeemedAt: Date?

    /// Creates a listing.
    public init(record: PassRecord, registrations: Int, redemptions: Int, firstRedeemedAt: Date?) {
        self.record = record
        self.registrations = registrations
        self.redemptions = redemptions
        self.firstRedeemedAt = firstRedeemedAt
    }

    /// Its key.
    public var key: PassListKey {
        PassListKey(typeIdentifier: record.passTypeIdentifier, identifier: record.serialNumber)
    }
}
