public import Foundation
import HTTPTypes
public import PassStore

/// The webhook endpoint as the operator sees it (`GET /api/v1/webhooks`): where events are posted, the recent posts
/// and what came of each, and a retry now for an event waiting out its backoff.
public struct WebhookStatusService: Sendable {
    /// The endpoint events are posted to (`--webhook-url`); `nil` when there is none.
    public let endpoint: String?
    private let store: any WebhookAttemptStore
    private let now: @Sendable () -> Date

    /// Creates the service.
    public init(endpoint: String?, store: any WebhookAttemptStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.endpoint = endpoint
        self.store = store
        self.now = now
    }

    /// The newest posts, newest first (none without an endpoint).
    public func recentAttempts(limit: Int = 50) async throws -> [WebhookAttempt] {
        guard let endpoint else { return [] }
        return try await store.webhookAttempts(endpoint: endpoint, limit: limit)
    }

    /// Asks whichever process is delivering to retry the waiting event now.
    /// - Returns: When it was asked.
    /// - Throws: ``IssuerError`` 404 when no endpoint is configured.
    public func retryNow() async throws -> Date {
        guard let endpoint else {
            throw IssuerError(status: .notFound, description: "no webhook endpoint is configured (tessera serve --webhook-url)")
        }
        let at = now()
        try await store.requestWebhookRetry(endpoint: endpoint, at: at)
        return at
    }
}
