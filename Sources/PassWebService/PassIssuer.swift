public import Foundation
import Logging
public import PassBundle
import HTTPTypes
import NIOCore
import NIOPosix
import PassCrypto
public import PassModel
public import PassStore
import Synchronization

/// Issues and changes passes for the web service: applies data to templates, signs, stores, and keeps the signed
/// bundle of each current version so device fetches do not sign again.
public final class PassIssuer: WalletItemIssuer {
    /// The media type of a signed pass.
    public static let contentType = "application/vnd.apple.pkpass"
    /// The file extension of a signed pass.
    public static let fileExtension = "pkpass"

    /// What the issuer needs.
    public struct Configuration: Sendable {
        /// Folder holding one template folder per name (`event-ticket/pass.json`, ...).
        public var templatesDirectory: URL
        /// The server's public base URL: passes get it as `webServiceURL`, download links start with it.
        public var publicURL: URL
        /// Most bytes of signed bundles kept in memory.
        public var bundleCacheBytes: Int
        /// The largest `.pkpasses` download made, in bytes: Apple's limit (150 MB) by default; a lower value bounds
        /// the memory one download takes. Values above Apple's limit are treated as Apple's limit.
        public var passesBundleMaximumSize: Int

        /// Creates a configuration.
        public init(
            templatesDirectory: URL, publicURL: URL, bundleCacheBytes: Int = 256 << 20,
            passesBundleMaximumSize: Int = PassesBundle.maximumSize
        ) {
            self.templatesDirectory = templatesDirectory
            self.publicURL = publicURL
            self.bundleCacheBytes = bundleCacheBytes
            self.passesBundleMaximumSize = passesBundleMaximumSize
        }
    }

    /// The store the passes live in.
    public let store: any PassStore
    /// The configuration.
    public let configuration: Configuration
    let templates: TemplateLibrary
    /// Signed bundles of current versions.
    public let cache: BundleCache
    /// Fetches and pushes counted for analytics, until ``AnalyticsWorker`` adds them to the store.
    public let usage: UsageTally
    let now: @Sendable () -> Date
    /// Called after a change queued pushes, so the dispatcher sends them at once.
    let onPushesQueued: @Sendable () -> Void
    /// Builders with a campaign message in their template (see ``builder(_:version:personalized:message:)``).
    let messageBuilders = MessageBuilderCache([:])

    /// Creates an issuer.
    /// - Parameters:
    ///   - store: Where passes, registrations and pushes live.
    ///   - signer: Signs bundles with the Pass Type ID certificate.
    ///   - configuration: Templates folder and public URL.
    ///   - now: The clock.
    ///   - onPushesQueued: Told when a change queued pushes.
    ///   - usage: Where fetches (and, from the push dispatcher, pushes) are counted for analytics.
    public convenience init(
        store: any PassStore, signer: PassSigner, configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init, onPushesQueued: @escaping @Sendable () -> Void = {},
        usage: UsageTally = UsageTally()
    ) {
        self.init(
            store: store, sources: [TemplateSource(directory: configuration.templatesDirectory, signer: signer)],
            configuration: configuration, now: now, onPushesQueued: onPushesQueued, usage: usage)
    }

