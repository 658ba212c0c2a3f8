import Foundation
import Logging
import PassStore
import PassWebService

extension TesseraServer {
    /// Google Wallet's sync, when configured: it keeps Google objects current and answers save links.
    /// - Throws: ``ServerConfigurationError`` for `google` when the store keeps no event log.
    static func googleSync(_ configuration: ServerConfiguration, issuer: PassIssuer, store: any PassStore, logger: Logger,
                           now: @escaping @Sendable () -> Date) throws -> GoogleWalletSync? {
        guard var google = configuration.google else { return nil }
        guard let outbox = store as? any WebhookOutboxStore & EventStore else {
            throw ServerConfigurationError(setting: "google", "the store keeps no event log to follow")
        }
        // One process per SQLite file: a lease left by a process that is gone is this process's to take at once.
        if case .sqlite = configuration.database { google.exclusiveStore = true }
        return GoogleWalletSync(configuration: google, issuer: issuer, store: outbox, logger: logger, now: now)
    }
}
