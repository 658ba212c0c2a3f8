import Checkout
import Foundation
import OrderModel
import PassModel
import PaymentRequest
import Testing
import TesseraTestSupport

/// The Wallet order a checkout order becomes: merged into the repository's order template, it must be an order
/// Wallet accepts, showing what was bought, how it was paid and how it arrives.
@Suite("Wallet order data built from a checkout order")
struct WalletOrderDataTests {
    static let walletOrders = MerchantConfiguration.WalletOrdersConfiguration(
        orderTypeIdentifier: "order.dev.tessera.test", template: "shop-order",
        orderManagementURL: "https://shop.example.test/orders/{orderId}")

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// Wednesday 6 May 2026, 10:00 UTC.
    static let wednesday = Date(timeIntervalSince1970: 1_778_061_600)

    /// A paid order: a ticket and a T-shirt with SAVE10, express shipping and tax (83.20), paid with Apple Pay.
    static func checkoutOrder(shippingMethod: String? = "express", contacts: Bool = true) -> CheckoutOrder {
        var order = CheckoutOrder(
            id: "ord_wallet000000000000000001", sessionId: "cs_1", createdAt: wednesday, status: "authorized",
            currencyCode: "USD", total: Decimal(string: "83.20")!,
            lineItems: [
                ApplePayLineItem(label: "Subtotal", amount: "70.00"),
                ApplePayLineItem(label: "Coupon SAVE10", amount: "-7.00"),
                ApplePayLineItem(label: "Express", amount: "15.00"),
                ApplePayLineItem(label: "Sales Tax", amount: "5.20"),
            ],
            items: [
                CartLine(sku: "TICKET-GA", name: "The Midnight Echo - General Admission", quantity: 1, unitPrice: 45,
                         requiresShipping: false),
                CartLine(sku: "TSHIRT", name: "Tour T-shirt", quantity: 2, unitPrice: Decimal(string: "12.5")!),
            ],
            payment: CheckoutOrder.Payment(network: "Visa", lastFour: "1234", type: "debit", transactionIdentifier: "ab"))
        order.shippingMethod = shippingMethod
        if contacts {
            order.billingContact = ApplePayPaymentContact(givenName: "Grace", familyName: "Hopper",
                                                          emailAddress: "grace@example.test")
            var shipping = ApplePayPaymentContact(givenName: "Grace", familyName: "Hopper", phoneNumber: "+1 415 555 0100")
            shipping.addressLines = ["1 Infinite Loop"]
            shipping.locality = "Cupertino"
            shipping.administrativeArea = "CA"
            shipping.postalCode = "95014"
            shipping.countryCode = "us"
            order.shippingContact = shipping
        }
        return order
    }

    static func merchant() -> MerchantConfiguration {
        var merchant = CheckoutFixture.merchantConfiguration()
        merchant.walletOrders = walletOrders
        var pickup = MerchantConfiguration.ShippingMethod(identifier: "pickup", label: "Pick up in store", amount: 0,
                                                          businessDays: 2...4)
        pickup.pickup = .init(displayName: "Tessera Store, Market Street", notes: "Ask at the counter")
        merchant.shippingMethods.append(pickup)
        return merchant
    }

