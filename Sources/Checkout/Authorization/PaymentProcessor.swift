public import Foundation
public import PaymentToken
import Synchronization

/// A verified payment on its way to a payment gateway: an Apple Pay payment (decrypted, or its encrypted token) or a
/// card payment from the sheet's payment step (the gateway's token for the card). Only the processor sees the account
/// number and cryptogram (in ``paymentData``); nothing else in Tessera stores or logs them.
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
    /// The Apple Pay token as the device sent it, still encrypted (for gateways that decrypt it themselves); `nil`
    /// for a card payment.
    public var token: ApplePayPaymentToken?
    /// The sheet's card payment (the gateway's token for the card); `nil` for Apple Pay.
    public var cardPayment: CardPayment?
    /// What the sheet showed for the card (network, type, display name).
    public var paymentMethod: ApplePayPaymentToken.PaymentMethod?
    /// The Apple Pay token's transaction identifier (hex), or `card-<SHA-256 of the card token>`.
    public var transactionIdentifier: String

    /// Creates a request.
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - orderId: The order.
    ///   - idempotencyKey: The attempt's idempotency key.
    ///   - amount: The amount.
    ///   - currencyCode: The currency.
    ///   - paymentData: The decrypted Apple Pay payment.
    ///   - token: The Apple Pay token.
    ///   - cardPayment: The card payment.
    ///   - paymentMethod: The card as the sheet showed it.
    ///   - transactionIdentifier: The transaction identifier.
    public init(sessionId: String, orderId: String, idempotencyKey: String, amount: Decimal, currencyCode: String,
                paymentData: DecryptedPaymentData? = nil, token: ApplePayPaymentToken? = nil,
                cardPayment: CardPayment? = nil, paymentMethod: ApplePayPaymentToken.PaymentMethod? = nil,
                transactionIdentifier: String) {
        self.sessionId = sessionId
        self.orderId = orderId
        self.idempotencyKey = idempotencyKey
        self.amount = amount
        self.currencyCode = currencyCode
        self.paymentData = paymentData
        self.token = token
        self.cardPayment = cardPayment
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
    }

    init(sessionId: String, orderId: String, idempotencyKey: String, amount: Decimal, currencyCode: String,
         posted: PostedPayment, paymentData: DecryptedPaymentData?, transactionIdentifier: String) {
        switch posted {
        case .applePay(let token):
            self.init(sessionId: sessionId, orderId: orderId, idempotencyKey: idempotencyKey, amount: amount,
                      currencyCode: currencyCode, paymentData: paymentData, token: token,
                      paymentMethod: token.paymentMethod, transactionIdentifier: transactionIdentifier)
        case .card(let card):
            self.init(sessionId: sessionId, orderId: orderId, idempotencyKey: idempotencyKey, amount: amount,
                      currencyCode: currencyCode, cardPayment: card,
                      paymentMethod: ApplePayPaymentToken.PaymentMethod(displayName: nil, network: card.network,
                                                                       type: card.type),
                      transactionIdentifier: transactionIdentifier)
        }
    }
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
                                        lastFour: request.paymentData?.lastFour ?? request.cardPayment?.lastFour ?? ""))
            return .approved(reference: "rec_\(request.orderId)")
        }
    }
}
