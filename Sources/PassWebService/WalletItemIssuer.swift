import Foundation
import NIOCore
import PassStore

/// What the device routes and download links need of an issuer, for passes and orders alike: the store of its kind,
/// the cache of signed bundles, and signing a record's current version.
protocol WalletItemIssuer: Sendable {
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
}

extension WalletItemIssuer {
    /// The bundle of an item's current version when the cache holds it, without waiting; `nil` when it must be built
    /// (``bundleBuffer(for:)``).
    func cachedBundleBuffer(for item: PassRecord) -> ByteBuffer? {
        cache.bundle(
            for: BundleCache.Key(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber),
            updateTag: item.updateTag)
    }

    /// The bundle of an item's current version as a buffer that HTTP responses share without copying, from the cache
    /// or signed now (on NIO's blocking thread pool, never on an event loop).
    func bundleBuffer(for item: PassRecord) async throws -> ByteBuffer {
        if let cached = cachedBundleBuffer(for: item) { return cached }
        let bundle = ByteBuffer(bytes: try await signedBundle(for: item))
        remember(bundle, for: item)
        return bundle
    }

    /// Keeps the signed bundle of an item's version.
    func remember(_ bundle: ByteBuffer, for item: PassRecord) {
        let key = BundleCache.Key(passTypeIdentifier: item.passTypeIdentifier, serialNumber: item.serialNumber)
        cache.store(bundle, for: key, updateTag: item.updateTag)
    }
}
