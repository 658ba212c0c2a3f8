import Foundation
import Hummingbird
import PassStore
import PassWebService

/// `/api/v1/webhooks`: the configured endpoint and its recent posts, and a retry now (the operator's: admin only).
struct WebhookRoutes: Sendable {
    let webhooks: WebhookStatusService
    let access: IssuerAccess

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let routes = group.group("webhooks").add(middleware: access.middleware(typeParameter: nil, adminOnly: true))
        routes.get(use: status)
        routes.post("retry", use: retry)
    }

    struct Attempt: Encodable {
        var eventId: String
        var eventType: String
        var attemptedAt: String
        var outcome: String
        var status: Int?
        var detail: String?
        var nextAttemptAt: String?

        init(_ attempt: WebhookAttempt) {
            eventId = String(attempt.eventID)
            eventType = attempt.eventType
            attemptedAt = RFC3339.format(attempt.attemptedAt)
            outcome = attempt.outcome.rawValue
            status = attempt.status
            detail = attempt.detail
            nextAttemptAt = attempt.nextAttemptAt.map(RFC3339.format)
        }
    }

    struct Status: Encodable {
        var endpoint: String?
        var deliveries: [Attempt]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(endpoint, forKey: .endpoint)
            try container.encode(deliveries, forKey: .deliveries)
        }

        enum CodingKeys: String, CodingKey { case endpoint, deliveries }
    }

    /// `GET /api/v1/webhooks`: the endpoint (`null` without one) and its newest 50 posts, newest first.
    @Sendable func status(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try JSONBody.response(Status(endpoint: webhooks.endpoint, deliveries: try await webhooks.recentAttempts().map(Attempt.init)),
                              noStore: true)
    }

    private struct Requested: Encodable {
        var requestedAt: String
    }

    /// `POST /api/v1/webhooks/retry`: the event waiting out its backoff is posted again within a second.
    @Sendable func retry(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try JSONBody.response(Requested(requestedAt: RFC3339.format(try await webhooks.retryNow())), status: .accepted)
    }
}
