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

    /// Claims a pending session for one authorization and records the transaction identifier, in one write
    /// transaction: the session's update takes SQLite's write lock, so of concurrent claims (in any process
    /// sharing the file) exactly one finds it pending.
    /// - Parameters:
    ///   - session: The session, authorizing, with its attempt.
    ///   - transactionIdentifier: The token's transaction identifier.
    ///   - holder: The claiming process, recorded in `held_by`.
    ///   - date: When.
    /// - Returns: Claimed, not pending, or a replayed transaction (then nothing changed).
    public func claimAuthorization(_ session: CheckoutSession, transactionIdentifier: String, holder: String?,
                                   at date: Date) async throws -> AuthorizationClaim
    {
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        do {
            return try await write { db in
                // Pending and still at the attempt count the claim was made from: of two payments that read the
                // session before one of them was declined, the other does not reuse that attempt's key. And at the
                // revision it was made from: a sheet update saved since is not overwritten.
                let update = try db.cachedStatement(sql: """
                    UPDATE checkout_sessions SET state = ?, document = ?, updated_at = ?, held_by = ?
                    WHERE id = ? AND state = 'pending'
                        AND coalesce(json_extract(document, '$.authorizationAttempts'), 0) = ?
                        AND coalesce(json_extract(document, '$.revision'), 0) = ?
                    """)
                try update.execute(arguments: [
                    session.state.rawValue, document, date.timeIntervalSince1970, holder, session.id,
                    max(0, (session.authorizationAttempts ?? 1) - 1), session.previousRevision,
                ])
                guard db.changesCount > 0 else {
                    let select = try db.cachedStatement(sql: "SELECT state FROM checkout_sessions WHERE id = ?")
                    let state = try String.fetchOne(select, arguments: [session.id])
                    return .notPending(state.flatMap(CheckoutSession.State.init(rawValue:)))
                }
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO checkout_transactions (transaction_identifier, session_id, seen_at) VALUES (?, ?, ?)
                    ON CONFLICT (transaction_identifier) DO NOTHING
                    """)
                try insert.execute(arguments: [transactionIdentifier, session.id, date.timeIntervalSince1970])
                guard db.changesCount > 0 else { throw CheckoutRollback() }
                return .claimed
            }
        } catch is CheckoutRollback {
            return .transactionReplayed
        }
    }

    /// Replaces a session held by an authorization, in one statement.
    /// - Parameters:
    ///   - session: The new state (processor unknown, or pending after a decline).
    ///   - attempt: The idempotency key of the authorization that must hold it.
    /// - Returns: `false` when that authorization does not hold it.
    public func updateAuthorizingSession(_ session: CheckoutSession, attempt: String) async throws -> Bool {
        let document = try CheckoutDocument.encode(session, "session \(session.id)")
        let updatedAt = now().timeIntervalSince1970
        return try await write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE checkout_sessions SET state = ?, document = ?, updated_at = ?
                WHERE id = ? AND state IN ('authorizing', 'processorUnknown')
                    AND json_extract(document, '$.authorization.idempotencyKey') = ?
                """)
            try update.execute(arguments: [session.state.rawValue, document, updatedAt, session.id, attempt])
            return db.changesCount > 0
        }
    }

    /// Marks a session held by an authorization authorized, stores its order and queues its passes in one write
    /// transaction: all rows or none.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The session, with `state` authorized and `orderId` set.
    ///   - passesOwed: Whether to queue the order's passes.
    /// - Returns: `false` when the authorization creating this order does not hold the session, or the order (or an order of the session)
    ///   already exists; nothing was stored then.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession, passesOwed: Bool) async throws
        -> Bool
    {
        let sessionDocument = try CheckoutDocument.encode(session, "session \(session.id)")
        let orderDocument = try CheckoutDocument.encode(order, "order \(order.id)")
        let updatedAt = now().timeIntervalSince1970
        do {
            return try await write { db in
                // The write lock is taken by this first statement, so the state check and the writes see no
                // other writer in between.
                let update = try db.cachedStatement(sql: """
                    UPDATE checkout_sessions SET state = ?, document = ?, updated_at = ?
                    WHERE id = ? AND state IN ('authorizing', 'processorUnknown')
                        AND json_extract(document, '$.authorization.orderId') = ?
                    """)
                try update.execute(arguments: [session.state.rawValue, sessionDocument, updatedAt, session.id, order.id])
                guard db.changesCount > 0 else { return false }
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO checkout_orders (id, session_id, document, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """)
                try insert.execute(arguments: [
                    order.id, order.sessionId, orderDocument, order.createdAt.timeIntervalSince1970,
                ])
                guard db.changesCount > 0 else { throw CheckoutRollback() }
                if passesOwed {
                    let queue = try db.cachedStatement(sql: """
                        INSERT INTO checkout_pass_queue (order_id, queued_at) VALUES (?, ?)
                        """)
                    try queue.execute(arguments: [order.id, updatedAt])
                }
                return true
            }
        } catch is CheckoutRollback {
            return false
        }
    }

    /// Records a server process's heartbeat and forgets those silent for an hour, in one write transaction.
    /// - Parameters:
    ///   - holder: The process.
    ///   - date: Now.
    public func recordHeartbeat(holder: String, at date: Date) async throws {
        try await write { db in
            let beat = try db.cachedStatement(sql: """
                INSERT INTO checkout_heartbeats (holder, beat_at) VALUES (?, ?)
                ON CONFLICT (holder) DO UPDATE SET beat_at = excluded.beat_at
                """)
            try beat.execute(arguments: [holder, date.timeIntervalSince1970])
            let forget = try db.cachedStatement(sql: "DELETE FROM checkout_heartbeats WHERE beat_at < ?")
            try forget.execute(arguments: [date.timeIntervalSince1970 - 3600])
        }
    }

    /// Takes recoverable authorizations, recording the taker and renewing their leases, in one write transaction.
    /// - Parameters:
    ///   - criteria: Expired leases, and which other holders are given up for dead.
    ///   - holder: The taker.
    ///   - date: The new lease.
    ///   - limit: At most this many.
    /// - Returns: The sessions taken.
    public func leaseRecoverableAuthorizations(_ criteria: RecoverableAuthorizations, holder: String?, now date: Date,
                                               limit: Int) async throws -> [CheckoutSession] {
        var everyOther = false
        var silentSince: Double?
        switch criteria.otherHolders {
        case .none: break
        case .all: everyOther = true
        case .silentSince(let since): silentSince = since.timeIntervalSince1970
        }
        let arguments: StatementArguments = [
            "lease": criteria.leaseExpiredBefore.timeIntervalSince1970, "taker": holder, "everyOther": everyOther,
            "silentSince": silentSince, "limit": limit,
        ]
        return try await write { db in
            let select = try db.cachedStatement(sql: """
                SELECT s.id, s.document FROM checkout_sessions s
                WHERE s.state IN ('authorizing', 'processorUnknown') AND (
                    s.updated_at < :lease
                    OR ((s.held_by IS NULL OR s.held_by IS NOT :taker) AND (
                        :everyOther
                        OR (:silentSince IS NOT NULL AND s.held_by IS NOT NULL AND s.updated_at < :silentSince
                            AND NOT EXISTS (
                            SELECT 1 FROM checkout_heartbeats h WHERE h.holder = s.held_by AND h.beat_at >= :silentSince)))))
                ORDER BY s.updated_at LIMIT :limit
                """)
            let rows = try Row.fetchAll(select, arguments: arguments)
            let renew = try db.cachedStatement(sql: "UPDATE checkout_sessions SET updated_at = ?, held_by = ? WHERE id = ?")
            return try rows.map { row in
                let id: String = row[0]
                try renew.execute(arguments: [date.timeIntervalSince1970, holder, id])
                return try CheckoutDocument.session(row[1], id: id)
            }
        }
    }

    /// Orders on the pass queue, oldest first.
    /// - Parameter limit: At most this many.
    /// - Returns: The orders.
    public func ordersOwingPasses(limit: Int) async throws -> [CheckoutOrder] {
        try await read { db in
            let select = try db.cachedStatement(sql: """
                SELECT o.id, o.document FROM checkout_pass_queue q JOIN checkout_orders o ON o.id = q.order_id
                ORDER BY q.queued_at LIMIT ?
                """)
            return try Row.fetchAll(select, arguments: [limit]).map { try CheckoutDocument.order($0[1], id: $0[0]) }
        }
    }

    /// Replaces an order whose passes were issued and dequeues it, in one write transaction.
    /// - Parameter order: The order with its passes.
    /// - Returns: `false` when it was not queued.
    public func completePasses(order: CheckoutOrder) async throws -> Bool {
        try await write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM checkout_pass_queue WHERE order_id = ?")
            try delete.execute(arguments: [order.id])
            guard db.changesCount > 0 else { return false }
            // A Wallet order recorded since the order was read stays: the write lock is held from the delete on.
            var completed = order
            completed.walletOrder = try Self.storedOrder(order.id, db)?.walletOrder ?? order.walletOrder
            let update = try db.cachedStatement(sql: "UPDATE checkout_orders SET document = ? WHERE id = ?")
            try update.execute(arguments: [try CheckoutDocument.encode(completed, "order \(order.id)"), order.id])
            return true
        }
    }

    /// Records an order's Wallet order unless one is recorded, in one write transaction.
    /// - Parameters:
    ///   - walletOrder: The issued Wallet order.
    ///   - orderId: The order.
    /// - Returns: The stored order, or `nil` when there is none.
    public func recordWalletOrder(_ walletOrder: WalletOrderDetails, orderId: String) async throws -> CheckoutOrder? {
        try await write { db in
            // An empty update first, so the write lock is held before the order is read.
            let lock = try db.cachedStatement(sql: "UPDATE checkout_orders SET id = id WHERE id = ?")
            try lock.execute(arguments: [orderId])
            guard var order = try Self.storedOrder(orderId, db) else { return nil }
            guard order.walletOrder == nil else { return order }
            order.walletOrder = walletOrder
            let update = try db.cachedStatement(sql: "UPDATE checkout_orders SET document = ? WHERE id = ?")
            try update.execute(arguments: [try CheckoutDocument.encode(order, "order \(orderId)"), orderId])
            return order
        }
    }

    private static func storedOrder(_ id: String, _ db: Database) throws -> CheckoutOrder? {
        let select = try db.cachedStatement(sql: "SELECT document FROM checkout_orders WHERE id = ?")
        return try String.fetchOne(select, arguments: [id]).map { try CheckoutDocument.order($0, id: id) }
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
