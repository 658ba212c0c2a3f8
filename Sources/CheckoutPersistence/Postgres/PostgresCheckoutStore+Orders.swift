public import Checkout
public import Foundation
internal import PostgresNIO

extension PostgresCheckoutStore {
    /// Records a transaction identifier unless it has been seen, in one statement: of any number of concurrent
    /// inserts of one identifier, from any number of processes, exactly one returns `true`.
    /// - Parameters:
    ///   - transactionIdentifier: The token's transaction identifier.
    ///   - sessionId: The session it was presented for.
    ///   - date: When.
    /// - Returns: `true` when it was new; `false` for a replay.
    public func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date)
        async throws -> Bool
    {
        let rows = try await rows("""
            INSERT INTO checkout_transactions (transaction_identifier, session_id, seen_at)
            VALUES (\(transactionIdentifier), \(sessionId), \(date))
            ON CONFLICT (transaction_identifier) DO NOTHING
            RETURNING transaction_identifier
            """)
        return !rows.isEmpty
    }

    /// Marks a pending session authorized and stores its order in one transaction: both rows or neither.
    ///
    /// The update locks the session's row; a concurrent authorization of the same session waits for this one to end,
    /// then finds the session no longer pending and returns `false`.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The session, with `state` authorized and `orderId` set.
    /// - Returns: `false` when the session is missing or no longer pending, or the order (or an order of the
    ///   session) already exists; nothing was stored then.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession) async throws -> Bool {
        let sessionDocument = try CheckoutDocument.encode(session, "session \(session.id)")
        let orderDocument = try CheckoutDocument.encode(order, "order \(order.id)")
        let updatedAt = now()
        do {
            return try await transaction { connection in
                let updated = try await connection.query("""
                    UPDATE checkout_sessions
                    SET state = \(session.state.rawValue), document = \(sessionDocument)::jsonb, updated_at = \(updatedAt)
                    WHERE id = \(session.id) AND state = 'pending'
                    RETURNING id
                    """, logger: logger).collect()
                guard !updated.isEmpty else { return false }
                let inserted = try await connection.query("""
                    INSERT INTO checkout_orders (id, session_id, document, created_at)
                    VALUES (\(order.id), \(order.sessionId), \(orderDocument)::jsonb, \(order.createdAt))
                    ON CONFLICT DO NOTHING
                    RETURNING id
                    """, logger: logger).collect()
                guard !inserted.isEmpty else { throw CheckoutRollback() }
                return true
            }
        } catch is CheckoutRollback {
            return false
        }
    }

    /// Reads an order.
    /// - Parameter id: Its identifier.
    /// - Returns: The order, or `nil`.
    public func order(id: String) async throws -> CheckoutOrder? {
        let rows = try await rows("SELECT document::text FROM checkout_orders WHERE id = \(id)")
        guard let row = rows.first else { return nil }
        return try CheckoutDocument.order(try row.decode(String.self), id: id)
    }
}
