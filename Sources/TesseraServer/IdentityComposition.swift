import APNs
import Foundation
import Logging
import PassBundle
import PassCrypto
import PassStore
import PassWebService
import ServiceLifecycle
import SigningIdentities
import Synchronization

/// Turns the signing identities of an identities file into what the issuers and the push sender take.
enum IdentityComposition {
    /// The pass templates folders and their signers: every pass identity's, else the single `--templates` and
    /// certificate.
    /// - Throws: ``ServerConfigurationError`` (`identities`) naming the entry whose templates clash or whose
    ///   credentials do not make a signer.
    static func passSources(_ configuration: ServerConfiguration) throws -> [PassIssuer.TemplateSource] {
        guard let identities = configuration.identities?.loaded else {
            return [PassIssuer.TemplateSource(directory: configuration.templatesDirectory, signer: configuration.signer)]
        }
        return try passSources(identities)
    }

    /// The pass templates folders and signers of `identities`, template names checked unique across them.
    static func passSources(_ identities: SigningIdentities) throws -> [PassIssuer.TemplateSource] {
        let passIdentities = identities.passIdentities
        try checkUniqueNames(passIdentities, file: identities.file.url.path, names: PassIssuer.templateNames(in:))
        return try passIdentities.map { identity in
            do {
                return PassIssuer.TemplateSource(
                    directory: identity.templatesDirectory, signer: try PassSigner(credentials: identity.credentials))
            } catch {
                throw ServerConfigurationError(setting: "identities", "\(identity.entry): \(error)")
            }
        }
    }

    /// The order templates folders and signers of `identities`' order identities (none: `nil`).
    static func orderSources(_ identities: SigningIdentities) throws -> [OrderIssuer.TemplateSource]? {
        let orderIdentities = identities.orderIdentities
        guard !orderIdentities.isEmpty else { return nil }
        try checkUniqueNames(orderIdentities, file: identities.file.url.path, names: OrderIssuer.templateNames(in:))
        return try orderIdentities.map { identity in
            do {
                return OrderIssuer.TemplateSource(
                    directory: identity.templatesDirectory, signer: try OrderSigner(credentials: identity.credentials))
            } catch {
                throw ServerConfigurationError(setting: "identities", "\(identity.entry): \(error)")
            }
        }
    }

    /// Template names must be unique across identities: a name says which certificate signs.
    private static func checkUniqueNames(
        _ identities: [SigningIdentity], file: String, names: (URL) -> [String]
    ) throws {
        var owner: [String: SigningIdentity] = [:]
        for identity in identities {
            for name in names(identity.templatesDirectory).sorted() {
                if let first = owner[name] {
                    let field = identity.isOrderIdentity ? "orderTemplates" : "templates"
                    throw ServerConfigurationError(
                        setting: "identities",
                        "\(file): \(identity.entry).\(field): template \(name) is also in \(first.entry) (\(first.identifier)); template names must be unique across identities")
                }
                owner[name] = identity
            }
        }
    }

    /// The push senders of an identities file by topic: each topic (pass or order type identifier) goes out with its
    /// team's token key when the file has one, else with the identity's own certificate. Nothing is connected yet;
    /// ``TopicPushSender`` closes the clients.
    /// - Parameters:
    ///   - identities: The loaded identities.
    ///   - endpoint: Where pushes go (host, port, trust roots, timeouts); its authentication is replaced per client.
    /// - Throws: ``ServerConfigurationError`` (`identities`) naming the entry no credentials cover, or a key that
    ///   does not load.
    ///   - previous: The senders in force, on a reload: a client whose credentials are unchanged (the same files'
    ///     bytes) is kept, with its connections and its provider token. Apple refuses a team's provider token renewed
    ///     more often than every 20 minutes (429 `TooManyProviderTokenUpdates`), which new clients at every reload
    ///     (each signing a token of its own, beside the old ones still in use) would bring about.
    static func pushSenders(
        _ identities: SigningIdentities, endpoint: APNsClient.Configuration, logger: Logger,
        reusing previous: [String: APNsPushSender] = [:]
    ) throws -> [String: APNsPushSender] {
        let file = identities.file.url.path
        var reusable: [String: APNsClient] = [:]
        for sender in previous.values { if let credential = sender.credential { reusable[credential] = sender.client } }
        func client(_ configuration: APNsClient.Configuration) throws -> (APNsClient, String?) {
            let credential = Self.credential(configuration.authentication)
            if let credential, let kept = reusable[credential] { return (kept, credential) }
            return (try APNsClient(configuration: configuration, logger: logger), credential)
        }
        var teamClients: [String: (client: APNsClient, credential: String?)] = [:]
        for (index, key) in identities.file.apns.enumerated() {
            var configuration = endpoint
            configuration.authentication = .token(p8Path: key.p8.path, keyID: key.keyIdentifier, teamID: key.teamIdentifier)
            do {
                teamClients[key.teamIdentifier] = try client(configuration)
            } catch {
                throw ServerConfigurationError(setting: "identities", "\(file): apns[\(index)].p8: \(error)")
            }
        }
        var senders: [String: APNsPushSender] = [:]
        for identity in identities.identities {
            if let team = identity.teamIdentifier, let teamClient = teamClients[team] {
                senders[identity.identifier] = APNsPushSender(client: teamClient.client, credential: teamClient.credential)
                continue
            }
            guard let cert = identity.source.cert, let key = identity.source.key else {
                let why = identity.source.keyURI != nil
                    ? "its key is in a PKCS#11 module, which cannot authenticate to APNs" : "it is given as a .p12"
                throw ServerConfigurationError(
                    setting: "identities",
                    "\(file): \(identity.entry): no APNs credentials cover \(identity.identifier) (\(why)): add an apns key for team \(identity.teamIdentifier ?? "?"), or give the identity as cert and key (PEM) files")
            }
            var configuration = endpoint
            var password: String?
            if let passwordFile = identity.source.keyPasswordFile {
                guard let text = try? String(contentsOf: passwordFile, encoding: .utf8) else {
                    throw ServerConfigurationError(
                        setting: "identities", "\(file): \(identity.entry).keyPasswordFile: \(passwordFile.path) is unreadable")
                }
                password = text.trimmingCharacters(in: .newlines)
            }
            configuration.authentication = .certificate(certificatePEMPath: cert.path, keyPEMPath: key.path, keyPassword: password)
            do {
                let (made, credential) = try client(configuration)
                senders[identity.identifier] = APNsPushSender(client: made, credential: credential)
            } catch {
                throw ServerConfigurationError(setting: "identities", "\(file): \(identity.entry).cert: APNs: \(error)")
            }
        }
        return senders
    }

