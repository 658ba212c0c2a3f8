public import Foundation
public import NIOCore
public import PassStore
public import PassCrypto
public import PassModel

/// What Apple's device protocol and the download links need of an issuer, for passes and orders alike: the items of
/// its kind, their registrations, and the signed bundle of an item's current version.
///
/// The HTTP layer talks to passes and orders through this protocol only; the store behind it stays the issuer's.
public protocol WalletItemIssuer: Sendable {
    /// The store of this kind of item.
    var store: any PassStore { get }
    /// Signed bundles of current versions.
    var cache: BundleCache { get }
    /// The media type of a signed bundle (`application/vnd.apple.pkpass`, `application/vnd.apple.finance.order`).
    static var contentType: String { get }
    /// The file extension of a signed bundle (`pkpass`, `order`).
    static var fileExtension: String { get }
    /// Builds and signs the current version of an item, off the event loops.
    /// - Parameter item: The stored item.
    /// - Returns: The signed bundle.
    func signedBundle(for item: PassRecord) async throws -> Data
    /// The current value of each field of an item (its data's `fields`, else its template's), by field key: what
    /// searches match `field.<key>` against and exports list.
    func currentFieldValues(of item: PassRecord) async throws -> [String: JSONValue]
    /// The field keys of a template, in the template's order (an export's columns).
    func fieldKeys(ofTemplate name: String) async throws -> [String]
    /// Counts a device's fetch of an item for analytics.
    func countFetch(of item: PassRecord)
}

extension WalletItemIssuer {
    /// The item a device asks for, when `token` is its authentication token.
    ///
    /// The store reads a stand-in record when the item is missing and the comparison runs in constant time either
    /// way, so a wrong token on an existing identifier and any token on a missing one take the same time and give the
    /// same `nil`: identifiers cannot be probed. Inlinable, so the device routes run it without a call of their own.
    /// - Parameters:
    ///   - typeIdentifier: The pass or order type identifier.
    ///   - identifier: The serial number or order identifier.
    ///   - token: The credential the device sent, if any.
    /// - Returns: The item, or `nil` when it does not exist or the token does not match.
    @inlinable @inline(__always)
    public func authenticatedItem(typeIdentifier: String, identifier: String, token: Substring?) async throws
        -> PassRecord?
    {
        let lookup = try await store.passForAuthentication(passTypeIdentifier: typeIdentifier, serialNumber: identifier)
        let matches = Self.credential(token, matches: lookup.comparisonToken)
        guard let item = lookup.pass, matches else { return nil }
        return item
    }

    /// Whether a device's credential is `stored`, compared in constant time (also when there is none, against
    /// nothing), so how far a wrong one matched cannot be timed.
    @inlinable @inline(__always)
    public static func credential(_ token: Substring?, matches stored: String) -> Bool {
        let matches = SecretToken.constantTimeEqual(token ?? "", stored)
        return token != nil && matches
    }

    /// Registers a device for an item's pushes (or updates its push token) when `token` is the item's authentication
    /// token, checked by the store in the same step as the write, so no read of the item comes first.
    ///
    /// As ``authenticatedItem(typeIdentifier:identifier:token:)``: the comparison runs in constant time, against a
    /// stand-in's token when the item is missing, so a wrong token and a missing item take the same time and give the
    /// same `nil`.
    /// - Parameters:
    ///   - device: The device library identifier.
    ///   - pushToken: The device's push token.
    ///   - typeIdentifier: The pass or order type identifier.
    ///   - identifier: The serial number or order identifier.
    ///   - token: The credential the device sent, if any.
    ///   - now: The time of the registration.
    /// - Returns: Whether the registration is new, or `nil` (nothing written) when the item does not exist or the
    ///   token does not match.
    @inlinable @inline(__always)
    public func register(device: String, pushToken: String, typeIdentifier: String, identifier: String,
                         token: Substring?, now: Date) async throws -> RegistrationOutcome?
    {
        try await store.register(
            deviceLibraryIdentifier: device, pushToken: pushToken, passTypeIdentifier: typeIdentifier,
            serialNumber: identifier, now: now, authenticate: { Self.credential(token, matches: $0) })
    }

    /// Ends a device's registration for an item.
    @inlinable @inline(__always)
    public func unregister(device: String, from item: PassRecord) async throws {
        try await store.unregister(
            deviceLibraryIdentifier: device, passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber)
    }

    /// The identifiers of a device's items of one type changed after a tag, and the tag to send next time; `nil`
    /// when nothing changed.
    /// - Parameter updatedSince: The tag the device sent; `nil` lists every item.
    @inlinable @inline(__always)
    public func changedItems(device: String, typeIdentifier: String, updatedSince: Int64?) async throws
        -> SerialNumberList?
    {
        try await store.serialNumbers(
            deviceLibraryIdentifier: device, passTypeIdentifier: typeIdentifier, updatedSince: updatedSince)
    }

    /// An item by its identifiers, without credentials (the issuer's own view).
    public func item(typeIdentifier: String, identifier: String) async throws -> PassRecord? {
        try await store.pass(passTypeIdentifier: typeIdentifier, serialNumber: identifier)
    }

    /// The item a holder's download link names: the link's token is 40 letters and digits; anything else names none.
    public func item(downloadToken token: String) async throws -> PassRecord? {
        guard token.utf8.count == 40, token.utf8.allSatisfy(\.isLetterOrDigitASCII) else { return nil }
        return try await store.pass(downloadToken: token)
    }

    /// How many devices are registered for an item.
    public func registrationCount(of item: PassRecord) async throws -> Int {
        try await store.registrationCount(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber)
    }

    /// The bundle of an item's current version when the cache holds it, without waiting; `nil` when it must be built
    /// (``bundleBuffer(for:)``).
    @inlinable @inline(__always)
    public func cachedBundleBuffer(for item: PassRecord) -> ByteBuffer? {
        cache.bundle(
            for: BundleCache.Key(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber),
            updateTag: item.updateTag)
    }

    /// The bundle of an item's current version as a buffer that HTTP responses share without copying, from the cache
    /// or signed now (on NIO's blocking thread pool, never on an event loop); concurrent fetches of one version wait
    /// for one signature.
    public func bundleBuffer(for item: PassRecord) async throws -> ByteBuffer {
        if let cached = cachedBundleBuffer(for: item) { return cached }
        let key = BundleCache.Key(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber)
        // Concurrent fetches of one version sign it once (a fetch storm after a campaign's pushes).
        return try await cache.bundle(for: key, updateTag: item.updateTag) {
            ByteBuffer(bytes: try await signedBundle(for: item))
        }
    }

    /// Keeps the signed bundle of an item's version.
    func remember(_ bundle: ByteBuffer, for item: PassRecord) {
        let key = BundleCache.Key(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber)
        cache.store(bundle, for: key, updateTag: item.updateTag)
    }
}
