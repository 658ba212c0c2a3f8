public import Foundation
public import PaymentToken
import Synchronization

/// A verified, decrypted payment on its way to a payment gateway. Only the processor sees the account number and
/// cryptogram (in ``paymentData``); nothing else in Tessera stores or logs them.
public struct PaymentProcessingRequest: Sendable {
    /// The checkout session.
    public var sessionId: String
    /// The order being created.
    public var orderId: String
    /// The gateway's idempotency key: one per session and attempt (`<session id>-<n>`), the same on every retry
    /// of the attempt (timeouts, restarts), a new one only after a decline.
    public var idempotencyKey: String
    /// The amount, in major units.
    public var amount: Decimal
    /// The ISO 4217 alphabetic currency.
    public var currencyCode: String
    /// The decrypted payment data: account number, expiry, cryptogram, ECI; `nil` when the processor takes the
    /// encrypted token (``PaymentProcessor/forwardsEncryptedToken``).
    public var paymentData: DecryptedPaymentData?
    /// The Apple Pay token as the device sent it, still encrypted (for gateways that decrypt it themselves).
    public var token: ApplePayPaymentToken
    /// What the sheet showed for the card (network, type, display name).
    public var paymentMethod: ApplePayPaymentToken.PaymentMethod?
    /// The token's transaction identifier (hex).
    public var transactionIdentifier: String
}

/// What the processor decided.
public struct PaymentProcessingResult: Sendable, Equatable {
    /// Whether the payment was authorized.
    public var approved: Bool
    /// The order status to record, such as `authorized` or `captured`.
    public var status: String
    /// The gateway's reference.
    public var reference: String?
    /// Why it was declined, in words the buyer may see.
    public var message: String?

    /// An approval.
    /// - Parameters:
    ///   - status: The order status.
    ///   - reference: The gateway's reference.
    /// - Returns: An approved result.
    public static func approved(status: String = "authorized", reference: String? = nil) -> PaymentProcessingResult {
        PaymentProcessingResult(approved: true, status: status, reference: reference, message: nil)
    }

    /// A decline.
    /// - Parameter message: Why.
    /// - Returns: A declined result.
    public static func declined(_ message: String) -> PaymentProcessingResult {
        PaymentProcessingResult(approved: false, status: "declined", reference: nil, message: message)
    }
}

/// Charges a verified payment: a real gateway (Adyen, Stripe, a bank's API) plugs in here.
public protocol PaymentProcessor: Sendable {
    /// Authorizes (or captures) the payment.
    /// - Parameter request: The decrypted payment and the amount to charge.
    /// - Returns: Approved or declined.
    /// - Throws: When the gateway cannot be reached; the buyer sees a failure and may retry.
    func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult

    /// Whether the processor takes the encrypted token and decrypts it itself (most gateways do): Tessera then
    /// verifies the token's signature and session but does not decrypt it, so no payment-processing key is needed
    /// and the gateway checks the amount.
    var forwardsEncryptedToken: Bool { get }
}

extension PaymentProcessor {
    /// Processors receive the decrypted payment unless they say otherwise.
    public var forwardsEncryptedToken: Bool { false }
}

/// The built-in processor: approves every payment and records it (order, amount, network, last four digits; never
/// the account number or cryptogram), for development, tests and merchants who charge later from the orders.
public final class RecordingPaymentProcessor: PaymentProcessor {
    /// One recorded authorization.
    public struct Record: Sendable, Equatable {
        /// The order.
        public var orderId: String
        /// The idempotency key.
        public var idempotencyKey: String
        /// The amount.
        public var amount: Decimal
        /// The currency.
        public var currencyCode: String
        /// The network, when known.
        public var network: String?
        /// Last four digits of the account number.
        public var lastFour: String
    }

    private let state = Mutex<(records: [Record], declineMessage: String?)>(([], nil))

    /// Creates a processor.
    /// - Parameter declineMessage: Decline every payment with this message instead (to test failures).
    public init(declineMessage: String? = nil) {
        state.withLock { $0.declineMessage = declineMessage }
    }

    /// Everything recorded, oldest first.
    public var records: [Record] { state.withLock { $0.records } }

    /// Records and approves (or declines when told to).
    /// - Parameter request: The payment.
    /// - Returns: `authorized` with reference `rec_<order id>`, or the configured decline.
    public func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult {
        state.withLock { state in
            if let message = state.declineMessage { return .declined(message) }
            state.records.append(Record(orderId: request.orderId, idempotencyKey: request.idempotencyKey,
                                        amount: request.amount,
                                        currencyCode: request.currencyCode, network: request.paymentMethod?.network,
                                        lastFour: request.paymentData?.lastFour ?? ""))
            return .approved(reference: "rec_\(request.orderId)")
        }
    }
}
