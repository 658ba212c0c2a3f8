public import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
public import PassBundle
import PassCrypto
public import PassModel
public import PassStore

/// Issues and changes Wallet orders for the web service, beside ``PassIssuer``: applies data to order templates,
/// signs with the Order Type ID certificate, stores in the order store (the same device protocol machinery as passes),
/// and keeps the signed bundle of each current version so device fetches do not sign again.
///
/// Each change is a new signed version: `updatedAt` is the version's `Last-Modified` (strictly increasing), status
/// transitions only move forward, and every registered device gets one push through the durable push queue.
public final class OrderIssuer: WalletItemIssuer {
    /// The media type of a signed order.
    public static let contentType = BundleFormat.order.mediaType
    /// The file extension of a signed order.
    public static let fileExtension = "order"

    /// What the issuer needs.
    public struct Configuration: Sendable {
        /// Folder holding one order template folder per name (`shop-order/order.json`, ...).
        public var templatesDirectory: URL
        /// The server's public base URL: orders get it as `webServiceURL`, download links start with it.
        public var publicURL: URL
        /// Most bytes of signed bundles kept in memory.
        public var bundleCacheBytes: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - templatesDirectory: The order templates folder.
        ///   - publicURL: The server's public base URL.
        ///   - bundleCacheBytes: Most bytes of signed bundles kept in memory.
        public init(templatesDirectory: URL, publicURL: URL, bundleCacheBytes: Int = 64 << 20) {
            self.templatesDirectory = templatesDirectory
            self.publicURL = publicURL
            self.bundleCacheBytes = bundleCacheBytes
        }
    }

    /// The store the orders live in (an order store: `SQLiteStore.orderStore()`, `PostgresStore.orderStore()`, or a
    /// `MemoryPassStore` of its own). Records hold the `orderTypeIdentifier` as `passTypeIdentifier` and the
    /// `orderIdentifier` as `serialNumber`.
    public let store: any PassStore
    /// The configuration.
    public let configuration: Configuration
    let templates: OrderTemplateLibrary
    /// Signed bundles of current versions.
    public let cache: BundleCache
    let now: @Sendable () -> Date
    /// Called after a change queued pushes, so the dispatcher sends them at once.
    let onPushesQueued: @Sendable () -> Void

    /// Creates an issuer.
    /// - Parameters:
    ///   - store: Where orders, their registrations and pushes live.
    ///   - signer: Signs bundles with the Order Type ID certificate.
    ///   - configuration: Templates folder and public URL.
    ///   - now: The clock.
    ///   - onPushesQueued: Told when a change queued pushes.
    public convenience init(
        store: any PassStore, signer: OrderSigner, configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init, onPushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.init(
            store: store, sources: [TemplateSource(directory: configuration.templatesDirectory, signer: signer)],
            configuration: configuration, now: now, onPushesQueued: onPushesQueued)
    }

    /// Creates an issuer over several Order Type IDs, each with its order templates folder (template names are
    /// unique across the folders; the first folder holding a name is the one used).
    /// - Parameters:
    ///   - store: Where orders, their registrations and pushes live.
    ///   - sources: The order templates folders and their signers.
    ///   - configuration: Public URL and limits (its `templatesDirectory` is not read).
    ///   - now: The clock.
    ///   - onPushesQueued: Told when a change queued pushes.
    public init(
        store: any PassStore, sources: [TemplateSource], configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init, onPushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.configuration = configuration
        self.templates = OrderTemplateLibrary(sources: sources)
        self.cache = BundleCache(capacity: configuration.bundleCacheBytes)
        self.now = now
        self.onPushesQueued = onPushesQueued
    }

    /// An order templates folder and the Order Type ID certificate its templates' orders are signed with.
    public struct TemplateSource: Sendable {
        /// The folder, one template per sub-folder.
        public var directory: URL
        /// Signs the orders of its templates.
        public var signer: OrderSigner

        /// Creates a source.
        public init(directory: URL, signer: OrderSigner) {
            self.directory = directory
            self.signer = signer
        }
    }

    /// The order templates folders and their signers, in lookup order.
    public var templateSources: [TemplateSource] { templates.versions.currentSources }

