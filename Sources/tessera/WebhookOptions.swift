import ArgumentParser
import Foundation
import Webhooks

/// Event webhooks of `tessera serve`: without `--webhook-url` no events are posted (they stay readable at
/// `GET /api/v1/events`).
struct WebhookOptions: ParsableArguments {
    @Option(help: "Post every event to this https URL, signed (TESSERA_WEBHOOK_URL). Absent: no webhooks.")
    var webhookURL: String?

    @Option(help: "File holding the webhook signing secret, 16+ bytes (TESSERA_WEBHOOK_SECRET_FILE).")
    var webhookSecretFile: String?

    @Flag(help: "Allow a webhook URL on a loopback, private or link-local address, and plain http: development and tests only (TESSERA_WEBHOOK_ALLOW_PRIVATE=1).")
    var webhookAllowPrivate = false

    /// The dispatcher's settings, or `nil` when webhooks are off.
    /// - Throws: ``CommandFailure`` (exit 2) naming the flag at fault.
    func configuration() throws -> WebhookDispatcher.Configuration? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = webhookURL ?? environment["TESSERA_WEBHOOK_URL"] else {
            if webhookSecretFile ?? environment["TESSERA_WEBHOOK_SECRET_FILE"] != nil {
                throw CommandFailure(message: "--webhook-secret-file: given without --webhook-url", exitCode: 2)
            }
            return nil
        }
        let allowPrivate = webhookAllowPrivate || environment["TESSERA_WEBHOOK_ALLOW_PRIVATE"] == "1"
        let destination: WebhookDestination
        do {
            destination = try WebhookDestination(url, allowPrivate: allowPrivate)
            do {
                try destination.checkAddresses()
            } catch let refusal as WebhookDestination.Refusal where refusal.temporary {
                // The resolver did not answer: not a wrong URL. The server starts; delivery checks again each minute.
                Terminal.warning("--webhook-url: \(refusal); events are posted once the name resolves to a public address")
            }
        } catch let refusal as WebhookDestination.Refusal {
            let hint = allowPrivate || !refusal.allowanceWouldAccept ? "" : " (--webhook-allow-private allows it, for development)"
            throw CommandFailure(message: "--webhook-url: \(refusal)\(hint)", exitCode: 2)
        }
        // The secret's file, else the secret itself in TESSERA_WEBHOOK_SECRET (a container's injected secret).
        let file = webhookSecretFile ?? environment["TESSERA_WEBHOOK_SECRET_FILE"]
        guard let secret = try Secret.read(file: file, environment: "TESSERA_WEBHOOK_SECRET", flag: "--webhook-secret-file") else {
            throw CommandFailure(
                message: "--webhook-secret-file: the signing secret is needed with --webhook-url (or TESSERA_WEBHOOK_SECRET)",
                exitCode: 2)
        }
        guard secret.utf8.count >= 16 else {
            let source = file.map { "--webhook-secret-file: \($0)" } ?? "TESSERA_WEBHOOK_SECRET"
            throw CommandFailure(message: "\(source) must hold at least 16 bytes", exitCode: 2)
        }
        return WebhookDispatcher.Configuration(destination: destination, secret: Data(secret.utf8))
    }
}
