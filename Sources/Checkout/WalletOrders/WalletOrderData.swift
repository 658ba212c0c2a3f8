public import Foundation
public import OrderModel
import PassModel
public import PaymentRequest

/// The Wallet order of a paid checkout order: the data document merged into the merchant's order template (which
/// holds the merchant's constant parts: `merchant.url`, the logo), in the OrderModel's types so every key is Apple's.
///
/// The order's identifier is the checkout order's, so issuing it again (a retry, recovery) names the same Wallet order.
public struct WalletOrderData: Sendable {
    /// The merchant configuration (names, shipping methods, `walletOrders`).
    public let merchant: MerchantConfiguration
    /// The Wallet orders configuration.
    public let walletOrders: MerchantConfiguration.WalletOrdersConfiguration
    /// The merchant's currency.
    public let currency: Currency
    /// The calendar business days are counted in (delivery and pickup estimates).
    public let calendar: Calendar

    /// Creates the builder of a merchant's Wallet order data.
    /// - Parameters:
    ///   - merchant: The merchant configuration.
    ///   - walletOrders: Its `walletOrders`.
    ///   - currency: The currency.
    ///   - calendar: The business-day calendar.
    public init(merchant: MerchantConfiguration, walletOrders: MerchantConfiguration.WalletOrdersConfiguration,
                currency: Currency, calendar: Calendar = Calendar(identifier: .gregorian)) {
        self.merchant = merchant
        self.walletOrders = walletOrders
        self.currency = currency
        self.calendar = calendar
    }

    /// The order keys of a checkout order: identifiers, dates, merchant, customer, line items, payment and the
    /// session's shipping method as the first fulfillment.
    /// - Parameter order: The paid checkout order.
    /// - Returns: The `order.json` keys (no `webServiceURL` or `authenticationToken`: the issuer adds them).
    public func order(for order: CheckoutOrder) -> Order {
        var wallet = Order()
        wallet.schemaVersion = 1
        wallet.orderTypeIdentifier = walletOrders.orderTypeIdentifier
        wallet.orderIdentifier = order.id
        wallet.orderType = "ecommerce"
        wallet.orderNumber = order.id
        wallet.status = "open"
        wallet.createdAt = ISO8601.string(order.createdAt)
        wallet.updatedAt = wallet.createdAt
        wallet.orderManagementURL = walletOrders.orderManagementURL(orderId: order.id)
        var seller = OrderMerchant()
        seller.displayName = merchant.displayName
        seller.merchantIdentifier = merchant.merchantIdentifier
        wallet.merchant = seller
        wallet.customer = customer(order)
        wallet.lineItems = order.items.map { item in
            var line = OrderLineItem()
            line.title = item.name
            line.quantity = Decimal(item.quantity)
            line.price = amount(item.unitPrice)
            line.sku = item.sku
            return line
        }
        wallet.payment = payment(order)
        if let fulfillment = fulfillment(order) { wallet.fulfillments = [fulfillment] }
        return wallet
    }

    /// The data document of a checkout order, as ``WalletOrderIssuing/issueWalletOrder(template:data:)`` takes it.
    ///
    /// The purchase's own keys replace the template's whole: a customer key or a fulfillment this order does not
    /// have is written as `null`, so that the template's sample values cannot mix into it.
    /// - Parameter order: The paid checkout order.
    /// - Returns: JSON object bytes.
    /// - Throws: When the order cannot be encoded.
    public func data(for order: CheckoutOrder) throws -> Data {
        guard case .object(var root) = try JSONValue(jsonData: try self.order(for: order).jsonData()) else {
            return try self.order(for: order).jsonData()
        }
        root["fulfillments"] = root["fulfillments"] ?? .null
        if case .object(var customer)? = root["customer"] {
            for key in OrderCustomer.typedKeys where customer[key] == nil { customer[key] = .null }
            root["customer"] = .object(customer)
        } else {
            root["customer"] = .null
        }
        return try JSONValue.object(root).jsonData(sortedKeys: true, prettyPrinted: false)
    }

    /// An amount as a decimal string with the currency's digits.
    func amount(_ value: Decimal) -> OrderCurrencyAmount {
        OrderCurrencyAmount(amount: Money(value, currency).string, currency: currency.code)
    }

    private func customer(_ order: CheckoutOrder) -> OrderCustomer? {
        let contacts = [order.billingContact, order.shippingContact].compactMap { $0 }
        func first(_ key: KeyPath<ApplePayPaymentContact, String?>) -> String? {
            contacts.lazy.compactMap { $0[keyPath: key] }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        var customer = OrderCustomer()
        customer.givenName = first(\.givenName)
        customer.familyName = first(\.familyName)
        // Only an address the order validator takes: an order paid before addresses were checked still gets its
        // Wallet order, without the address.
        customer.emailAddress = contacts.lazy.compactMap(\.emailAddress).first(where: EmailAddress.isPlausible)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        customer.phoneNumber = first(\.phoneNumber)
        return customer == OrderCustomer() ? nil : customer
    }

    private func payment(_ order: CheckoutOrder) -> OrderPayment {
        var payment = OrderPayment()
        payment.total = amount(order.total)
        payment.status = Self.paymentStatus(order.status)
        let card = order.payment
        let displayName = card.lastFour.isEmpty ? card.network : "\(card.network) ••••\(card.lastFour)"
        payment.paymentMethods = [displayName]
        // The one charge of the checkout, as Apple's PaymentTransaction: its amount, card, status and time.
        var transaction = OrderPaymentTransaction()
        transaction.amount = amount(order.total)
        transaction.createdAt = ISO8601.string(order.createdAt)
        var method = OrderPaymentMethod()
        method.displayName = displayName
        transaction.paymentMethod = method
        transaction.status = Self.transactionStatus(payment.status ?? "authorized")
        transaction.transactionType = "purchase"
        if card.method != .card, !card.transactionIdentifier.isEmpty {
            transaction.applePayTransactionIdentifier = card.transactionIdentifier
        }
        payment.transactions = [transaction]
        // Apple's summary items are amounts paid: a discount (a negative line) and a pending line are left out.
        payment.summaryItems = order.lineItems.compactMap { line in
            guard !line.isPending, let value = line.amountValue, value >= 0 else { return nil }
            var item = OrderSummaryItem()
            item.label = line.label
            item.value = amount(value)
            return item
        }
        return payment
    }

    /// The purchase transaction's status (Apple's `PaymentTransaction.status`) for the payment's status: a paid
    /// (or later refunded) purchase is `completed`, an authorized one `approved`, a declined one `failed`, a voided
    /// one `cancelled`.
    static func transactionStatus(_ paymentStatus: String) -> String {
        switch paymentStatus {
        case "paid", "refunded": "completed"
        case "pending": "pending"
        case "declined": "failed"
        case "voided": "cancelled"
        default: "approved"
        }
    }

    /// Apple's payment status for a processor's order status: `captured` and the like are `paid`, an unknown one
    /// `authorized` (the money is taken before the Wallet order is issued).
    static func paymentStatus(_ status: String) -> String {
        if OrderStatusValues.payment.contains(status) { return status }
        return ["captured", "settled", "succeeded", "charged"].contains(status) ? "paid" : "authorized"
    }
}
