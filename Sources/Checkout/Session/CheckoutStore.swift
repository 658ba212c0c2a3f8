public import Foundation

/// Where sessions, seen transaction identifiers and orders live. Every method is one atomic step, so SQL
/// implementations map each to one statement or one transaction.
public protocol CheckoutStore: Sendable {
    /// Inserts a session unless one with the same `idempotencyKey` exists.
    /// - Parameter session: The new session.
    /// - Returns: The stored session: the new one, or the existing one with that key (compare its
    ///   ``CheckoutSession/requestHash``).
    func insertSession(_ session: CheckoutSession) async throws -> SessionInsertion

    /// Reads a session.
    /// - Parameter id: Its identifier.
    /// - Returns: The session, or `nil`.
    func session(id: String) async throws -> CheckoutSession?

    /// Reads the session an `Idempotency-Key` created.
    /// - Parameter idempotencyKey: The key.
    /// - Returns: The session, or `nil`.
    func session(idempotencyKey: String) async throws -> CheckoutSession?

    /// Replaces a session that is still pending and unchanged since the change was made from it: its stored
    /// ``CheckoutSession/revision`` is the new one's less one (``CheckoutSession/nextRevision()``).
    /// - Parameter session: The new state (its `state` must be pending).
    /// - Returns: `false` when there is no such session, it is no longer pending, or it changed since it was read
    ///   (nothing changed; read it again to tell which).
    func updatePendingSession(_ session: CheckoutSession) async throws -> Bool

    /// Records a payment token's transaction identifier, once.
    /// - Parameters:
    ///   - transactionIdentifier: The token's `header.transactionId` (hex).
    ///   - sessionId: The session it was presented for.
    ///   - date: When.
    /// - Returns: `true` when it was new; `false` when it had been seen (a replay).
    func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date) async throws -> Bool

    /// Claims a pending session for one authorization and records the token's transaction identifier, together:
    /// of any number of concurrent claims of one session exactly one succeeds, and a transaction identifier is
    /// recorded only by a successful claim.
    /// - Parameters:
    ///   - session: The session with `state` authorizing and its ``CheckoutSession/authorization`` set.
    ///   - transactionIdentifier: The token's `header.transactionId` (hex).
    ///   - date: When.
    ///   - holder: The server process that claims it (its ``CheckoutService/instance``), recorded with the claim so
    ///     that recovery in another process leaves it alone while that process's heartbeat is recent; `nil` records
    ///     none (then only the lease frees it).
    /// - Returns: Claimed; or why not (nothing changed then). A session still pending but with another attempt count
    ///   than the claim was made from (``CheckoutSession/authorizationAttempts`` less one: another payment was
    ///   declined since the session was read) is `notPending(.pending)`: the claim must be made again from the session
    ///   as it is, so that no attempt's idempotency key is used twice. So is a session whose stored
    ///   ``CheckoutSession/revision`` is not the claim's less one (a sheet update saved since it was read).
    func claimAuthorization(_ session: CheckoutSession, transactionIdentifier: String, holder: String?, at date: Date)
        async throws -> AuthorizationClaim

    /// Replaces a session an authorization holds (authorizing or processor-unknown): to record that the processor's
    /// answer is unknown, or to return a declined session to pending.
    /// - Parameters:
    ///   - session: The new state.
    ///   - attempt: The idempotency key of the authorization that must still hold it: a processor's late answer to
    ///     an attempt that recovery settled meanwhile must not change a later attempt's session.
    /// - Returns: `false` when the session is not held by that authorization any more (nothing changed).
    func updateAuthorizingSession(_ session: CheckoutSession, attempt: String) async throws -> Bool

    /// Stores an order and marks its session authorized, together, queueing its passes when some are owed.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The session, with `state` authorized and `orderId` set.
    ///   - passesOwed: Whether the order's passes are still to be issued (a row in the durable pass queue).
    /// - Returns: `false` when the authorization creating this order (``AuthorizationAttempt/orderId``) does not hold
    ///   the session any more (nothing was stored).
    func completeAuthorization(order: CheckoutOrder, session: CheckoutSession, passesOwed: Bool) async throws -> Bool

    /// Records that a server process is alive: its heartbeat, which keeps the authorizations it holds its own.
    /// Heartbeats silent for an hour are forgotten.
    /// - Parameters:
    ///   - holder: The process (its ``CheckoutService/instance``).
    ///   - date: Now.
    func recordHeartbeat(holder: String, at date: Date) async throws

    /// Takes the held authorizations recovery should finish: those whose lease was last renewed before
    /// `criteria.leaseExpiredBefore` (the last resort: a crash, or a call that never ended), and those another
    /// process holds that `criteria.otherHolders` gives up for dead. Each one taken gets `holder` as its holder and
    /// `date` as its lease, so that another process does not take it at the same time.
    /// - Parameters:
    ///   - criteria: Which authorizations are recoverable.
    ///   - holder: The process taking them (`nil`: none is recorded).
    ///   - date: Now, the new lease.
    ///   - limit: At most this many.
    /// - Returns: The sessions taken.
    func leaseRecoverableAuthorizations(_ criteria: RecoverableAuthorizations, holder: String?, now date: Date,
                                        limit: Int) async throws -> [CheckoutSession]

    /// Orders whose passes are owed (the durable pass queue), oldest first.
    /// - Parameter limit: At most this many.
    /// - Returns: The orders.
    func ordersOwingPasses(limit: Int) async throws -> [CheckoutOrder]

    /// Replaces an order whose passes have been issued and takes it off the pass queue, together; a Wallet order
    /// recorded meanwhile is kept.
    /// - Parameter order: The order with its passes and notes.
    /// - Returns: `false` when it was not queued (another process finished it first; nothing changed).
    func completePasses(order: CheckoutOrder) async throws -> Bool

    /// Reads an order.
    /// - Parameter id: Its identifier.
    /// - Returns: The order, or `nil`.
    func order(id: String) async throws -> CheckoutOrder?

    /// Records the Wallet order issued for an order, unless one is recorded already (the first issued stands, so
    /// concurrent issuers agree); the rest of the order is left as it is.
    /// - Parameters:
    ///   - walletOrder: The issued Wallet order.
    ///   - orderId: The order.
    /// - Returns: The order as stored now, with the Wallet order that stands; `nil` when there is no such order.
    func recordWalletOrder(_ walletOrder: WalletOrderDetails, orderId: String) async throws -> CheckoutOrder?

    /// Deletes abandoned carts: pending sessions last changed before `lastChangedBefore` (a pending session has no
    /// order and no authorization holds it). Seen transaction identifiers stay, so a token is never accepted twice.
    /// - Parameters:
    ///   - lastChangedBefore: Sessions created or updated since are kept.
    ///   - limit: At most this many, oldest first.
    /// - Returns: How many were deleted.
    func deleteAbandonedSessions(lastChangedBefore: Date, limit: Int) async throws -> Int
}

