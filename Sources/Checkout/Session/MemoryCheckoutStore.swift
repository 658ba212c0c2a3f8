public import Foundation

/// An in-memory ``CheckoutStore`` for tests and development; everything is lost on restart.
public actor MemoryCheckoutStore: CheckoutStore {
    private var sessions: [String: CheckoutSession] = [:]
    private var sessionsByKey: [String: String] = [:]
    private var transactions: [String: String] = [:]
    private var orders: [String: CheckoutOrder] = [:]
    private var leases: [String: Date] = [:]
    private var holders: [String: String] = [:]
    private var heartbeats: [String: Date] = [:]
    private var passQueue: [String] = []
    /// When each session was created or last changed (the SQL stores' `updated_at`).
    private var changedAt: [String: Date] = [:]

    /// The clock stamping each session's last change (the SQL stores' `updated_at`).
    private let now: @Sendable () -> Date

    /// Creates an empty store.
    /// - Parameter now: The clock stamping each session's last change.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Inserts a session unless its idempotency key is taken.
    /// - Parameter session: The new session.
    /// - Returns: Created, or the existing session.
    public func insertSession(_ session: CheckoutSession) -> SessionInsertion {
        if let id = sessionsByKey[session.idempotencyKey], let existing = sessions[id] { return .existing(existing) }
        sessions[session.id] = session
        sessionsByKey[session.idempotencyKey] = session.id
        changedAt[session.id] = now()
        return .created(session)
    }

    /// Reads a session.
    /// - Parameter id: Its identifier.
    /// - Returns: The session.
    public func session(id: String) -> CheckoutSession? { sessions[id] }

    public func session(idempotencyKey: String) -> CheckoutSession? { sessionsByKey[idempotencyKey].flatMap { sessions[$0] } }

    /// Replaces a pending session.
    /// - Parameter session: The new state.
    /// - Returns: Whether it was pending and replaced.
    public func updatePendingSession(_ session: CheckoutSession) -> Bool {
        guard let current = sessions[session.id], current.state == .pending, session.state == .pending,
              current.revision ?? 0 == session.previousRevision, session.revision ?? 0 > 0 else { return false }
        sessions[session.id] = session
        changedAt[session.id] = now()
        return true
    }

    /// Records a transaction identifier once.
    /// - Parameters:
    ///   - transactionIdentifier: The identifier.
    ///   - sessionId: The session.
    ///   - date: When.
    /// - Returns: Whether it was new.
    public func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date) -> Bool {
        guard transactions[transactionIdentifier] == nil else { return false }
        transactions[transactionIdentifier] = sessionId
        return true
    }

    /// Claims a pending session and records the transaction identifier.
    /// - Parameters:
    ///   - session: The authorizing session.
    ///   - transactionIdentifier: The identifier.
    ///   - holder: The claiming process.
    ///   - date: When.
    /// - Returns: What happened.
    public func claimAuthorization(_ session: CheckoutSession, transactionIdentifier: String, holder: String?,
                                   at date: Date) -> AuthorizationClaim
    {
        guard let current = sessions[session.id], current.state == .pending,
              current.authorizationAttempts ?? 0 == max(0, (session.authorizationAttempts ?? 1) - 1),
              current.revision ?? 0 == session.previousRevision
        else {
            return .notPending(sessions[session.id]?.state)
        }
        guard transactions[transactionIdentifier] == nil else { return .transactionReplayed }
        transactions[transactionIdentifier] = session.id
        sessions[session.id] = session
        changedAt[session.id] = now()
        leases[session.id] = date
        holders[session.id] = holder
        return .claimed
    }

    /// Replaces a session held by an authorization.
    /// - Parameters:
    ///   - session: The new state.
    ///   - attempt: The idempotency key of the authorization that must hold it.
    /// - Returns: Whether it was held by that authorization.
    public func updateAuthorizingSession(_ session: CheckoutSession, attempt: String) -> Bool {
        guard let held = sessions[session.id], held.state.isBeingPaid, held.authorization?.idempotencyKey == attempt
        else { return false }
        sessions[session.id] = session
        changedAt[session.id] = now()
        return true
    }

    /// Stores the order and marks the session authorized.
    /// - Parameters:
    ///   - order: The order.
    ///   - session: The authorized session.
    ///   - passesOwed: Whether to queue its passes.
    /// - Returns: Whether an authorization held the session.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession, passesOwed: Bool) -> Bool {
        guard let held = sessions[session.id], held.state.isBeingPaid, held.authorization?.orderId == order.id,
              orders[order.id] == nil,
              !orders.values.contains(where: { $0.sessionId == session.id }) else { return false }
        sessions[session.id] = session
        changedAt[session.id] = now()
        orders[order.id] = order
        leases[session.id] = nil
        if passesOwed { passQueue.append(order.id) }
        return true
    }

    /// Records a heartbeat.
    /// - Parameters:
    ///   - holder: The process.
    ///   - date: Now.
    public func recordHeartbeat(holder: String, at date: Date) {
        heartbeats[holder] = date
        heartbeats = heartbeats.filter { $0.value >= date.addingTimeInterval(-3600) }
    }

    /// The last heartbeat of each process seen in the last hour.
    public var lastHeartbeats: [String: Date] { heartbeats }

    /// Takes recoverable authorizations.
    /// - Parameters:
    ///   - criteria: Which are recoverable.
    ///   - holder: The taker.
    ///   - date: The new lease.
    ///   - limit: At most this many.
    /// - Returns: The sessions.
    public func leaseRecoverableAuthorizations(_ criteria: RecoverableAuthorizations, holder: String?, now date: Date,
                                               limit: Int) -> [CheckoutSession] {
        let taken = sessions.values.filter { session in
            guard session.state.isBeingPaid else { return false }
            let heldBy = holders[session.id]
            return criteria.recoverable(lease: leases[session.id] ?? .distantPast, heldBy: heldBy, taker: holder,
                                        heartbeat: heldBy.flatMap { heartbeats[$0] })
        }.prefix(limit)
        for session in taken {
            leases[session.id] = date
            holders[session.id] = holder
        }
        return Array(taken)
    }

    /// Orders owing passes.
    /// - Parameter limit: At most this many.
    /// - Returns: The orders.
    public func ordersOwingPasses(limit: Int) -> [CheckoutOrder] {
        passQueue.prefix(limit).compactMap { orders[$0] }
    }

    /// Replaces the order and dequeues it.
    /// - Parameter order: The order.
    /// - Returns: Whether it was queued.
    public func completePasses(order: CheckoutOrder) -> Bool {
        guard let index = passQueue.firstIndex(of: order.id) else { return false }
        passQueue.remove(at: index)
        var completed = order
        completed.walletOrder = orders[order.id]?.walletOrder ?? order.walletOrder
        orders[order.id] = completed
        return true
    }

    /// Reads an order.
    /// - Parameter id: Its identifier.
    /// - Returns: The order.
    public func order(id: String) -> CheckoutOrder? { orders[id] }

    /// Records a Wallet order unless one is recorded.
    /// - Parameters:
    ///   - walletOrder: The Wallet order.
    ///   - orderId: The order.
    /// - Returns: The stored order.
    public func recordWalletOrder(_ walletOrder: WalletOrderDetails, orderId: String) -> CheckoutOrder? {
        guard var order = orders[orderId] else { return nil }
        if order.walletOrder == nil {
            order.walletOrder = walletOrder
            orders[orderId] = order
        }
        return order
    }

    /// Deletes pending sessions last changed before a date.
    /// - Parameters:
    ///   - lastChangedBefore: The date.
    ///   - limit: At most this many, oldest first.
    /// - Returns: How many.
    public func deleteAbandonedSessions(lastChangedBefore: Date, limit: Int) -> Int {
        let abandoned = sessions.values
            .filter { $0.state == .pending && (changedAt[$0.id] ?? .distantPast) < lastChangedBefore }
            .sorted { (changedAt[$0.id] ?? .distantPast) < (changedAt[$1.id] ?? .distantPast) }
            .prefix(max(0, limit))
        for session in abandoned {
            sessions[session.id] = nil
            sessionsByKey[session.idempotencyKey] = nil
            changedAt[session.id] = nil
            leases[session.id] = nil
            holders[session.id] = nil
        }
        return abandoned.count
    }
}
