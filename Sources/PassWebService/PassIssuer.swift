public import Foundation
import Logging
public import PassBundle
import HTTPTypes
import NIOCore
public import PassModel
public import PassStore

/// Issues and changes passes for the web service: applies data to templates, signs, stores, and keeps the signed
/// bundle of each current version so device fetches do not sign again.
public final class PassIssuer: Sendable {
    /// What the issuer needs.
    public struct Configuration: Sendable {
        /// Folder holding one template folder per name (`event-ticket/pass.json`, ...).
        public var templatesDirectory: URL
        /// The server's public base URL: passes get it as `webServiceURL`, download links start with it.
        public var publicURL: URL
        /// Most bytes of signed bundles kept in memory.
        public var bundleCacheBytes: Int

        /// Creates a configuration.
        public init(templatesDirectory: URL, publicURL: URL, bundleCacheBytes: Int = 256 << 20) {
            self.templatesDirectory = templatesDirectory
            self.publicURL = publicURL
            self.bundleCacheBytes = bundleCacheBytes
        }
    }

    /// The store the passes live in.
    public let store: any PassStore
    /// The configuration.
    public let configuration: Configuration
    let signer: PassSigner
    let templates: TemplateLibrary
    private let cache: BundleCache
    private let now: @Sendable () -> Date
    /// Called after a change queued pushes, so the dispatcher sends them at once.
    private let onPushesQueued: @Sendable () -> Void

    /// Creates an issuer.
    /// - Parameters:
    ///   - store: Where passes, registrations and pushes live.
    ///   - signer: Signs bundles with the Pass Type ID certificate.
    ///   - configuration: Templates folder and public URL.
    ///   - now: The clock.
    ///   - onPushesQueued: Told when a change queued pushes.
    public init(
        store: any PassStore, signer: PassSigner, configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init, onPushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.signer = signer
        self.configuration = configuration
        self.templates = TemplateLibrary(directory: configuration.templatesDirectory, signer: signer)
        self.cache = BundleCache(capacity: configuration.bundleCacheBytes)
        self.now = now
        self.onPushesQueued = onPushesQueued
    }

    /// The `webServiceURL` written into every pass: the public URL without a trailing slash.
    public var webServiceURL: String {
        var text = configuration.publicURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The holder's download link of a pass.
    public func downloadURL(for pass: PassRecord) -> String {
        "\(webServiceURL)/download/\(pass.downloadToken).pkpass"
    }

    /// The pass type identifier a template's passes get.
    /// - Parameter name: The template's folder name.
    /// - Returns: Its `passTypeIdentifier`, `nil` when its pass.json has none.
    /// - Throws: ``IssuerError`` when there is no such template.
    public func passTypeIdentifier(ofTemplate name: String) throws -> String? {
        try templates.entry(named: name).builder.template.pass.passTypeIdentifier
    }

    /// Creates a pass from a template and a data document; the serial number is generated when the data has none.
    /// The pass is built and signed before it is stored, so invalid data stores nothing.
    /// - Returns: The stored pass.
    /// - Throws: ``IssuerError`` naming the template, key or field.
    public func createPass(template name: String, data: [String: JSONValue]) async throws -> PassRecord {
        let entry = try templates.entry(named: name)
        guard let passTypeIdentifier = entry.builder.template.pass.passTypeIdentifier else {
            throw IssuerError.invalidTemplate(name, "pass.json has no passTypeIdentifier")
        }
        var document = data
        for reserved in ["authenticationToken", "webServiceURL", "passTypeIdentifier", "teamIdentifier", "voided"]
        where document[reserved] != nil {
            throw IssuerError.invalidData("data.\(reserved): set by the server, not by the data document")
        }
        let serialNumber: String
        switch document["serialNumber"] {
        case nil, .null?:
            serialNumber = UUID().uuidString.lowercased()
            document["serialNumber"] = .string(serialNumber)
        case .string(let given)?:
            guard PathSegments.isValidSerialNumber(given) else {
                throw IssuerError.invalidData(
                    "data.serialNumber: 1-\(PathSegments.maximumLength) letters, digits or .-_~:@+= (it goes in URLs)")
            }
            serialNumber = given
        case let other?:
            throw IssuerError.invalidData("data.serialNumber: must be a string, found \(other.kindName)")
        }
        let record = PassRecord(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
            authenticationToken: Secrets.token(length: 32), template: name,
            data: try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false), downloadToken: Secrets.token(length: 40),
            updateTag: 0, lastModified: now(), createdAt: now()
        )
        let bundle = try build(record, entry: entry)
        do {
            let stored = try await store.insertPass(
                NewPass(
                    passTypeIdentifier: record.passTypeIdentifier, serialNumber: record.serialNumber,
                    authenticationToken: record.authenticationToken, template: name, data: record.data,
                    downloadToken: record.downloadToken),
                now: now())
            remember(bundle, for: stored)
            return stored
        } catch let error as PassStoreError where error.isDuplicatePass {
            throw IssuerError.duplicate(passTypeIdentifier, serialNumber)
        }
    }

