import Checkout
import Foundation
import PaymentRequest

/// Sessions and orders with every field set, so a round trip through a store shows any field it loses.
enum CheckoutFixtures {
    /// A time with a fraction of a second, which every store must keep exactly.
    static let now = Date(timeIntervalSince1970: 1_750_000_000.123_456)

    /// A pending session with a cart, a chosen shipping method, a redacted contact and a coupon.
    static func session(_ id: String, key: String? = nil) -> CheckoutSession {
        var session = CheckoutSession(
            id: id, idempotencyKey: key ?? "key-\(id)", requestHash: "hash-\(id)", createdAt: now,
            items: [
                CartLine(sku: "TICKET-GA", name: "General admission", quantity: 2, unitPrice: Decimal(string: "19.99")!),
                CartLine(name: "Gift card", quantity: 1, unitPrice: Decimal(string: "0.1")!, requiresShipping: false),
            ],
            summary: PricedSummary(subtotal: Decimal(string: "40.08")!, tax: Decimal(string: "3.3066")!)
        )
        session.selectedShippingMethod = "express"
        var contact = ApplePayPaymentContact(givenName: "Ada", familyName: "Lovelace")
        contact.locality = "Cupertino"
        contact.administrativeArea = "CA"
        contact.postalCode = "95014"
        contact.countryCode = "us"
        session.shippingContact = RedactedContact(contact)
        session.couponCode = "SPRING10"
        session.total = Decimal(string: "47.39")!
        session.totalPending = true
        return session
    }

    /// The session as authorization leaves it: authorized, pointing at its order.
    static func authorized(_ session: CheckoutSession, orderId: String) -> CheckoutSession {
        var session = session
        session.state = .authorized
        session.orderId = orderId
        session.totalPending = false
        return session
    }

    /// The session as a claim leaves it: authorizing, with its attempt.
    static func claimed(_ session: CheckoutSession, orderId: String, transaction: String = "tx") -> CheckoutSession {
        var session = session.nextRevision()
        session.state = .authorizing
        session.authorizationAttempts = 1
        session.authorization = AuthorizationAttempt(
            orderId: orderId, idempotencyKey: "\(session.id)-1", transactionIdentifier: transaction, startedAt: now,
            total: Decimal(string: "47.39")!, lineItems: [ApplePayLineItem(label: "Subtotal", amount: "47.39")],
            shippingMethod: "express", couponCode: nil, payment: Data(#"{"token":{}}"#.utf8))
        return session
    }

    /// An order of a session with every optional field set.
    static func order(_ id: String, sessionId: String) -> CheckoutOrder {
        var order = CheckoutOrder(
            id: id, sessionId: sessionId, createdAt: now.addingTimeInterval(12.5), status: "authorized",
            currencyCode: "USD", total: Decimal(string: "47.39")!,
            lineItems: [
                ApplePayLineItem(label: "Subtotal", amount: "40.08", type: .final),
                ApplePayLineItem(label: "Tax", amount: "3.31"),
                ApplePayLineItem(label: "Express", amount: "4.00"),
            ],
            items: session(sessionId).items,
            payment: CheckoutOrder.Payment(
                network: "Visa", lastFour: "1234", type: "credit", transactionIdentifier: "ab12cd34\(id)",
                processorReference: "ref-\(id)"
            )
        )
        order.shippingMethod = "express"
        order.couponCode = "SPRING10"
        var billing = ApplePayPaymentContact(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.com")
        billing.addressLines = ["1 Infinite Loop", "Building 2"]
        billing.countryCode = "US"
        order.billingContact = billing
        order.shippingContact = ApplePayPaymentContact(givenName: "Ada", familyName: "Lovelace", phoneNumber: "+1 408 555 0100")
        order.passes = [
            CheckoutOrder.Pass(
                sku: "TICKET-GA", template: "event", passTypeIdentifier: "pass.com.example.tickets",
                serialNumber: "S-\(id)", downloadURL: "https://example.com/passes/dl-\(id)"
            )
        ]
        order.notes = ["gift card sent by email"]
        return order
    }
}
