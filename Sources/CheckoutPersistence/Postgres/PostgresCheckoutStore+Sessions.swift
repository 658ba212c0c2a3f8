public import Checkout
public import Foundation
internal import PostgresNIO

extension PostgresCheckoutStore {
    /// Inserts a session unless one with the same idempotency key exists.
    ///
    /// A concurrent insert of the same key makes this one wait for it to commit, then return it as existing.
    /// - Parameter session: The new session.
    /// - Returns: `.created` with it, or `.existing` with the session stored under its idempotency key.
    /// - Throws: ``CheckoutPersistenceError`` when the database fails or a session with its `id` but another key
    ///   exists.
    public func insertSession(_ session: CheckoutSession) async throws -> SessionInsertion {
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        let updatedAt = now()
        return try await transaction { connection in
            let inserted = try await connection.query("""
                INSERT INTO checkout_sessions (id, idempotency_key, request_hash, state, document, updated_at)
                VALUES (\(session.id), \(session.idempotencyKey), \(session.requestHash), \(session.state.rawValue), \
                \(document)::jsonb, \(updatedAt))
                ON CONFLICT (idempotency_key) DO NOTHING
                RETURNING id
                """, logger: logger).collect()
            if !inserted.isEmpty { return .created(session) }
            // Read committed: this statement's snapshot includes the insert that won the key.
            let rows = try await connection.query(
                "SELECT id, document::text FROM checkout_sessions WHERE idempotency_key = \(session.idempotencyKey)",
                logger: logger
            ).collect()
            guard let row = rows.first else {
                throw CheckoutPersistenceError.unavailable("the session with key \(session.idempotencyKey) vanished")
            }
            let (id, text) = try row.decode((String, String).self)
            return .existing(try CheckoutDocument.session(text, id: id))
        }
    }

    /// Reads a session.
    /// - Parameter id: Its identifier.
    /// - Returns: The session, or `nil`.
    public func session(id: String) async throws -> CheckoutSession? {
        let rows = try await rows("SELECT document::text FROM checkout_sessions WHERE id = \(id)")
        guard let row = rows.first else { return nil }
        return try CheckoutDocument.session(try row.decode(String.self), id: id)
    }

    public func session(idempotencyKey: String) async throws -> CheckoutSession? {
        let rows = try await rows("SELECT id, document::text FROM checkout_sessions WHERE idempotency_key = \(idempotencyKey)")
        guard let row = rows.first else { return nil }
        let (id, document) = try row.decode((String, String).self)
        return try CheckoutDocument.session(document, id: id)
    }

    /// Replaces a session that is still pending, in one statement.
    /// - Parameter session: The new state (its `state` must be pending).
    /// - Returns: `false` when there is no such session, it is no longer pending, or `session` is not pending.
    public func updatePendingSession(_ session: CheckoutSession) async throws -> Bool {
        guard session.state == .pending, session.revision ?? 0 > 0 else { return false }
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        let rows = try await rows("""
            UPDATE checkout_sessions SET document = \(document)::jsonb, updated_at = \(now())
            WHERE id = \(session.id) AND state = 'pending'
                AND coalesce((document->>'revision')::int, 0) = \(session.previousRevision)
            RETURNING id
            """)
        return !rows.isEmpty
    }

    /// Deletes pending sessions last changed before a date, oldest first, in one statement (a session a payment
    /// claims meanwhile is no longer pending when the delete reaches its row, and is kept).
    /// - Parameters:
    ///   - lastChangedBefore: Sessions changed since are kept.
    ///   - limit: At most this many.
    /// - Returns: How many were deleted.
    public func deleteAbandonedSessions(lastChangedBefore: Date, limit: Int) async throws -> Int {
        let rows = try await rows("""
            DELETE FROM checkout_sessions WHERE id IN (
                SELECT id FROM checkout_sessions WHERE state = 'pending' AND updated_at < \(lastChangedBefore)
                ORDER BY updated_at LIMIT \(max(0, limit)) FOR UPDATE SKIP LOCKED)
            AND state = 'pending'
            RETURNING id
            """)
        return rows.count
    }
}
