public import Checkout
public import Foundation
internal import GRDB

extension SQLiteCheckoutStore {
    /// Inserts a session unless one with the same idempotency key exists, in one transaction.
    /// - Parameter session: The new session.
    /// - Returns: `.created` with it, or `.existing` with the session stored under its idempotency key.
    /// - Throws: ``CheckoutPersistenceError`` when the database fails or a session with its `id` but another key
    ///   exists.
    public func insertSession(_ session: CheckoutSession) async throws -> SessionInsertion {
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        let updatedAt = now().timeIntervalSince1970
        return try await write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO checkout_sessions (id, idempotency_key, request_hash, state, document, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (idempotency_key) DO NOTHING
                """)
            try insert.execute(arguments: [
                session.id, session.idempotencyKey, session.requestHash, session.state.rawValue, document, updatedAt,
            ])
            if db.changesCount > 0 { return .created(session) }
            let select = try db.cachedStatement(sql: "SELECT id, document FROM checkout_sessions WHERE idempotency_key = ?")
            guard let row = try Row.fetchOne(select, arguments: [session.idempotencyKey]) else {
                throw CheckoutPersistenceError.unavailable("the session with key \(session.idempotencyKey) vanished")
            }
            return .existing(try CheckoutDocument.session(row[1], id: row[0]))
        }
    }

    /// Reads a session.
    /// - Parameter id: Its identifier.
    /// - Returns: The session, or `nil`.
    public func session(id: String) async throws -> CheckoutSession? {
        try await read { db in
            let select = try db.cachedStatement(sql: "SELECT document FROM checkout_sessions WHERE id = ?")
            return try String.fetchOne(select, arguments: [id]).map { try CheckoutDocument.session($0, id: id) }
        }
    }

    public func session(idempotencyKey: String) async throws -> CheckoutSession? {
        try await read { db in
            let select = try db.cachedStatement(sql: "SELECT id, document FROM checkout_sessions WHERE idempotency_key = ?")
            guard let row = try Row.fetchOne(select, arguments: [idempotencyKey]) else { return nil }
            return try CheckoutDocument.session(row[1], id: row[0])
        }
    }

    /// Replaces a session that is still pending, in one statement.
    /// - Parameter session: The new state (its `state` must be pending).
    /// - Returns: `false` when there is no such session, it is no longer pending, or `session` is not pending.
    public func updatePendingSession(_ session: CheckoutSession) async throws -> Bool {
        guard session.state == .pending, session.revision ?? 0 > 0 else { return false }
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        let updatedAt = now().timeIntervalSince1970
        return try await write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE checkout_sessions SET document = ?, updated_at = ?
                WHERE id = ? AND state = 'pending' AND coalesce(json_extract(document, '$.revision'), 0) = ?
                """)
            try update.execute(arguments: [document, updatedAt, session.id, session.previousRevision])
            return db.changesCount > 0
        }
    }

    /// Deletes pending sessions last changed before a date, oldest first, in one statement.
    /// - Parameters:
    ///   - lastChangedBefore: Sessions changed since are kept.
    ///   - limit: At most this many.
    /// - Returns: How many were deleted.
    public func deleteAbandonedSessions(lastChangedBefore: Date, limit: Int) async throws -> Int {
        let cutoff = lastChangedBefore.timeIntervalSince1970
        return try await write { db in
            let delete = try db.cachedStatement(sql: """
                DELETE FROM checkout_sessions WHERE id IN (
                    SELECT id FROM checkout_sessions WHERE state = 'pending' AND updated_at < ?
                    ORDER BY updated_at LIMIT ?)
                """)
            try delete.execute(arguments: [cutoff, max(0, limit)])
            return db.changesCount
        }
    }
}
