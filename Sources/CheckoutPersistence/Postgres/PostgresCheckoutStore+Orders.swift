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

    /// Claims a pending session for one authorization and records the transaction identifier, in one transaction.
    ///
    /// The update locks the session's row: a concurrent claim, from any process, waits for this one to end, then
    /// finds the session no longer pending. A replayed transaction identifier rolls the claim back.
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
            return try await transaction { connection in
                let updated = try await connection.query("""
                    UPDATE checkout_sessions
                    SET state = \(session.state.rawValue), document = \(document)::jsonb, updated_at = \(date),
                    held_by = \(holder)
                    WHERE id = \(session.id) AND state = 'pending'
                        AND coalesce((document->>'authorizationAttempts')::int, 0) = \(max(0, (session.authorizationAttempts ?? 1) - 1))
                        AND coalesce((document->>'revision')::int, 0) = \(session.previousRevision)
                    RETURNING id
                    """, logger: logger).collect()
                guard !updated.isEmpty else {
                    let rows = try await connection.query(
                        "SELECT state FROM checkout_sessions WHERE id = \(session.id)", logger: logger).collect()
                    let state = try rows.first.map { try $0.decode(String.self) }
                    return .notPending(state.flatMap(CheckoutSession.State.init(rawValue:)))
                }
                let inserted = try await connection.query("""
                    INSERT INTO checkout_transactions (transaction_identifier, session_id, seen_at)
                    VALUES (\(transactionIdentifier), \(session.id), \(date))
                    ON CONFLICT (transaction_identifier) DO NOTHING
                    RETURNING transaction_identifier
                    """, logger: logger).collect()
                guard !inserted.isEmpty else { throw CheckoutRollback() }
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
        let rows = try await rows("""
            UPDATE checkout_sessions SET state = \(session.state.rawValue), document = \(document)::jsonb,
            updated_at = \(now())
            WHERE id = \(session.id) AND state IN ('authorizing', 'processorUnknown')
                AND document->'authorization'->>'idempotencyKey' = \(attempt)
            RETURNING id
            """)
        return !rows.isEmpty
    }

    /// Marks a session held by an authorization authorized, stores its order and queues its passes in one
    /// transaction: all rows or none.
    ///
    /// The update locks the session's row; a concurrent completion waits, then finds it authorized.
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
        let updatedAt = now()
        do {
            return try await transaction { connection in
                let updated = try await connection.query("""
                    UPDATE checkout_sessions
                    SET state = \(session.state.rawValue), document = \(sessionDocument)::jsonb, updated_at = \(updatedAt)
                    WHERE id = \(session.id) AND state IN ('authorizing', 'processorUnknown')
                        AND document->'authorization'->>'orderId' = \(order.id)
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
                if passesOwed {
                    try await connection.query("""
                        INSERT INTO checkout_pass_queue (order_id, queued_at) VALUES (\(order.id), \(updatedAt))
                        """, logger: logger)
                }
                return true
            }
        } catch is CheckoutRollback {
            return false
        }
    }

    /// Records a server process's heartbeat, then forgets those silent for an hour.
    /// - Parameters:
    ///   - holder: The process.
    ///   - date: Now.
    public func recordHeartbeat(holder: String, at date: Date) async throws {
        _ = try await rows("""
            INSERT INTO checkout_heartbeats (holder, beat_at) VALUES (\(holder), \(date))
            ON CONFLICT (holder) DO UPDATE SET beat_at = EXCLUDED.beat_at
            """)
        _ = try await rows("DELETE FROM checkout_heartbeats WHERE beat_at < \(date.addingTimeInterval(-3600))")
    }

    /// Takes recoverable authorizations, recording the taker and renewing their leases, in one statement
    /// (`FOR UPDATE SKIP LOCKED`, so two processes never take the same session at once).
    /// - Parameters:
    ///   - criteria: Expired leases, and which other holders are given up for dead.
    ///   - holder: The taker.
    ///   - date: The new lease.
    ///   - limit: At most this many.
    /// - Returns: The sessions taken.
    public func leaseRecoverableAuthorizations(_ criteria: RecoverableAuthorizations, holder: String?, now date: Date,
                                               limit: Int) async throws -> [CheckoutSession] {
        var everyOther = false
        var bySilence = false
        var silentSince = criteria.leaseExpiredBefore
        switch criteria.otherHolders {
        case .none: break
        case .all: everyOther = true
        case .silentSince(let since):
            bySilence = true
            silentSince = since
        }
        let rows = try await rows("""
            UPDATE checkout_sessions SET updated_at = \(date), held_by = \(holder)
            WHERE id IN (
                SELECT s.id FROM checkout_sessions s
                WHERE s.state IN ('authorizing', 'processorUnknown') AND (
                    s.updated_at < \(criteria.leaseExpiredBefore)
                    OR ((s.held_by IS NULL OR s.held_by IS DISTINCT FROM \(holder)) AND (
                        \(everyOther)
                        OR (\(bySilence) AND s.held_by IS NOT NULL AND s.updated_at < \(silentSince)
                            AND NOT EXISTS (
                            SELECT 1 FROM checkout_heartbeats h
                            WHERE h.holder = s.held_by AND h.beat_at >= \(silentSince))))))
                ORDER BY s.updated_at LIMIT \(limit)
                FOR UPDATE OF s SKIP LOCKED
            )
            RETURNING id, document::text
            """)
        return try rows.map { row in
            let (id, text) = try row.decode((String, String).self)
            return try CheckoutDocument.session(text, id: id)
        }
    }

    /// Orders on the pass queue, oldest first.
    /// - Parameter limit: At most this many.
    /// - Returns: The orders.
    public func ordersOwingPasses(limit: Int) async throws -> [CheckoutOrder] {
        let rows = try await rows("""
            SELECT o.id, o.document::text FROM checkout_pass_queue q JOIN checkout_orders o ON o.id = q.order_id
            ORDER BY q.queued_at LIMIT \(limit)
            """)
        return try rows.map { row in
            let (id, text) = try row.decode((String, String).self)
            return try CheckoutDocument.order(text, id: id)
        }
    }

    /// Replaces an order whose passes were issued and dequeues it, in one transaction.
    /// - Parameter order: The order with its passes.
    /// - Returns: `false` when it was not queued.
    public func completePasses(order: CheckoutOrder) async throws -> Bool {
        let document = try CheckoutDocument.encode(order, "order \(order.id)")
        return try await transaction { connection in
            let deleted = try await connection.query(
                "DELETE FROM checkout_pass_queue WHERE order_id = \(order.id) RETURNING order_id", logger: logger
            ).collect()
            guard !deleted.isEmpty else { return false }
            // A Wallet order recorded since the order was read stays.
            try await connection.query("""
                UPDATE checkout_orders
                SET document = CASE WHEN jsonb_typeof(document -> 'walletOrder') = 'object'
                    THEN jsonb_set(\(document)::jsonb, '{walletOrder}', document -> 'walletOrder')
                    ELSE \(document)::jsonb END
                WHERE id = \(order.id)
                """, logger: logger)
            return true
        }
    }

    /// Records an order's Wallet order unless one is recorded, in one statement (the row's lock orders concurrent
    /// writers), then reads the order back.
    /// - Parameters:
    ///   - walletOrder: The issued Wallet order.
    ///   - orderId: The order.
    /// - Returns: The stored order, or `nil` when there is none.
    public func recordWalletOrder(_ walletOrder: WalletOrderDetails, orderId: String) async throws -> CheckoutOrder? {
        let details = try CheckoutDocument.encode(walletOrder, "the Wallet order of order \(orderId)")
        _ = try await rows("""
            UPDATE checkout_orders SET document = jsonb_set(document, '{walletOrder}', \(details)::jsonb)
            WHERE id = \(orderId) AND jsonb_typeof(document -> 'walletOrder') IS DISTINCT FROM 'object'
            RETURNING id
            """)
        return try await order(id: orderId)
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