    /// The source (folder and identity) whose folder holds order template `name`, as orders made from it are found and
    /// signed; `nil` when no folder holds it.
    public func templateSource(named name: String) -> TemplateSource? {
        templates.folder(named: name)?.source
    }

    /// Replaces the signing identities (renewed certificates): orders built from now on are signed with them.
    public func replaceSources(_ sources: [TemplateSource]) {
        templates.versions.replaceSources(sources)
    }

    /// Every Order Type ID this issuer signs for, in lookup order.
    public var orderTypeIdentifiers: [String] { templateSources.compactMap(\.signer.identity.orderTypeIdentifier) }

    /// The Order Type ID of the first order templates folder's certificate (the only one with a single identity).
    public var orderTypeIdentifier: String? { templateSources.first?.signer.identity.orderTypeIdentifier }

    /// The `webServiceURL` written into every order: the public URL without a trailing slash.
    public var webServiceURL: String {
        var text = configuration.publicURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The holder's download link of an order (no credentials; the token is unguessable).
    /// - Parameter order: The stored order.
    /// - Returns: `<webServiceURL>/download/<token>.order`.
    public func downloadURL(for order: PassRecord) -> String {
        "\(webServiceURL)/download/\(order.downloadToken).\(Self.fileExtension)"
    }

    /// What a buyer's device needs to add an order to Wallet (Apple Pay's `orderDetails`) and where to download it.
    /// - Parameter order: The stored order.
    /// - Returns: The order's identifiers, web service URL, authentication token and download link.
    public func handOff(for order: PassRecord) -> OrderHandOff {
        OrderHandOff(
            orderTypeIdentifier: order.passTypeIdentifier, orderIdentifier: order.serialNumber,
            webServiceURL: webServiceURL, authenticationToken: order.authenticationToken,
            downloadURL: downloadURL(for: order))
    }

    /// - Parameters:
    ///   - orderTypeIdentifier: The order type.
    ///   - orderIdentifier: The order's identifier.
    /// - Returns: The order's current version, or `nil`.
    public func order(orderTypeIdentifier: String, orderIdentifier: String) async throws -> PassRecord? {
        try await store.pass(passTypeIdentifier: orderTypeIdentifier, serialNumber: orderIdentifier)
    }

    /// Creates an order from a template and a data document merged into its `order.json` (objects key by key, other
    /// values replace, `null` removes). The `orderIdentifier` is generated when the data has none; `createdAt`,
    /// `updatedAt`, `webServiceURL` and `authenticationToken` are set by the server. The order is built and signed
    /// before it is stored, so invalid data stores nothing.
    /// - Parameters:
    ///   - name: The template's folder name.
    ///   - data: The data document.
    /// - Returns: The stored order and the validator's warnings as `path: message`.
    /// - Throws: ``IssuerError`` naming the template or field; 409 when the `orderIdentifier` exists.
    public func createOrder(template name: String, data: [String: JSONValue]) async throws
        -> (order: PassRecord, warnings: [String])
    {
        do {
            return try await insert(template: name, data: data, at: now())
        } catch let error as PassStoreError where error.isDuplicatePass {
            let identifier = data["orderIdentifier"]?.stringValue ?? ""
            throw IssuerError(status: .conflict, description: "data.orderIdentifier: the order \(identifier) already exists")
        }
    }

    /// Creates the order unless one with the same `orderIdentifier` exists, for the checkout hand-off: calling it
    /// again (a retried authorization, or two at once) gives the one order, never a second.
    /// - Parameters:
    ///   - template: The order template's folder name.
    ///   - data: The data document (a JSON object); it must name the `orderIdentifier`.
    ///   - now: The creation time (`createdAt`/`updatedAt` of a new order, to the second).
    /// - Returns: The order, and whether this call created it.
    /// - Throws: ``IssuerError`` naming the template or field (422 when the data names no `orderIdentifier`).
    public func issueIfAbsent(template: String, data: Data, now: Date) async throws -> (record: PassRecord, created: Bool) {
        guard case .object(let document)? = try? JSONValue(jsonData: data) else {
            throw IssuerError.invalidData("data: must be a JSON object of order.json keys")
        }
        guard let identifier = document["orderIdentifier"]?.stringValue else {
            throw IssuerError.invalidData("data.orderIdentifier: required, so the order is issued once")
        }
        guard let type = try await templateBuilder(named: template).signer.identity.orderTypeIdentifier else {
            throw Self.noOrderTypeIdentifier
        }
        if let existing = try await order(orderTypeIdentifier: type, orderIdentifier: identifier) {
            return (existing, false)
        }
        do {
            return (try await insert(template: template, data: document, at: now).order, true)
        } catch let error as PassStoreError where error.isDuplicatePass {
            // Another call created it between the look-up and the insert: that one is the order.
            guard let existing = try await order(orderTypeIdentifier: type, orderIdentifier: identifier) else { throw error }
            return (existing, false)
        }
    }

    static let noOrderTypeIdentifier = IssuerError(
        status: .internalServerError, description: "the order signing certificate names no Order Type ID", field: nil)

    /// Builds, signs and stores a new order at `time`; a duplicate `orderIdentifier` comes out as the store's error.
    private func insert(template name: String, data: [String: JSONValue], at time: Date) async throws
        -> (order: PassRecord, warnings: [String])
    {
        try PassIssuer.checkData(data, path: "data")
        for reserved in Self.serverKeys where data[reserved] != nil {
            throw IssuerError.invalidData("data.\(reserved): set by the server, not by the data document")
        }
        let entry = try await templateEntry(named: name)
        let builder = entry.builder
        guard let type = builder.signer.identity.orderTypeIdentifier else { throw Self.noOrderTypeIdentifier }
        if let refusal = refusal(builder) { throw refusal }
        // The certificate names the order type: data naming another is a mistake to say, not to replace quietly.
        switch data["orderTypeIdentifier"] {
        case nil, .null?: break
        case .string(let given)? where given == type: break
        case let other?:
            throw IssuerError.invalidData("data.orderTypeIdentifier: \(other.stringValue.map { "\"\($0)\"" } ?? other.kindName) is "
                + "not the Order Type ID of the certificate that signs template \(name) (\(type)); leave it out or give that one")
        }
        var document = data
        let identifier: String
        switch document["orderIdentifier"] {
        case nil, .null?:
            identifier = UUID().uuidString.lowercased()
            document["orderIdentifier"] = .string(identifier)
        case .string(let given)?:
            guard PathSegments.isValidSerialNumber(given) else {
                throw IssuerError.invalidData(
                    "data.orderIdentifier: 1-\(PathSegments.maximumLength) letters, digits or .-_~:@+=, not \".\" or \"..\" (it goes in URLs)")
            }
            identifier = given
        case let other?:
            throw IssuerError.invalidData("data.orderIdentifier: must be a string, found \(other.kindName)")
        }
        let seconds = time.wholeSeconds
        let record = PassRecord(
            passTypeIdentifier: type, serialNumber: identifier, authenticationToken: SecretToken.random(length: 32),
            template: name, data: try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false),
            downloadToken: SecretToken.random(length: 40), updateTag: 0, lastModified: seconds, createdAt: seconds)
        let built = try await build(record, builder: builder)
        let stored = try await store.insertPass(
            NewPass(
                passTypeIdentifier: type, serialNumber: identifier, authenticationToken: record.authenticationToken,
                template: name, data: record.data, downloadToken: record.downloadToken, templateVersion: entry.version),
            now: seconds)
        remember(ByteBuffer(bytes: built.bundle), for: stored)
        return (stored, built.warnings)
    }
}

/// What Apple Pay's `orderDetails` carries for an order, and the holder's download link.
public struct OrderHandOff: Sendable, Equatable, Codable {
    /// The order's `orderTypeIdentifier`.
    public var orderTypeIdentifier: String
    /// The order's `orderIdentifier`.
    public var orderIdentifier: String
    /// The web service URL Wallet calls for updates.
    public var webServiceURL: String
    /// The token Wallet sends as `Authorization: AppleOrder <token>`.
    public var authenticationToken: String
    /// The holder's `.order` download link.
    public var downloadURL: String
}
