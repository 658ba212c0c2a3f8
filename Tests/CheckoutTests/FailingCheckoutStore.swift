import Checkout
import Foundation
import Synchronization

/// A checkout store whose chosen writes fail, a given number of times, with an error of its own (a database that
/// is failing over, or a commit whose answer was lost); everything else is the wrapped store's.
final class FailingCheckoutStore: CheckoutStore {
    /// The writes that can be made to fail.
    enum Write: Hashable, Sendable { case completeAuthorization, updateAuthorizingSession }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the database is not answering (test)" }
    }

    private let base: any CheckoutStore
    private let failures: Mutex<[Write: Int]>

    init(_ base: any CheckoutStore, failing failures: [Write: Int]) {
        self.base = base
        self.failures = Mutex(failures)
    }

    /// Throws if `write` still has failures to give.
    private func fail(_ write: Write) throws {
        let fails = failures.withLock { left -> Bool in
            guard let count = left[write], count > 0 else { return false }
            left[write] = count - 1
            return true
        }
        if fails { throw Failure() }
    }

    func insertSession(_ session: CheckoutSession) async throws -> SessionInsertion {
        try await base.insertSession(session)
    }

    func session(id: String) async throws -> CheckoutSession? { try await base.session(id: id) }

    func session(idempotencyKey: String) async throws -> CheckoutSession? {
        try await base.session(idempotencyKey: idempotencyKey)
    }

    func updatePendingSession(_ session: CheckoutSession) async throws -> Bool {
        try await base.updatePendingSession(session)
    }

    func insertTransactionIdentifier(_ transactionIdentifier: String, sessionId: String, at date: Date) async throws
        -> Bool
    {
        try await base.insertTransactionIdentifier(transactionIdentifier, sessionId: sessionId, at: date)
    }

    func claimAuthorization(_ session: CheckoutSession, transactionIdentifier: String, holder: String?, at date: Date)
        async throws -> AuthorizationClaim
    {
        try await base.claimAuthorization(session, transactionIdentifier: transactionIdentifier, holder: holder, at: date)
    }

    func updateAuthorizingSession(_ session: CheckoutSession, attempt: String) async throws -> Bool {
        try fail(.updateAuthorizingSession)
        return try await base.updateAuthorizingSession(session, attempt: attempt)
    }

    func completeAuthorization(order: CheckoutOrder, session: CheckoutSession, passesOwed: Bool) async throws -> Bool {
        try fail(.completeAuthorization)
        return try await base.completeAuthorization(order: order, session: session, passesOwed: passesOwed)
    }

    func recordHeartbeat(holder: String, at date: Date) async throws {
        try await base.recordHeartbeat(holder: holder, at: date)
    }

    func leaseRecoverableAuthorizations(_ criteria: RecoverableAuthorizations, holder: String?, now date: Date,
                                        limit: Int) async throws -> [CheckoutSession]
    {
        try await base.leaseRecoverableAuthorizations(criteria, holder: holder, now: date, limit: limit)
    }

    func ordersOwingPasses(limit: Int) async throws -> [CheckoutOrder] { try await base.ordersOwingPasses(limit: limit) }

    func completePasses(order: CheckoutOrder) async throws -> Bool { try await base.completePasses(order: order) }

    func order(id: String) async throws -> CheckoutOrder? { try await base.order(id: id) }

    func recordWalletOrder(_ walletOrder: WalletOrderDetails, orderId: String) async throws -> CheckoutOrder? {
        try await base.recordWalletOrder(walletOrder, orderId: orderId)
    }

    func deleteAbandonedSessions(lastChangedBefore: Date, limit: Int) async throws -> Int {
        try await base.deleteAbandonedSessions(lastChangedBefore: lastChangedBefore, limit: limit)
    }
}