    /// Merges a partial data document into a pass's data as a new version: top-level keys replace (a `null` value
    /// removes the key), `fields` values merge by field key. Pushes are queued for every registered device.
    /// - Returns: The new version, or `nil` when there is no such pass.
    public func changePass(passTypeIdentifier: String, serialNumber: String, data patch: [String: JSONValue])
        async throws -> PassUpdate?
    {
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        else { return nil }
        for key in ["serialNumber", "authenticationToken", "webServiceURL", "passTypeIdentifier", "teamIdentifier", "voided"]
        where patch[key] != nil {
            throw IssuerError.invalidData("data.\(key): cannot be changed (\(key == "voided" ? "void with DELETE" : "fixed when the pass was created"))")
        }
        var document = try Self.document(current.data)
        for (key, value) in patch {
            if key == "fields", case .object(let fields) = value, case .object(var merged)? = document["fields"] {
                for (field, fieldValue) in fields { merged[field] = fieldValue.isNull ? nil : fieldValue }
                document["fields"] = .object(merged)
            } else {
                document[key] = value.isNull ? nil : value
            }
        }
        var next = current
        next.data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
        let bundle = try build(next, entry: try templates.entry(named: current.template))
        let update = try await apply(PassChange(data: next.data), to: current)
        if let update { remember(bundle, for: update.pass) }
        return update
    }

    /// Voids a pass (a new version with `voided: true`); devices are told.
    /// - Returns: The new version, or `nil` when there is no such pass.
    public func voidPass(passTypeIdentifier: String, serialNumber: String) async throws -> PassUpdate? {
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        else { return nil }
        return try await apply(PassChange(voided: true), to: current)
    }

    /// Stores a holder's rewards-enrollment details as a new version and signs the personalization token.
    /// - Returns: The detached CMS signature of the token's UTF-8 bytes.
    /// - Throws: ``IssuerError`` when the pass is not personalizable.
    public func personalize(_ pass: PassRecord, token: String, information: [String: JSONValue]) async throws -> Data {
        guard try templates.entry(named: pass.template).isPersonalizable else {
            throw IssuerError(status: .notFound, description: "this pass does not offer rewards enrollment")
        }
        let info = try JSONValue.object(information).jsonData(sortedKeys: true, prettyPrinted: false)
        let signature = try signer.signDetached(Data(token.utf8))
        _ = try await apply(PassChange(personalization: info), to: pass)
        return signature
    }

    private func apply(_ change: PassChange, to pass: PassRecord) async throws -> PassUpdate? {
        let update = try await store.updatePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, change: change, now: now())
        if let update, update.pushesQueued > 0 { onPushesQueued() }
        return update
    }

    private func remember(_ bundle: Data, for pass: PassRecord) {
        let key = BundleCache.Key(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
        cache.store(ByteBuffer(bytes: bundle), for: key, updateTag: pass.updateTag)
    }

    /// The signed `.pkpass` of a pass's current version, from the cache or signed now.
    public func bundle(for pass: PassRecord) throws -> Data {
        Data(try bundleBuffer(for: pass).readableBytesView)
    }

    /// The same bundle as a buffer that HTTP responses share without copying.
    func bundleBuffer(for pass: PassRecord) throws -> ByteBuffer {
        let key = BundleCache.Key(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
        if let cached = cache.bundle(for: key, updateTag: pass.updateTag) { return cached }
        let bundle = ByteBuffer(bytes: try build(pass, entry: try templates.entry(named: pass.template)))
        cache.store(bundle, for: key, updateTag: pass.updateTag)
        return bundle
    }

    /// Builds and signs one version. Personalized passes use the template without `personalization.json`, with
    /// the holder's details set in fields whose keys match (`fullName`, `emailAddress`, `postalCode`, ...).
    private func build(_ pass: PassRecord, entry: TemplateLibrary.Entry) throws -> Data {
        var overrides = try Self.document(pass.data)
        var fields: [String: JSONValue] = [:]
        if case .object(let given)? = overrides.removeValue(forKey: "fields") {
            fields = given
        } else if let other = overrides["fields"] {
            throw IssuerError.invalidData("data.fields: must be an object of field key to value, found \(other.kindName)")
        }
        overrides["serialNumber"] = .string(pass.serialNumber)
        overrides["authenticationToken"] = .string(pass.authenticationToken)
        overrides["webServiceURL"] = .string(webServiceURL)
        if pass.voided { overrides["voided"] = .bool(true) }
        var builder = entry.builder
        if let personalization = pass.personalization, let personalized = entry.personalizedBuilder {
            builder = personalized
            let keys = Set(Self.fieldKeys(of: builder.template.pass))
            for (key, value) in try Self.document(personalization) where keys.contains(key) && fields[key] == nil {
                fields[key] = value
            }
        }
        do {
            return try builder.build(data: PassData(overrides: overrides, fields: fields)).bundle
        } catch let error as PassModelError {
            throw IssuerError.invalidData("data: \(error.description)")
        } catch let error as PassBundleError {
            throw IssuerError.invalidData(error.description)
        }
    }

    static func fieldKeys(of pass: Pass) -> [String] {
        [pass.boardingPass, pass.coupon, pass.eventTicket, pass.generic, pass.storeCard]
            .compactMap { $0 }.flatMap(\.allFields).compactMap(\.key)
    }

    static func document(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONValue(jsonData: data) else {
            throw PassStoreError.invalidData("pass data is not a JSON object")
        }
        return members
    }
}