    /// Creates an issuer over several signing identities, each with its templates folder (template names are unique
    /// across the folders; the first folder holding a name is the one used).
    /// - Parameters:
    ///   - store: Where passes, registrations and pushes live.
    ///   - sources: The templates folders and their signers.
    ///   - configuration: Public URL and limits (its `templatesDirectory` is not read).
    ///   - now: The clock.
    ///   - onPushesQueued: Told when a change queued pushes.
    ///   - usage: Where fetches (and, from the push dispatcher, pushes) are counted for analytics.
    public init(
        store: any PassStore, sources: [TemplateSource], configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init, onPushesQueued: @escaping @Sendable () -> Void = {},
        usage: UsageTally = UsageTally()
    ) {
        self.store = store
        self.usage = usage
        self.configuration = configuration
        self.templates = TemplateLibrary(sources: sources)
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

    /// The holder's landing page of a pass: the wallets' buttons for the device that opens it.
    public func holderPageURL(for pass: PassRecord) -> String {
        "\(webServiceURL)/p/\(pass.downloadToken)"
    }

    /// The pass type identifier a template's passes get: its signing identity's certificate's (the template's own
    /// only when the certificate names none), which is what they are stored under.
    /// - Parameter name: The template's folder name.
    /// - Returns: The Pass Type ID, `nil` when neither the certificate nor pass.json names one.
    /// - Throws: ``IssuerError`` when there is no such template.
    public func passTypeIdentifier(ofTemplate name: String) throws -> String? {
        try (templates.versions.loadedEntry(named: name) ?? templates.read(named: name).entry).builder.passTypeIdentifier
    }

    /// Creates a pass from a template and a data document; the serial number is generated when the data has none.
    /// The pass is built and signed before it is stored, so invalid data stores nothing.
    /// - Returns: The stored pass.
    /// - Throws: ``IssuerError`` naming the template, key or field.
    public func createPass(template name: String, data: [String: JSONValue]) async throws -> PassRecord {
        try await createPassReportingWarnings(template: name, data: data).pass
    }

    /// Creates a pass like ``createPass(template:data:)`` and also returns the validator's warnings (unknown keys,
    /// ...), as `tessera pass create` prints them.
    /// - Parameters:
    ///   - name: The template's folder name.
    ///   - data: The data document.
    /// - Returns: The stored pass and the warnings as `path: message`.
    /// - Throws: ``IssuerError`` naming the template, key or field.
    public func createPassReportingWarnings(template name: String, data: [String: JSONValue]) async throws
        -> (pass: PassRecord, warnings: [String])
    {
        try Self.checkData(data, path: "data")
        let entry = try await templateEntry(named: name)
        guard let passTypeIdentifier = entry.builder.passTypeIdentifier else {
            throw IssuerError.invalidTemplate(name, "pass.json has no passTypeIdentifier")
        }
        if let refusal = refusal(passTypeIdentifier: passTypeIdentifier) { throw refusal }
        var document = data
        for reserved in ["authenticationToken", "webServiceURL", "voided"] where document[reserved] != nil {
            throw IssuerError.invalidData("data.\(reserved): set by the server, not by the data document")
        }
        // The signing certificate is the issuer's identity: the data may only repeat its Pass Type ID and team.
        do {
            _ = try entry.builder.identified(PassData(overrides: document.filter {
                ["passTypeIdentifier", "teamIdentifier"].contains($0.key)
            }))
        } catch let error as PassBundleError {
            throw IssuerError.invalidData(error.reason)
        }
        let serialNumber: String
        switch document["serialNumber"] {
        case nil, .null?:
            serialNumber = UUID().uuidString.lowercased()
            document["serialNumber"] = .string(serialNumber)
        case .string(let given)?:
            guard PathSegments.isValidSerialNumber(given) else {
                throw IssuerError.invalidData(
                    "data.serialNumber: 1-\(PathSegments.maximumLength) letters, digits or .-_~:@+=, not \".\" or \"..\" (it goes in URLs)")
            }
            serialNumber = given
        case let other?:
            throw IssuerError.invalidData("data.serialNumber: must be a string, found \(other.kindName)")
        }
        let record = PassRecord(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
            authenticationToken: SecretToken.random(length: 32), template: name,
            data: try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false), downloadToken: SecretToken.random(length: 40),
            updateTag: 0, lastModified: now(), createdAt: now()
        )
        let built = try await build(record, entry: entry)
        do {
            let stored = try await store.insertPass(
                NewPass(
                    passTypeIdentifier: record.passTypeIdentifier, serialNumber: record.serialNumber,
                    authenticationToken: record.authenticationToken, template: name, data: record.data,
                    downloadToken: record.downloadToken, templateVersion: entry.version),
                now: now())
            remember(built.bundle, for: stored)
            return (stored, built.warnings)
        } catch let error as PassStoreError where error.isDuplicatePass {
            throw IssuerError.duplicate(passTypeIdentifier, serialNumber)
        }
    }

