public import PaymentRequest

/// A session as the API shows it.
public struct SessionView: Encodable, Sendable {
    /// The session identifier (`cs_...`).
    public var id: String
    /// `pending`, `authorizing`, `processorUnknown` or `authorized`.
    public var state: String
    /// When it was created, ISO 8601.
    public var createdAt: String
    /// When it stops taking updates and payments, ISO 8601.
    public var expiresAt: String
    /// The ISO 4217 currency.
    public var currencyCode: String
    /// The cart lines.
    public var items: [CartLineView]
    /// The shipping method chosen.
    public var selectedShippingMethod: String?
    /// The redacted shipping contact given on the sheet.
    public var shippingContact: RedactedContact?
    /// The coupon applied.
    public var couponCode: String?
    /// The order, once paid.
    public var orderId: String?
    /// The Apple Pay payment request for the session as it stands.
    public var paymentRequest: ApplePayPaymentRequest
    /// The browser payment sheet's path.
    public var sheetURL: String
    /// Reads and updates the session and its order (header `Checkout-Client-Secret`); shown to its creator and
    /// the merchant only.
    public var clientSecret: String?
}

/// A session just created, or the one an `Idempotency-Key` created before.
public struct CreatedSession: Sendable {
    /// The session as the API shows it.
    public var view: SessionView
    /// Whether the key was used before with the same body, so the stored session is shown again.
    public var replayed: Bool
}

/// A cart line as sessions and orders show it: amounts as currency strings.
public struct CartLineView: Encodable, Sendable {
    /// The catalogue product, if any.
    public var sku: String?
    /// The line's name.
    public var name: String
    /// How many.
    public var quantity: Int
    /// The unit price.
    public var unitPrice: String
    /// The line total.
    public var amount: String
}

/// An order as the confirmation shows it.
public struct OrderView: Encodable, Sendable {
    /// How the order was paid.
    public struct Payment: Encodable, Sendable {
        /// `applePay` or `card` (the sheet's payment step).
        public var method: String
        /// `Visa 1234`.
        public var displayName: String
        /// The card network.
        public var network: String
        /// The card's last four digits.
        public var lastFour: String
        /// `debit`, `credit`, ...
        public var type: String?
    }

    /// The order identifier (`ord_...`).
    public var id: String
    /// The session it was paid from.
    public var sessionId: String
    /// The processor's status, such as `paid`.
    public var status: String
    /// When it was created, ISO 8601.
    public var createdAt: String
    /// The ISO 4217 currency.
    public var currencyCode: String
    /// The total charged.
    public var total: String
    /// The Apple Pay line items charged.
    public var lineItems: [ApplePayLineItem]
    /// The cart lines.
    public var items: [CartLineView]
    /// The shipping method.
    public var shippingMethod: String?
    /// The coupon applied.
    public var couponCode: String?
    /// How it was paid.
    public var payment: Payment
    /// The billing contact of the payment.
    public var billingContact: ApplePayPaymentContact?
    /// The shipping contact of the payment.
    public var shippingContact: ApplePayPaymentContact?
    /// The passes issued for it.
    public var passes: [CheckoutOrder.Pass]
    /// What could not be done (passes not issued).
    public var notes: [String]
    /// The Wallet order, with its `.order` download link.
    public var walletOrder: WalletOrderDetails?
}

/// An HTML page of the checkout (the payment sheet, a product's buy page), rendered by the service.
public struct CheckoutPage: Sendable, Equatable {
    /// The page.
    public var html: String
    /// The page's `Content-Security-Policy`.
    public var contentSecurityPolicy: String
    /// `false` for the page that says the product does not exist (answered 404).
    public var found: Bool
}
