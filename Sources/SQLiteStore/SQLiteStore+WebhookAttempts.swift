public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: WebhookAttemptStore, ItemEventStore {
    public func recordWebhookAttempt(_ attempt: WebhookAttempt, keep: Int) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO webhook_attempts (endpoint, event_id, event_type, attempted_at, outcome, status, detail, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [attempt.endpoint, attempt.eventID, attempt.eventType, attempt.attemptedAt.timeIntervalSince1970,
                                 attempt.outcome.rawValue, attempt.status, attempt.detail,
                                 attempt.nextAttemptAt?.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM webhook_attempts WHERE endpoint = ?1 AND id <= (
                    SELECT id FROM webhook_attempts WHERE endpoint = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
                """, arguments: [attempt.endpoint, max(1, keep)])
        }
    }

    public func webhookAttempts(endpoint: String, limit: Int) async throws -> [WebhookAttempt] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT endpoint, event_id, event_type, attempted_at, outcome, status, detail, next_attempt_at
                FROM webhook_attempts WHERE endpoint = ? ORDER BY id DESC LIMIT ?
                """, arguments: [endpoint, max(0, limit)]).map { row in
                WebhookAttempt(
                    endpoint: row[0], eventID: row[1], eventType: row[2], attemptedAt: Date(timeIntervalSince1970: row[3]),
                    outcome: WebhookAttempt.Outcome(rawValue: row[4]) ?? .refused, status: row[5], detail: row[6],
                    nextAttemptAt: (row[7] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func requestWebhookRetry(endpoint: String, at: Date) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO webhook_retry_requests (endpoint, requested_at) VALUES (?1, ?2)
                ON CONFLICT (endpoint) DO UPDATE SET requested_at = ?2
                """, arguments: [endpoint, at.timeIntervalSince1970])
        }
    }

    public func webhookRetryRequested(endpoint: String) async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: "SELECT requested_at FROM webhook_retry_requests WHERE endpoint = ?",
                                arguments: [endpoint]).map(Date.init(timeIntervalSince1970:))
        }
    }

    public func events(typeIdentifier: String, identifier: String, limit: Int) async throws -> [WalletEvent] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, type, created_at, data FROM events INDEXED BY events_item
                WHERE type_identifier = ? AND identifier = ? ORDER BY id DESC LIMIT ?
                """, arguments: [typeIdentifier, identifier, max(0, limit)]).map { row in
                WalletEvent(id: row[0], cursor: EventCursor(id: row[0]), type: row[1],
                            createdAt: Date(timeIntervalSince1970: row[2]), data: row[3])
            }
        }
    }
}