    /// The order's data merged into `OrderTemplates/shop-order`, checked by the validator, and decoded.
    static func merged(_ order: CheckoutOrder) throws -> Order {
        let data = try WalletOrderData(merchant: merchant(), walletOrders: walletOrders,
                                       currency: Currency(code: "USD")!, calendar: utc).data(for: order)
        let template = try OrderTemplate(
            directory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"))
        let orderJSON = try template.orderJSON(applying: data)
        let report = OrderValidator().validate(orderJSON: orderJSON, files: template.files)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        return try Order(jsonData: orderJSON)
    }

    @Test("A shipped order validates and shows its items, total, payment method and shipping with its window")
    func shipped() throws {
        let order = try Self.merged(Self.checkoutOrder())
        #expect(order.orderTypeIdentifier == "order.dev.tessera.test")
        #expect(order.orderIdentifier == "ord_wallet000000000000000001")
        #expect(order.orderType == "ecommerce")
        #expect(order.status == "open")
        #expect(order.createdAt == "2026-05-06T10:00:00Z")
        #expect(order.updatedAt == order.createdAt)
        #expect(order.orderManagementURL == "https://shop.example.test/orders/ord_wallet000000000000000001")
        #expect(order.merchant?.displayName == "Tessera Arena")
        #expect(order.merchant?.merchantIdentifier == CheckoutFixture.merchantID)
        #expect(order.merchant?.url == "https://shop.example.com", "the template's constant parts stay")
        #expect(order.merchant?.logo == "logo.png")
        // The customer is the buyer's, never mixed with the template's sample customer.
        #expect(order.customer?.givenName == "Grace")
        #expect(order.customer?.emailAddress == "grace@example.test")
        #expect(order.customer?.phoneNumber == "+1 415 555 0100")

        let items = try #require(order.lineItems)
        #expect(items.map(\.title) == ["The Midnight Echo - General Admission", "Tour T-shirt"])
        #expect(items.map(\.quantity) == [1, 2])
        #expect(items.map { $0.price?.amount } == ["45.00", "12.50"])
        #expect(items.map { $0.price?.currency } == ["USD", "USD"])
        #expect(items.map(\.sku) == ["TICKET-GA", "TSHIRT"])

        let payment = try #require(order.payment)
        #expect(payment.total?.amount == "83.20")
        #expect(payment.total?.currency == "USD")
        #expect(payment.status == "authorized")
        #expect(payment.paymentMethods == ["Visa ••••1234"])
        // The charge as Apple's PaymentTransaction: amount, card, status, time and the Apple Pay transaction.
        let transaction = try #require(payment.transactions?.first)
        #expect(payment.transactions?.count == 1)
        #expect(transaction.amount == OrderCurrencyAmount(amount: "83.20", currency: "USD"))
        #expect(transaction.createdAt == "2026-05-06T10:00:00Z")
        #expect(transaction.paymentMethod?.displayName == "Visa ••••1234")
        #expect(transaction.status == "approved")
        #expect(transaction.transactionType == "purchase")
        #expect(transaction.applePayTransactionIdentifier == "ab")
        // The discount is not an amount paid: Apple's summary items leave it out.
        #expect(payment.summaryItems?.map(\.label) == ["Subtotal", "Express", "Sales Tax"])
        #expect(payment.summaryItems?.map { $0.value?.amount } == ["70.00", "15.00", "5.20"])

        let fulfillments = try #require(order.fulfillments)
        #expect(fulfillments.count == 1)
        guard case .shipping(let shipping) = try #require(fulfillments.first) else {
            Issue.record("not a shipping fulfillment: \(fulfillments)")
            return
        }
        #expect(shipping.status == "open")
        #expect(shipping.shippingType == "shipping")
        #expect(shipping.fulfillmentIdentifier == "ord_wallet000000000000000001-1")
        // Express is 1-2 business days: Thursday and Friday.
        #expect(shipping.estimatedDeliveryAt == "2026-05-07T00:00:00Z")
        #expect(shipping.estimatedDeliveryWindowDuration == "P2D")
        #expect(shipping.recipient?.givenName == "Grace")
        #expect(shipping.recipient?.address?.locality == "Cupertino")
        #expect(shipping.recipient?.address?.countryCode == "US")
        #expect(shipping.recipient?.address?.addressLines == ["1 Infinite Loop"])
        // Apple's recipient has no contact details: those are the customer's.
        #expect(shipping.recipient?.unknownKeys.isEmpty == true)
    }

    @Test("A pickup method becomes a pickup fulfillment with its place and window")
    func pickup() throws {
        let order = try Self.merged(Self.checkoutOrder(shippingMethod: "pickup"))
        let fulfillments = try #require(order.fulfillments)
        guard case .pickup(let pickup) = try #require(fulfillments.first), fulfillments.count == 1 else {
            Issue.record("not one pickup fulfillment: \(fulfillments)")
            return
        }
        #expect(pickup.status == "open")
        #expect(pickup.displayName == "Tessera Store, Market Street")
        #expect(pickup.notes == "Ask at the counter")
        // 2-4 business days from a Wednesday: Friday to Tuesday, across the weekend.
        #expect(pickup.pickupAt == "2026-05-08T00:00:00Z")
        #expect(pickup.pickupWindowDuration == "P5D")
    }

    @Test("An order that ships nothing and has no contacts keeps none of the template's sample customer or shipment")
    func nothingShipped() throws {
        let order = try Self.merged(Self.checkoutOrder(shippingMethod: nil, contacts: false))
        #expect(order.customer == nil)
        #expect(order.fulfillments == nil)
        #expect(order.payment?.paymentMethods == ["Visa ••••1234"])
    }

    @Test("A processor's status maps to Apple's payment status")
    func paymentStatus() throws {
        var order = Self.checkoutOrder()
        order.status = "captured"
        #expect(try Self.merged(order).payment?.status == "paid")
        #expect(try Self.merged(order).payment?.transactions?.first?.status == "completed")
        order.status = "declined"
        #expect(try Self.merged(order).payment?.transactions?.first?.status == "failed")
        order.status = "pending-review"
        #expect(try Self.merged(order).payment?.status == "authorized")
    }
}