extension CheckoutStore {
    /// Claims a pending session for one authorization with no holder recorded (only its lease frees it).
    /// - Parameters:
    ///   - session: The session with `state` authorizing and its ``CheckoutSession/authorization`` set.
    ///   - transactionIdentifier: The token's `header.transactionId` (hex).
    ///   - date: When.
    /// - Returns: Claimed; or why not (nothing changed then).
    public func claimAuthorization(_ session: CheckoutSession, transactionIdentifier: String, at date: Date)
        async throws -> AuthorizationClaim
    {
        try await claimAuthorization(session, transactionIdentifier: transactionIdentifier, holder: nil, at: date)
    }

    /// Takes the sessions whose authorization has been held since before `olderThan`, whoever holds them.
    /// - Parameters:
    ///   - olderThan: Leases last renewed before this are stale.
    ///   - date: Now, the new lease.
    ///   - limit: At most this many.
    /// - Returns: The sessions taken (recorded with no holder).
    public func leaseStaleAuthorizations(olderThan: Date, now date: Date, limit: Int) async throws -> [CheckoutSession] {
        try await leaseRecoverableAuthorizations(.init(leaseExpiredBefore: olderThan), holder: nil, now: date,
                                                 limit: limit)
    }

    /// Stores an order and marks its session authorized, together, with no passes owed.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The authorized session.
    /// - Returns: `false` when no authorization holds the session any more.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession) async throws -> Bool {
        try await completeAuthorization(order: order, session: session, passesOwed: false)
    }
}

/// Which held authorizations ``CheckoutStore/leaseRecoverableAuthorizations(_:holder:now:limit:)`` takes.
public struct RecoverableAuthorizations: Sendable, Equatable {
    /// Which authorizations held by other processes are recoverable before their lease runs out.
    public enum OtherHolders: Sendable, Equatable {
        /// None: only expired leases.
        case none
        /// Those whose holder has shown no sign of life since this date: its last heartbeat is older (or it has
        /// none) and so is the authorization's lease (the claim, or the last time it was taken) — the process died.
        case silentSince(Date)
        /// Every one not held by the taker, with or without a holder: at start-up on a store no other process uses,
        /// whatever is held was held by an earlier process, which is gone.
        case all
    }

    /// Held since before this (by anyone, the taker included): the lease ran out.
    public var leaseExpiredBefore: Date
    /// Which authorizations of other processes are taken as well.
    public var otherHolders: OtherHolders

    /// Creates the criteria.
    /// - Parameters:
    ///   - leaseExpiredBefore: Leases renewed before this are stale.
    ///   - otherHolders: Which other processes' authorizations are taken before their lease runs out.
    public init(leaseExpiredBefore: Date, otherHolders: OtherHolders = .none) {
        self.leaseExpiredBefore = leaseExpiredBefore
        self.otherHolders = otherHolders
    }

    /// Whether an authorization is recoverable.
    /// - Parameters:
    ///   - lease: When its lease was last renewed.
    ///   - heldBy: Its holder, if one was recorded.
    ///   - taker: The process asking.
    ///   - heartbeat: The holder's last heartbeat, if any.
    /// - Returns: Whether the taker may take it.
    public func recoverable(lease: Date, heldBy: String?, taker: String?, heartbeat: Date?) -> Bool {
        if lease < leaseExpiredBefore { return true }
        if let heldBy, heldBy == taker { return false }
        switch otherHolders {
        case .none: return false
        case .all: return true
        case .silentSince(let date):
            guard heldBy != nil else { return false }
            return lease < date && (heartbeat ?? .distantPast) < date
        }
    }
}

/// What ``CheckoutStore/claimAuthorization(_:transactionIdentifier:holder:at:)`` did.
public enum AuthorizationClaim: Sendable, Equatable {
    /// The session is now authorizing and the transaction identifier recorded.
    case claimed
    /// The session is not pending (its state, or `nil` when there is no such session); nothing was recorded.
    case notPending(CheckoutSession.State?)
    /// The transaction identifier was already recorded; the session is still pending.
    case transactionReplayed
}

/// What ``CheckoutStore/insertSession(_:)`` did.
public enum SessionInsertion: Sendable, Equatable {
    /// The session was new and is stored.
    case created(CheckoutSession)
    /// A session with the same idempotency key already existed; it is returned unchanged.
    case existing(CheckoutSession)
}

