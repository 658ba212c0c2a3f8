public import Checkout
public import Foundation
internal import GRDB

extension SQLiteCheckoutStore {
    /// Records a transaction identifier unless it has been seen, in one statement.
    /// - Parameters:
    ///   - transactionIdentifier: The token's transaction identifier.
    ///   - sessionId: The session it was presented for.
    ///   - date: When.
    /// - Returns: `true` when it was new; `false` for a replay.
    public func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date)
        async throws -> Bool
    {
        try await write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO checkout_transactions (transaction_identifier, session_id, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (transaction_identifier) DO NOTHING
                """)
            try insert.execute(arguments: [transactionIdentifier, sessionId, date.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    /// Marks a pending session authorized and stores its order in one write transaction: both rows or neither.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The session, with `state` authorized and `orderId` set.
    /// - Returns: `false` when the session is missing or no longer pending, or the order (or an order of the
    ///   session) already exists; nothing was stored then.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession) async throws -> Bool {
        let sessionDocument = try CheckoutDocument.encode(session, "session \(session.id)")
        let orderDocument = try CheckoutDocument.encode(order, "order \(order.id)")
        let updatedAt = now().timeIntervalSince1970
        do {
            return try await write { db in
                // The write lock is taken by this first statement, so the pending check and both writes see no
                // other writer in between.
                let update = try db.cachedStatement(sql: """
                    UPDATE checkout_sessions SET state = ?, document = ?, updated_at = ?
                    WHERE id = ? AND state = 'pending'
                    """)
                try update.execute(arguments: [session.state.rawValue, sessionDocument, updatedAt, session.id])
                guard db.changesCount > 0 else { return false }
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO checkout_orders (id, session_id, document, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """)
                try insert.execute(arguments: [
                    order.id, order.sessionId, orderDocument, order.createdAt.timeIntervalSince1970,
                ])
                guard db.changesCount > 0 else { throw CheckoutRollback() }
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
        try await read { db in
            let select = try db.cachedStatement(sql: "SELECT document FROM checkout_orders WHERE id = ?")
            return try String.fetchOne(select, arguments: [id]).map { try CheckoutDocument.order($0, id: id) }
        }
    }
}
