import Foundation
import HTTPTypes
import Logging
import PaymentRequest
import PaymentToken

/// The irreversible part of an authorization, for a session already claimed: the processor call, then the order
/// (committed with its session and its pass queue row), then the passes and the Wallet order. Also what
/// ``recoverAuthorizations()`` runs again for a session whose processor answer was lost.
extension CheckoutService {
    /// Calls the processor for a claimed session with the attempt's idempotency key and records its answer:
    /// approved → order committed and passes issued; declined → session pending again; no answer →
    /// `processorUnknown`, retried later with the same key.
    func settle(_ session: CheckoutSession, posted: PostedPayment, payment: DecryptedPaymentData?,
                contacts: PaymentContacts) async throws -> AuthorizationResult {
        guard let attempt = session.authorization else { throw AuthorizationFailure.notPending(session.state) }
        let metadata: Logger.Metadata = ["session": "\(session.id)", "order": "\(attempt.orderId)"]
        let outcome: PaymentProcessingResult
        do {
            outcome = try await processor.process(PaymentProcessingRequest(
                sessionId: session.id, orderId: attempt.orderId, idempotencyKey: attempt.idempotencyKey,
                amount: attempt.total, currencyCode: pricing.currency.code, posted: posted, paymentData: payment,
                transactionIdentifier: attempt.transactionIdentifier))
        } catch {
            logger.error("payment processor gave no answer: the authorization will be retried with the same key",
                         metadata: metadata.merging(["error": "\(error)"]) { $1 })
            throw await beingConfirmed(session, attempt: attempt, detail: "\(error)", metadata: metadata)
        }
        guard outcome.approved else {
            var released = session
            released.state = .pending
            released.authorization = nil
            // Only this attempt's session: a late decline of an attempt recovery settled meanwhile must not undo a
            // later attempt's claim. A store that fails here leaves the session held: recovery asks the processor
            // again with the same key once the lease has run out, and releases it then. The buyer was declined.
            do {
                _ = try await store.updateAuthorizingSession(released, attempt: attempt.idempotencyKey)
            } catch {
                logger.error("declined payment's session not released for now: recovery releases it",
                             metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
            logger.info("checkout payment declined", metadata: metadata)
            throw AuthorizationFailure(HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), code: "declined",
                                       outcome.message ?? "The payment was declined.")
        }
        var order = CheckoutOrder(
            id: attempt.orderId, sessionId: session.id, createdAt: now(), status: outcome.status,
            currencyCode: pricing.currency.code, total: attempt.total, lineItems: attempt.lineItems, items: session.items,
            payment: Self.orderPayment(posted, decrypted: payment, transactionIdentifier: attempt.transactionIdentifier,
                                       processorReference: outcome.reference))
        order.shippingMethod = attempt.shippingMethod
        order.couponCode = attempt.couponCode
        order.billingContact = contacts.billingContact
        order.shippingContact = contacts.shippingContact
        var authorized = session
        authorized.state = .authorized
        authorized.orderId = attempt.orderId
        authorized.authorization = nil
        let owed = owesPasses(order)
        let recorded: Bool
        do {
            recorded = try await store.completeAuthorization(order: order, session: authorized, passesOwed: owed)
        } catch {
            // Charged, and the order not written (the store failed, or its answer was lost after a commit): the
            // session stays held by this attempt, and recovery asks the processor again with the same key (which
            // answers with the same approval) and records the order. The buyer is told the payment is being
            // confirmed, never that it failed: paying again would charge twice.
            logger.error("payment approved but its order not recorded for now: recovery records it with the same key",
                         metadata: metadata.merging([
                             "reference": "\(outcome.reference ?? "none")", "error": "\(error)",
                         ]) { $1 })
            throw await beingConfirmed(session, attempt: attempt, detail: "\(error)", metadata: metadata)
        }
        guard recorded else {
            // Another process (recovery) committed this attempt first: that is the same order.
            let current = try await store.session(id: session.id)
            if current?.state == .authorized, let orderId = current?.orderId, orderId == attempt.orderId {
                let stored = try await store.order(id: orderId)
                var walletOrder: WalletOrderDetails?
                if let stored { walletOrder = await withWalletOrder(stored).walletOrder }
                return .success(orderId: orderId, orderURL: "/checkout/v1/orders/\(orderId)", walletOrder: walletOrder)
            }
            // The processor approved this attempt, but the session is no longer its own (recovery settled the attempt
            // as declined and the buyer paid again, or the session ended): money taken with no order. Never silent.
            logger.critical("""
                payment approved but its order cannot be recorded: the session is no longer held by this attempt; \
                reconcile or refund it with the processor
                """, metadata: metadata.merging([
                                "idempotencyKey": "\(attempt.idempotencyKey)", "reference": "\(outcome.reference ?? "none")",
                                "total": "\(Money(attempt.total, pricing.currency))",
                                "sessionState": "\(current?.state.rawValue ?? "gone")",
                            ]) { $1 })
            throw AuthorizationFailure.notPending(current?.state)
        }
        logger.info("checkout order authorized", metadata: metadata.merging([
            "payment": "\(order.payment.displayName)", "total": "\(Money(attempt.total, pricing.currency))",
        ]) { $1 })
        if owed {
            // The order is committed: a failure here leaves it on the pass queue for recovery, never unpaid.
            do { try await completePasses(order) } catch {
                logger.error("order passes left on the queue", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
        }
        // Paid: the Wallet order is handed over now, and a failure only leaves it for the confirmation to issue.
        let walletOrder = await withWalletOrder(order).walletOrder
        return .success(orderId: attempt.orderId, orderURL: "/checkout/v1/orders/\(attempt.orderId)",
                        walletOrder: walletOrder)
    }

    /// The answer to a payment whose outcome is not settled yet (the processor did not answer, or the approved order
    /// could not be written): the session is marked `processorUnknown` where the store allows (a failure leaves it
    /// `authorizing`, which recovery takes the same way), and the buyer is told to check the order status.
    private func beingConfirmed(_ session: CheckoutSession, attempt: AuthorizationAttempt, detail: String,
                                metadata: Logger.Metadata) async -> AuthorizationFailure {
        if session.state != .processorUnknown {
            var unknown = session
            unknown.state = .processorUnknown
            do {
                _ = try await store.updateAuthorizingSession(unknown, attempt: attempt.idempotencyKey)
            } catch {
                logger.warning("held authorization not marked processorUnknown", metadata: metadata.merging([
                    "error": "\(error)",
                ]) { $1 })
            }
        }
        return AuthorizationFailure(HTTPResponse.Status(code: 502, reasonPhrase: "Bad Gateway"), code: "processorUnknown",
                                    "The payment is being confirmed. Please check the order status shortly.",
                                    detail: detail)
    }

    /// The card types an Apple Pay payment method names (Apple Pay JS's four, and a native app's `eMoney`); the
    /// type is outside Apple's signature, so anything else (a tampered body) is not recorded, and the payment not
    /// refused for it.
    static let paymentMethodTypes: Set<String> = ["debit", "credit", "prepaid", "store", "eMoney"]

    /// How the order was paid, as it may be stored and shown: the network, the last four digits (decrypted, or
    /// from the sheet's `Visa 1234` when the token stays encrypted, or as the card element reported them), the type.
    static func orderPayment(_ posted: PostedPayment, decrypted: DecryptedPaymentData?, transactionIdentifier: String,
                             processorReference: String?) -> CheckoutOrder.Payment {
        switch posted {
        case .applePay(let token):
            let shown = String((token.paymentMethod?.displayName ?? "").filter(\.isNumber).suffix(4))
            // The network the token names is outside Apple's signature: decrypted, the account number's own scheme
            // is recorded instead, unless the name is a domestic network such a number also carries.
            let named = token.paymentMethod?.network
            let scheme = decrypted.flatMap {
                PaymentNetwork.scheme(ofAccountNumber: $0.applicationPrimaryAccountNumber, named: named)?.schemeName
            }
            let network = scheme ?? named ?? "Card"
            return CheckoutOrder.Payment(
                network: network, lastFour: decrypted?.lastFour ?? shown,
                type: token.paymentMethod?.type.flatMap { paymentMethodTypes.contains($0) ? $0 : nil },
                transactionIdentifier: transactionIdentifier,
                processorReference: processorReference)
        case .card(let card):
            var payment = CheckoutOrder.Payment(
                network: card.network ?? "Card", lastFour: card.lastFour ?? "", type: card.type,
                transactionIdentifier: transactionIdentifier, processorReference: processorReference)
            payment.method = .card
            return payment
        }
    }

    /// Issues a committed order's passes and takes it off the pass queue; one that failed for the moment leaves it
    /// there (thrown), for recovery to issue again.
    func completePasses(_ order: CheckoutOrder) async throws {
        var issued = order
        guard await issuePasses(for: &issued) else { throw PassesPending(order: order.id) }
        _ = try await store.completePasses(order: issued)
    }

    /// An order's passes not all issued for now: it stays on the pass queue.
    struct PassesPending: Error, CustomStringConvertible {
        var order: String
        var description: String { "order \(order): a pass could not be issued for now; recovery issues it again" }
    }

    /// Records this process's heartbeat, so that other processes leave the authorizations it holds alone.
    /// ``services`` does it every ``Configuration/heartbeatInterval``.
    public func recordHeartbeat() async {
        do {
            try await store.recordHeartbeat(holder: instance, at: now())
        } catch {
            logger.warning("checkout heartbeat not recorded", metadata: ["error": "\(error)"])
        }
    }

    /// Retries, with its own idempotency key, every authorization whose holder is gone: held by a process whose
    /// heartbeat has been silent for ``Configuration/holderSilence`` (killed or stopped in the middle of it), held
    /// by a process before this one on an ``Configuration/exclusiveStore`` when `startingUp`, or held by anyone for
    /// longer than ``Configuration/authorizationLease`` (the last resort: a processor that did not answer); and issues
    /// the passes of committed orders still on the pass queue. ``services`` runs it at start-up and every
    /// ``Configuration/recoveryInterval``; it is safe to run in several processes at once, and never takes an
    /// authorization a live process is still working on before its lease runs out.
    /// - Parameter startingUp: Whether this is the run at the process's start.
    /// - Returns: How many authorizations and orders it finished.
    @discardableResult
    public func recoverAuthorizations(startingUp: Bool = false) async -> Int {
        var finished = 0
        do {
            let date = now()
            let otherHolders: RecoverableAuthorizations.OtherHolders = startingUp && configuration.exclusiveStore
                ? .all : .silentSince(date.addingTimeInterval(-configuration.holderSilence))
            // One at a time, each leased when its turn comes: a lease taken for 50 at once would run out for the
            // last of them while the first wait on a slow processor, and another process would take them over.
            for _ in 0..<50 {
                let leasedAt = now()
                guard var session = try await store.leaseRecoverableAuthorizations(
                    .init(leaseExpiredBefore: leasedAt.addingTimeInterval(-configuration.authorizationLease),
                          otherHolders: otherHolders),
                    holder: instance, now: leasedAt, limit: 1).first
                else { break }
                guard let attempt = session.authorization else { continue }
                do {
                    // Its holder is gone, or it was held past its lease (a stuck call): whether the processor
                    // charged is not known.
                    if session.state == .authorizing {
                        session.state = .processorUnknown
                        guard try await store.updateAuthorizingSession(session, attempt: attempt.idempotencyKey)
                        else { continue }
                    }
                    let (posted, contacts) = try PostedPayment.parse(attempt.payment)
                    var payment: DecryptedPaymentData?
                    if case .applePay(let token) = posted, !processor.forwardsEncryptedToken {
                        payment = try decrypt(token)
                    }
                    _ = try await settle(session, posted: posted, payment: payment, contacts: contacts)
                    finished += 1
                } catch let failure as AuthorizationFailure {
                    let code = failure.result.code ?? ""
                    let metadata: Logger.Metadata = [
                        "session": "\(session.id)", "code": "\(code)",
                        "detail": "\(failure.detail ?? failure.result.reason ?? "")",
                    ]
                    if ["processorUnknown", "declined"].contains(code) {
                        // Logged where settled (no answer again, or declined and released).
                        logger.debug("held authorization retried", metadata: metadata)
                    } else {
                        // Held for good until it is settled by hand (a token that no key decrypts any longer, after
                        // a key rotation): money may have been taken.
                        logger.error("""
                            held authorization cannot be retried: it stays held, and may have been charged; reconcile \
                            it with the processor
                            """, metadata: metadata)
                    }
                } catch {
                    logger.error("held authorization could not be retried",
                                 metadata: ["session": "\(session.id)", "error": "\(error)"])
                }
            }
            for order in try await store.ordersOwingPasses(limit: 50) {
                do {
                    try await completePasses(order)
                    finished += 1
                } catch {
                    logger.warning("order passes left on the queue", metadata: ["order": "\(order.id)", "error": "\(error)"])
                }
            }
        } catch {
            logger.error("checkout recovery failed", metadata: ["error": "\(error)"])
        }
        return finished
    }
}