    /// What makes two clients' credentials the same: the kind, the key's identifiers and password, and the SHA-256
    /// of each file's bytes (a renewed certificate or key under the same name is another credential); `nil` when a
    /// file cannot be read (the new client then says why).
    static func credential(_ authentication: APNsClient.Configuration.Authentication) -> String? {
        func digest(_ path: String) -> String? {
            (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Digest.sha256(Array($0)).lowercaseHex }
        }
        switch authentication {
        case .token(let p8Path, let keyID, let teamID):
            return digest(p8Path).map { "token \(teamID) \(keyID) \($0)" }
        case .certificate(let certificatePath, let keyPath, let password):
            guard let certificate = digest(certificatePath), let key = digest(keyPath) else { return nil }
            let secret = password.map { Digest.sha256(Array($0.utf8)).lowercaseHex } ?? "-"
            return "certificate \(certificate) \(key) \(secret)"
        }
    }
}

/// Sends each push with the client whose credentials cover its topic. The clients are replaced when the identities
/// are reloaded (a renewed certificate, a new identity); the replaced ones are closed once the pushes in flight on
/// them had their time. A service: on shutdown it closes every client.
final class TopicPushSender: PushSender, Service, Sendable {
    private let senders: Mutex<[String: APNsPushSender]>
    private let retiring = Mutex<[APNsClient]>([])
    /// How long replaced clients stay open for the pushes already sent through them.
    private let retirement: Duration

    /// - Parameter retirement: At least a push's longest life on a client: a connection's set-up (10 s) and three
    ///   times the time limit while held back by the peer's stream limit (3 × 30 s), and some more.
    init(senders: [String: APNsPushSender], retirement: Duration = .seconds(130)) {
        self.senders = Mutex(senders)
        self.retirement = retirement
    }

    /// A topic no identity has APNs credentials for now (its identity taken out, or reloading): kept and tried again
    /// later, so the updates reach the devices once an identities reload gives it credentials again.
    private static func noCredentials(_ passTypeIdentifier: String) -> PushOutcome {
        .retryable(reason: "no APNs credentials for topic \(passTypeIdentifier)", retryAfter: APNsResult.credentialRefusalDelay)
    }

    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        guard let sender = senders.withLock({ $0[passTypeIdentifier] }) else {
            return Self.noCredentials(passTypeIdentifier)
        }
        return await sender.sendPassUpdate(pushToken: pushToken, passTypeIdentifier: passTypeIdentifier)
    }

    func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        guard let sender = senders.withLock({ $0[passTypeIdentifier] }) else {
            return pushTokens.map { _ in Self.noCredentials(passTypeIdentifier) }
        }
        return await sender.sendPassUpdates(pushTokens: pushTokens, passTypeIdentifier: passTypeIdentifier)
    }

    /// The senders in force.
    var current: [String: APNsPushSender] { senders.withLock { $0 } }

    /// Puts new senders in force; the clients they replace (and do not keep) close after ``retirement``.
    func replace(with replacement: [String: APNsPushSender]) {
        let kept = Set(Self.clients(of: replacement).map(ObjectIdentifier.init))
        let old = senders.withLock { senders in
            defer { senders = replacement }
            return Self.clients(of: senders).filter { !kept.contains(ObjectIdentifier($0)) }
        }
        retiring.withLock { $0 += old }
        let retirement = self.retirement
        Task {
            try? await Task.sleep(for: retirement)
            for client in old { try? await client.shutdown() }
            // Shut down: not kept for the process's life (every reload would add its clients).
            retiring.withLock { retiring in retiring.removeAll { client in old.contains { $0 === client } } }
        }
    }

    func run() async throws {
        try? await gracefulShutdown()
        let all = senders.withLock { Self.clients(of: $0) } + retiring.withLock { $0 }
        for client in all { try? await client.shutdown() }
    }

    private static func clients(of senders: [String: APNsPushSender]) -> [APNsClient] {
        var seen = Set<ObjectIdentifier>()
        return senders.values.map(\.client).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }
}
