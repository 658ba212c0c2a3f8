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

    /// Replaces a session that is still pending.
    /// - Parameter session: The new state (its `state` must be pending).
    /// - Returns: `false` when there is no such session or it is no longer pending (nothing changed).
    func updatePendingSession(_ session: CheckoutSession) async throws -> Bool

    /// Records a payment token's transaction identifier, once.
    /// - Parameters:
    ///   - transactionIdentifier: The token's `header.transactionId` (hex).
    ///   - sessionId: The session it was presented for.
    ///   - date: When.
    /// - Returns: `true` when it was new; `false` when it had been seen (a replay).
    func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date) async throws -> Bool

    /// Stores an order and marks its session authorized, together.
    /// - Parameters:
    ///   - order: The new order.
    ///   - session: The session, with `state` authorized and `orderId` set.
    /// - Returns: `false` when the session was no longer pending (nothing was stored).
    func completeAuthorization(order: CheckoutOrder, session: CheckoutSession) async throws -> Bool

    /// Reads an order.
    /// - Parameter id: Its identifier.
    /// - Returns: The order, or `nil`.
    func order(id: String) async throws -> CheckoutOrder?
}

/// What ``CheckoutStore/insertSession(_:)`` did.
public enum SessionInsertion: Sendable, Equatable {
    /// The session was new and is stored.
    case created(CheckoutSession)
    /// A session with the same idempotency key already existed; it is returned unchanged.
    case existing(CheckoutSession)
}

/// An in-memory ``CheckoutStore`` for tests and development; everything is lost on restart.
public actor MemoryCheckoutStore: CheckoutStore {
    private var sessions: [String: CheckoutSession] = [:]
    private var sessionsByKey: [String: String] = [:]
    private var transactions: [String: String] = [:]
    private var orders: [String: CheckoutOrder] = [:]

    /// Creates an empty store.
    public init() {}

    /// Inserts a session unless its idempotency key is taken.
    /// - Parameter session: The new session.
    /// - Returns: Created, or the existing session.
    public func insertSession(_ session: CheckoutSession) -> SessionInsertion {
        if let id = sessionsByKey[session.idempotencyKey], let existing = sessions[id] { return .existing(existing) }
        sessions[session.id] = session
        sessionsByKey[session.idempotencyKey] = session.id
        return .created(session)
    }

    /// Reads a session.
    /// - Parameter id: Its identifier.
    /// - Returns: The session.
    public func session(id: String) -> CheckoutSession? { sessions[id] }

    /// Replaces a pending session.
    /// - Parameter session: The new state.
    /// - Returns: Whether it was pending and replaced.
    public func updatePendingSession(_ session: CheckoutSession) -> Bool {
        guard sessions[session.id]?.state == .pending, session.state == .pending else { return false }
        sessions[session.id] = session
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

    /// Stores the order and marks the session authorized.
    /// - Parameters:
    ///   - order: The order.
    ///   - session: The authorized session.
    /// - Returns: Whether the session was pending.
    public func completeAuthorization(order: CheckoutOrder, session: CheckoutSession) -> Bool {
        guard sessions[session.id]?.state == .pending, orders[order.id] == nil else { return false }
        sessions[session.id] = session
        orders[order.id] = order
        return true
    }

    /// Reads an order.
    /// - Parameter id: Its identifier.
    /// - Returns: The order.
    public func order(id: String) -> CheckoutOrder? { orders[id] }
}
