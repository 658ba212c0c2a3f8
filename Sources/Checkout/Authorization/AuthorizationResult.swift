public import PaymentRequest
public import HTTPTypes

/// The answer to an authorization, shaped like Apple Pay JS's `ApplePayPaymentAuthorizationResult` so the page can
/// hand it to `completePayment`: `status` is the name of the `ApplePaySession` constant (`STATUS_SUCCESS`,
/// `STATUS_FAILURE`), `errors` the `ApplePayError`s to show, `orderDetails` the Wallet order Wallet adds to the
/// buyer's device; Tessera adds the order, or a code and reason.
public struct AuthorizationResult: Codable, Sendable, Equatable {
    /// `STATUS_SUCCESS` or `STATUS_FAILURE`.
    public var status: String
    /// Problems the sheet shows.
    public var errors: [ApplePayError]
    /// The order created, on success.
    public var orderId: String?
    /// Where to read the order, on success.
    public var orderURL: String?
    /// Apple Pay JS's `orderDetails`: the Wallet order issued for the order, when the merchant names an Order Type
    /// ID (`walletOrders`) and it could be issued.
    public var orderDetails: ApplePayPaymentOrderDetails?
    /// Why it failed, as a code (`amountMismatch`, `transactionReplayed`, `signatureInvalid`, ...).
    public var code: String?
    /// Why it failed, in words.
    public var reason: String?

    /// A success for an order.
    /// - Parameters:
    ///   - orderId: The order.
    ///   - orderURL: Its URL.
    ///   - walletOrder: The Wallet order issued for it, if any.
    /// - Returns: `STATUS_SUCCESS`.
    public static func success(orderId: String, orderURL: String, walletOrder: WalletOrderDetails? = nil)
        -> AuthorizationResult
    {
        AuthorizationResult(status: "STATUS_SUCCESS", errors: [], orderId: orderId, orderURL: orderURL,
                            orderDetails: walletOrder.map(ApplePayPaymentOrderDetails.init))
    }
}

/// A refused authorization: its HTTP status and the result body, which the HTTP module answers as it is (Apple Pay
/// JS's result, not the error envelope). The body's `reason` and `errors` are short sentences a buyer can read;
/// ``detail`` (hashes, library messages) goes only to the server log, at debug level.
public struct AuthorizationFailure: Error, Sendable {
    /// The HTTP status the refusal is answered with.
    public let status: HTTPResponse.Status
    /// The result body (`STATUS_FAILURE`, the errors to show, a code and a reason).
    public let result: AuthorizationResult
    /// What went wrong in detail, for the server log only.
    public let detail: String?

    init(_ status: HTTPResponse.Status, code: String, _ reason: String, detail: String? = nil,
         errors: [ApplePayError]? = nil) {
        self.status = status
        self.detail = detail
        let shown = errors ?? [ApplePayError(code: .unknown, message: reason)]
        result = AuthorizationResult(status: "STATUS_FAILURE", errors: shown, code: code, reason: reason)
    }

    /// No Apple root certificate or payment-processing key is configured.
    static let applePayNotConfigured = AuthorizationFailure(
        .serviceUnavailable, code: "notConfigured", "Apple Pay is not available for this shop at the moment.",
        detail: "no Apple root certificate or payment-processing key is configured")

    /// The session is past its lifetime (``CheckoutService/Configuration/sessionLifetime``): its prices, coupon and
    /// shipping are no longer offered.
    static let sessionExpired = AuthorizationFailure(
        .gone, code: "sessionExpired", "This checkout has expired. Please start again.")

    /// The session is held by another authorization, or already paid.
    static func notPending(_ state: CheckoutSession.State?) -> AuthorizationFailure {
        switch state {
        case .authorized?:
            AuthorizationFailure(.conflict, code: "sessionNotPending", "This order has already been paid.")
        case .authorizing?, .processorUnknown?:
            AuthorizationFailure(.conflict, code: "authorizationInProgress",
                                 "This order is already being paid. Please wait for its confirmation.")
        default:
            AuthorizationFailure(.notFound, code: "notFound", "This checkout no longer exists.")
        }
    }
}
