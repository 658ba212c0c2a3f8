public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: WebhookAttemptStore, ItemEventStore {
    public func recordWebhookAttempt(_ attempt: WebhookAttempt, keep: Int) async throws {
        _ = try await rows("""
            INSERT INTO webhook_attempts (endpoint, event_id, event_type, attempted_at, outcome, status, detail, next_attempt_at)
            VALUES (\(attempt.endpoint), \(attempt.eventID), \(attempt.eventType), \(attempt.attemptedAt),
                    \(attempt.outcome.rawValue), \(attempt.status), \(attempt.detail), \(attempt.nextAttemptAt))
            """)
        // The endpoint's newest `keep` stay (a log for people to read, not a record to keep).
        _ = try await rows("""
            DELETE FROM webhook_attempts WHERE endpoint = \(attempt.endpoint) AND id <= (
                SELECT id FROM webhook_attempts WHERE endpoint = \(attempt.endpoint)
                ORDER BY id DESC OFFSET \(max(1, keep)) LIMIT 1)
            """)
    }

    public func webhookAttempts(endpoint: String, limit: Int) async throws -> [WebhookAttempt] {
        try await rows("""
            SELECT endpoint, event_id, event_type, attempted_at, outcome, status, detail, next_attempt_at
            FROM webhook_attempts WHERE endpoint = \(endpoint) ORDER BY id DESC LIMIT \(max(0, limit))
            """).map { row in
            let (endpoint, eventID, eventType, attemptedAt, outcome, status, detail, next) = try row.decode(
                (String, Int64, String, Date, String, Int?, String?, Date?).self)
            return WebhookAttempt(
                endpoint: endpoint, eventID: eventID, eventType: eventType, attemptedAt: attemptedAt,
                outcome: WebhookAttempt.Outcome(rawValue: outcome) ?? .refused, status: status, detail: detail,
                nextAttemptAt: next)
        }
    }

    public func requestWebhookRetry(endpoint: String, at: Date) async throws {
        _ = try await rows("""
            INSERT INTO webhook_retry_requests (endpoint, requested_at) VALUES (\(endpoint), \(at))
            ON CONFLICT (endpoint) DO UPDATE SET requested_at = EXCLUDED.requested_at
            """)
    }

    public func webhookRetryRequested(endpoint: String) async throws -> Date? {
        try await rows("SELECT requested_at FROM webhook_retry_requests WHERE endpoint = \(endpoint)")
            .first.map { try $0.decode(Date.self) }
    }

    public func events(typeIdentifier: String, identifier: String, limit: Int) async throws -> [WalletEvent] {
        try await rows("""
            SELECT id, transaction_id, type, created_at, data::text FROM events
            WHERE type_identifier = \(typeIdentifier) AND identifier = \(identifier)
            ORDER BY id DESC LIMIT \(max(0, limit))
            """).map { row in
            let (id, transaction, type, createdAt, data) = try row.decode((Int64, Int64, String, Date, String).self)
            return WalletEvent(id: id, cursor: EventCursor(transaction: transaction, id: id), type: type,
                               createdAt: createdAt, data: Data(data.utf8))
        }
    }
}
