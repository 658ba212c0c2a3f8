import APNs
import Foundation
import Logging
import Metrics
import NIOPosix
import PassWebService
import ServiceLifecycle
import SigningIdentities
import UnixSignals

/// Keeps the signing identities current: reads the identities file again on `SIGHUP` and when it or a credential
/// file it names changes, and warns daily about certificates close to expiry.
///
/// A reload that works replaces the issuers' signers (new versions and fetches are signed with the new certificate;
/// requests in flight finish with the old one). One that fails (a wrong password, a key that does not match, a
/// certificate that expired, a template name now in two folders) keeps the identities in force, logs why naming the
/// entry, and counts `tessera_identity_reload_failures_total`.
final class IdentityMonitor: Service, Sendable {
    private let settings: ServerConfiguration.Identities
    private let issuer: PassIssuer
    private let orderIssuer: OrderIssuer?
    private let health: IdentityHealth
    /// The push sender whose clients a reload replaces, and where pushes go.
    private let pushes: (sender: TopicPushSender, endpoint: APNsClient.Configuration)?
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let signals: UnixSignalsSequence?

    init(
        settings: ServerConfiguration.Identities, issuer: PassIssuer, orderIssuer: OrderIssuer?, health: IdentityHealth,
        pushes: (sender: TopicPushSender, endpoint: APNsClient.Configuration)?, logger: Logger,
        now: @escaping @Sendable () -> Date, signals: UnixSignalsSequence? = nil
    ) {
        self.signals = signals
        self.pushes = pushes
        self.settings = settings
        self.issuer = issuer
        self.orderIssuer = orderIssuer
        self.health = health
        self.logger = logger
        self.now = now
    }

    func run() async throws {
        let signals = if let signals { signals } else { await UnixSignalsSequence(trapping: .sighup) }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in signals {
                        self.logger.info("SIGHUP: reading the identities file again")
                        await self.reload()
                    }
                }
                if let interval = self.settings.pollInterval {
                    group.addTask { await self.poll(every: interval) }
                }
                group.addTask {
                    // The start-up warning was logged before listening; then once a day.
                    while !Task.isCancelled {
                        do { try await Task.sleep(for: .seconds(86_400)) } catch { return }
                        self.health.warn(logger: self.logger)
                    }
                }
                await group.waitForAll()
            }
        }
    }

    private func poll(every interval: Duration) async {
        // A renewal replaces several files: a change counts once they have settled.
        await SettledChanges.watch(every: interval, fingerprint: fingerprint) {
            logger.info("identities file or a credential file changed: reading the identities again")
            await reload()
        }
    }

    /// The size and modification time of the identities file and of every file its entries name: those in force, and
    /// those the file names now (after a reload that failed for a file not yet in place, copying it in is noticed).
    private func fingerprint() -> [String] {
        var urls = [settings.file]
        var files = health.current.map { [$0.file] } ?? []
        if let named = try? IdentitiesFile(contentsOf: settings.file) { files.append(named) }
        for file in files {
            for entry in file.identities {
                urls += [entry.cert, entry.key, entry.keyPasswordFile, entry.p12, entry.p12PasswordFile, entry.wwdr]
                    .compactMap { $0 }
            }
            urls += file.apns.map(\.p8)
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0.path).inserted }.map { FileFingerprint.entry(atPath: $0.path) }
    }

    /// Loads the identities again and, when every one loads and can sign, puts them in force.
    func reload() async {
        let at = now()
        do {
            // Files read, keys decrypted or logged in to in a hardware module, test signatures and TLS contexts made:
            // blocking work, done on the thread pool rather than on an event loop whose connections would wait.
            let (settings, previous, pushes, logger) = (self.settings, health.current, self.pushes, self.logger)
            let (replacement, passSources, orderSources, senders) = try await NIOThreadPool.singleton.runIfActive {
                let replacement = try SigningIdentities.load(contentsOf: settings.file, pkcs11: settings.pkcs11)
                for identity in replacement.identities {
                    // A renewal that brings an expired certificate keeps the one in force.
                    if let reason = identity.unusableReason(at: at),
                       previous?.identities.first(where: { $0.identifier == identity.identifier })?.unusableReason(at: at) == nil
                    {
                        throw ServerConfigurationError(setting: "identities", "\(identity.entry) (\(identity.identifier)): \(reason)")
                    }
                }
                // As at start-up: passes need a Pass Type ID identity (a file of order identities only would leave
                // every template unknown and every stored pass unsigned).
                guard !replacement.passIdentities.isEmpty else {
                    throw ServerConfigurationError(setting: "identities", "\(settings.file.path): names no Pass Type ID identity")
                }
                let passSources = try IdentityComposition.passSources(replacement)
                let orderSources = try IdentityComposition.orderSources(replacement)
                // Made before anything changes: a key or certificate APNs cannot use keeps everything as it was.
                let senders = try pushes.map {
                    try IdentityComposition.pushSenders(
                        replacement, endpoint: $0.endpoint, logger: logger, reusing: $0.sender.current)
                }
                return (replacement, passSources, orderSources, senders)
            }
            await issuer.replaceSources(passSources)
            if let senders { pushes?.sender.replace(with: senders) }
            // No order identity left (a key taken out of service): orders are refused until one comes back, never
            // signed with the certificate taken out.
            orderIssuer?.replaceSources(orderSources ?? [])
            health.update(replacement)
            for identity in replacement.identities {
                logger.notice("signing identity loaded", metadata: [
                    "identifier": "\(identity.identifier)", "entry": "\(identity.entry)",
                    "certificateSerialNumber": "\(identity.certificateSerialNumber)",
                    "expiresAt": "\(identity.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "?")",
                ])
            }
            health.warn(logger: logger)
            if self.pushes == nil, !replacement.file.apns.isEmpty {
                // Pushes are set up at start-up only: keys added to a server started without them are not used.
                logger.warning("identities: the file now has APNs keys, but this server started without pushes: restart it to send them")
            }
        } catch {
            health.reloadFailed()
            Counter(label: "tessera_identity_reload_failures_total").increment()
            logger.error("identities not reloaded: the identities in force stay", metadata: ["reason": "\(error)"])
        }
    }
}