    /// Merges a partial data document into a pass's data as a new version: top-level keys replace (a `null` value
    /// removes the key), `fields` values merge by field key and `images` by file name (`null` removes one). Pushes are queued for every registered device.
    /// - Returns: The new version, or `nil` when there is no such pass.
    public func changePass(passTypeIdentifier: String, serialNumber: String, data patch: [String: JSONValue])
        async throws -> PassUpdate?
    {
        try await changePassReportingWarnings(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, data: patch)?
            .update
    }

    /// Changes a pass like ``changePass(passTypeIdentifier:serialNumber:data:)`` and also returns the validator's
    /// warnings for the new version (unknown keys, ...).
    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    ///   - patch: The partial data document.
    ///   - ifUpdateTags: Only if the pass is at one of these versions (`If-Match`), checked against the version the
    ///     change is merged into: a client that read, changed and writes back a value (a points balance) is refused
    ///     412 rather than writing over a change made since. `nil`: merged into whichever version is current.
    /// - Returns: The new version and the warnings as `path: message`, or `nil` when there is no such pass.
    /// - Throws: ``IssuerError`` naming the key or field; 412 `If-Match` when the pass is at another version.
    public func changePassReportingWarnings(
        passTypeIdentifier: String, serialNumber: String, data patch: [String: JSONValue], ifUpdateTags: Set<Int64>? = nil
    ) async throws -> (update: PassUpdate, warnings: [String])? {
        try Self.checkData(patch, path: "data")
        for key in ["serialNumber", "authenticationToken", "webServiceURL", "passTypeIdentifier", "teamIdentifier", "voided"]
        where patch[key] != nil {
            throw IssuerError.invalidData("data.\(key): cannot be changed (\(key == "voided" ? "void with DELETE" : "fixed when the pass was created"))")
        }
        // Merged into the version read and written only while that is still the current one; when another change came
        // first, merged again into that one, so two changes at once both land.
        while true {
            guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
            else { return nil }
            if let ifUpdateTags, !ifUpdateTags.contains(current.updateTag) {
                throw IssuerError(status: .preconditionFailed,
                                  description: "If-Match: the pass is at version \(current.updateTag) now; read it again",
                                  field: "If-Match")
            }
            let document = Self.merging(patch, into: try Self.document(current.data))
            var next = current
            next.data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
            // A change that changes nothing (the same request sent again) is no new version: no push to the holder's
            // devices, no pass.updated event.
            if next.data == current.data { return (PassUpdate(pass: current, pushesQueued: 0), []) }
            try Self.checkDataSize(next.data, was: current.data)
            let built = try await build(next, entry: try await templateEntry(for: current))
            guard let update = try await apply(PassChange(data: next.data, onlyIfUpdateTag: current.updateTag), to: current)
            else { continue }
            remember(built.bundle, for: update.pass)
            return (update, built.warnings)
        }
    }

    /// Voids a pass (a new version with `voided: true`); devices are told. A pass voided already stays as it is (the
    /// same request sent again, a client's retry): no new version, no push, no event.
    /// - Returns: The new version (or the pass as it is), or `nil` when there is no such pass.
    public func voidPass(passTypeIdentifier: String, serialNumber: String) async throws -> PassUpdate? {
        while true {
            guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
            else { return nil }
            if current.voided { return PassUpdate(pass: current, pushesQueued: 0) }
            // Conditional on the version read: of two voids at once, the second finds the pass voided.
            if let update = try await apply(PassChange(voided: true, onlyIfUpdateTag: current.updateTag), to: current) {
                return update
            }
        }
    }

