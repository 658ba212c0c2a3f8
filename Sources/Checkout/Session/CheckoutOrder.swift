public import Foundation
public import PaymentRequest

/// A paid checkout: what was bought, for how much, how it was paid (never the card number or cryptogram), where it
/// goes, and the Wallet passes issued for it.
public struct CheckoutOrder: Codable, Sendable, Equatable {
    /// How the order was paid, as safe to show and store.
    public struct Payment: Codable, Sendable, Equatable {
        /// How the buyer paid.
        public enum Method: String, Codable, Sendable {
            /// Apple Pay.
            case applePay
            /// A card on the sheet's payment step (the merchant's gateway).
            case card
        }

        /// How the buyer paid; `nil` (orders recorded before card payments existed) is Apple Pay.
        public var method: Method?
        /// The card network, such as `Visa`.
        public var network: String
        /// The last four digits of the account number.
        public var lastFour: String
        /// `debit`, `credit`, `prepaid`, `store`, when known.
        public var type: String?
        /// The token's transaction identifier (hex).
        public var transactionIdentifier: String
        /// The processor's reference for the authorization.
        public var processorReference: String?

        /// Creates a payment description.
        /// - Parameters:
        ///   - network: The network.
        ///   - lastFour: Last four digits.
        ///   - type: Card type.
        ///   - transactionIdentifier: The transaction identifier.
        ///   - processorReference: The processor's reference.
        public init(network: String, lastFour: String, type: String? = nil, transactionIdentifier: String,
                    processorReference: String? = nil) {
            self.network = network
            self.lastFour = lastFour
            self.type = type
            self.transactionIdentifier = transactionIdentifier
            self.processorReference = processorReference
        }

        /// `Visa ••••1234 (Apple Pay)`, or `Visa ••••4242` for a card paid on the sheet's payment step.
        public var displayName: String {
            let card = lastFour.isEmpty ? network : "\(network) ••••\(lastFour)"
            return method == .card ? card : "\(card) (Apple Pay)"
        }
    }

    /// A Wallet pass issued for an item.
    public struct Pass: Codable, Sendable, Equatable {
        /// The item's SKU.
        public var sku: String?
        /// The template it was made from.
        public var template: String
        /// The pass's type identifier.
        public var passTypeIdentifier: String
        /// Its serial number.
        public var serialNumber: String
        /// The holder's download link.
        public var downloadURL: String

        /// Creates a pass link.
        /// - Parameters:
        ///   - sku: The item's SKU.
        ///   - template: The template.
        ///   - passTypeIdentifier: Type identifier.
        ///   - serialNumber: Serial number.
        ///   - downloadURL: Download link.
        public init(sku: String?, template: String, passTypeIdentifier: String, serialNumber: String, downloadURL: String) {
            self.sku = sku
            self.template = template
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
            self.downloadURL = downloadURL
        }
    }

    /// The order's identifier.
    public var id: String
    /// The session it came from.
    public var sessionId: String
    /// When it was authorized.
    public var createdAt: Date
    /// `authorized` (the built-in processor) or whatever the processor reports.
    public var status: String
    /// The currency.
    public var currencyCode: String
    /// The total charged.
    public var total: Decimal
    /// The line items as the sheet showed them (subtotal, discount, shipping, tax).
    public var lineItems: [ApplePayLineItem]
    /// What was bought.
    public var items: [CartLine]
    /// The shipping method chosen.
    public var shippingMethod: String?
    /// The coupon applied.
    public var couponCode: String?
    /// How it was paid.
    public var payment: Payment
    /// The billing contact from the payment.
    public var billingContact: ApplePayPaymentContact?
    /// The shipping contact from the payment.
    public var shippingContact: ApplePayPaymentContact?
    /// Passes issued for the items.
    public var passes: [Pass]
    /// Remarks, such as a pass that could not be issued.
    public var notes: [String]
    /// The Wallet order issued for it, when the merchant names an Order Type ID (`walletOrders`) and it was issued;
    /// orders stored before Wallet orders have none.
    public var walletOrder: WalletOrderDetails?

    /// Creates an order.
    /// - Parameters:
    ///   - id: Identifier.
    ///   - sessionId: The session.
    ///   - createdAt: When.
    ///   - status: Status.
    ///   - currencyCode: Currency.
    ///   - total: Total.
    ///   - lineItems: Line items.
    ///   - items: Items bought.
    ///   - payment: How it was paid.
    public init(id: String, sessionId: String, createdAt: Date, status: String, currencyCode: String, total: Decimal,
                lineItems: [ApplePayLineItem], items: [CartLine], payment: Payment) {
        self.id = id
        self.sessionId = sessionId
        self.createdAt = createdAt
        self.status = status
        self.currencyCode = currencyCode
        self.total = total
        self.lineItems = lineItems
        self.items = items
        self.payment = payment
        passes = []
        notes = []
    }
}
