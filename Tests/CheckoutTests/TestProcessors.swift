import Checkout
import Foundation
import Synchronization

/// A payment processor for tests: counts calls, remembers each call's idempotency key and order, takes a little
/// time (so concurrent authorizations overlap), and can fail the first calls (no answer) or decline them.
final class CountingProcessor: PaymentProcessor {
    struct Call: Sendable, Equatable {
        var sessionId: String
        var orderId: String
        var idempotencyKey: String
        /// The card payment's gateway token, for a payment from the sheet's payment step.
        var cardToken: String? = nil
        /// Whether an Apple Pay token or decrypted payment came with the call.
        var applePay = false
    }

    private struct State {
        var calls: [Call] = []
        var failuresLeft: Int
        var declinesLeft: Int
    }

    private let state: Mutex<State>
    let delay: Duration

    init(delay: Duration = .milliseconds(20), failFirst: Int = 0, declineFirst: Int = 0) {
        state = Mutex(State(failuresLeft: failFirst, declinesLeft: declineFirst))
        self.delay = delay
    }

    var calls: [Call] { state.withLock { $0.calls } }

    struct NoAnswer: Error {}

    func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult {
        let call = Call(sessionId: request.sessionId, orderId: request.orderId, idempotencyKey: request.idempotencyKey,
                        cardToken: request.cardPayment?.token,
                        applePay: request.token != nil || request.paymentData != nil)
        state.withLock { $0.calls.append(call) }
        try await Task.sleep(for: delay)
        let outcome: Int = state.withLock { state in
            if state.failuresLeft > 0 { state.failuresLeft -= 1; return 0 }
            if state.declinesLeft > 0 { state.declinesLeft -= 1; return 1 }
            return 2
        }
        switch outcome {
        case 0: throw NoAnswer()
        case 1: return .declined("Your card was declined.")
        default: return .approved(reference: "ref-\(request.idempotencyKey)")
        }
    }
}

/// A processor whose first call waits until released (a call recovery overtakes); later calls approve at once.
final class SlowFirstProcessor: PaymentProcessor {
    private let state = Mutex((calls: 0, released: false))

    var calls: Int { state.withLock { $0.calls } }
    func releaseFirst() { state.withLock { $0.released = true } }

    func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult {
        let call = state.withLock { state in
            state.calls += 1
            return state.calls
        }
        if call == 1 {
            let deadline = ContinuousClock.now + .seconds(60)
            while !state.withLock({ $0.released }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return .approved(reference: "ref-\(request.idempotencyKey)")
    }
}