    /// Stores a holder's rewards-enrollment details as a new version and signs the personalization token, once:
    /// only a pass whose template offers enrollment and that is not personalized yet accepts it.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - token: Wallet's personalization token.
    ///   - information: The holder's details, already checked (see `PersonalizationRequest`).
    /// - Returns: The detached CMS signature of the token's UTF-8 bytes.
    /// - Throws: ``IssuerError/notAwaitingPersonalization`` when the pass does not offer enrollment, is already
    ///   personalized, or is voided (nothing changes: a voided pass takes no new version from its holder).
    ///
    /// The same details sent again (the answer to the first enrollment was lost on its way to the device) are answered
    /// with the new token signed, and change nothing: the device can then fetch the personalized pass. Other details
    /// for a personalized pass are refused.
    public func personalize(_ pass: PassRecord, token: String, information: [String: JSONValue]) async throws -> Data {
        let info = try JSONValue.object(information).jsonData(sortedKeys: true, prettyPrinted: false)
        // Compared as JSON: a store may give the document back spaced differently than it was written.
        let same = { (stored: Data?) in stored.flatMap { try? JSONValue(jsonData: $0) } == .object(information) }
        guard !pass.voided, pass.personalization == nil || same(pass.personalization),
              try await templateEntry(for: pass).isPersonalizable
        else {
            throw IssuerError.notAwaitingPersonalization
        }
        let signer = try await templateEntry(for: pass).builder.signer
        let signature = try await NIOThreadPool.singleton.runIfActive { try signer.signDetached(Data(token.utf8)) }
        if same(pass.personalization) { return signature }
        // Conditional in the store: of two concurrent enrollments, one wins and the other changes nothing (and is
        // answered as a repeat when it carried the same details).
        guard try await apply(PassChange(personalization: info, onlyIfNotPersonalized: true), to: pass) != nil else {
            let now = try await store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
            guard same(now?.personalization) else { throw IssuerError.notAwaitingPersonalization }
            return signature
        }
        return signature
    }

    private func apply(_ change: PassChange, to pass: PassRecord) async throws -> PassUpdate? {
        if let refusal = refusal(passTypeIdentifier: pass.passTypeIdentifier) { throw refusal }
        let update = try await store.updatePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, change: change, now: now())
        if let update, update.pushesQueued > 0 { onPushesQueued() }
        return update
    }

    private func remember(_ bundle: Data, for pass: PassRecord) {
        remember(ByteBuffer(bytes: bundle), for: pass)
    }

    /// The signed `.pkpass` of a pass's current version, from the cache or signed now.
    public func bundle(for pass: PassRecord) async throws -> Data {
        Data(try await bundleBuffer(for: pass).readableBytesView)
    }

    /// Builds and signs a pass's current version with the template version it is pinned to.
    public func signedBundle(for pass: PassRecord) async throws -> Data {
        try await build(pass, entry: try await templateEntry(for: pass)).bundle
    }

    /// Builds and signs one version on NIO's blocking thread pool (signing is CPU work that must not hold an event
    /// loop).
    private func build(_ pass: PassRecord, entry: TemplateLibrary.Entry) async throws
        -> (bundle: Data, warnings: [String])
    {
        try await NIOThreadPool.singleton.runIfActive { try self.buildNow(pass, entry: entry) }
    }

    /// A refused pass's errors and, after them, its warnings: every problem at once, as `tessera pass create` prints
    /// them, so one answer says all that needs fixing; the answer's `field` is the first error's path in the data
    /// (`data.fields.nope`).
    static func refusal(_ error: PassBundleError) -> IssuerError {
        // The warnings too, so every problem of the data is told at once; not the one about the server's own
        // http --public-url, which is no fault of the request's.
        let warnings = error.issues.filter { $0.severity == .warning && $0.path != "webServiceURL" }
        let message = warnings.isEmpty
            ? error.description : error.description + "\n" + warnings.map { "  \($0)" }.joined(separator: "\n")
        let first = error.issues.first { $0.severity == .error }
        return IssuerError(status: .unprocessableContent, description: message,
                           field: first.map { $0.path.isEmpty ? "data" : "data.\($0.path)" })
    }
}
