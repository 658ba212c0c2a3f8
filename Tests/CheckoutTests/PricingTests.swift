import Checkout
import Foundation
import PaymentRequest
import Testing

@Suite("Pricing, coupons, shipping and redaction")
struct PricingTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)  // a Tuesday in September 2026

    func engine(_ configure: (inout MerchantConfiguration) -> Void = { _ in }) throws -> PricingEngine {
        var merchant = CheckoutFixture.merchantConfiguration()
        configure(&merchant)
        let now = self.now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return try PricingEngine(configuration: merchant, calendar: BusinessDayCalendar(calendar: calendar, now: { now }))
    }

    func session(_ items: [CartLine]) -> CheckoutSession {
        CheckoutSession(id: "cs_test", idempotencyKey: "k", requestHash: "h", createdAt: now, items: items)
    }

    @Test("Line items add up: subtotal, shipping, tax; the total is their sum")
    func totals() throws {
        let pricing = try engine()
        let request = try pricing.paymentRequest(for: session([
            CartLine(sku: "TSHIRT", name: "Tour T-shirt", quantity: 2, unitPrice: 25),
            CartLine(name: "Poster", quantity: 1, unitPrice: Decimal(string: "12.50")!),
        ]))
        #expect(request.lineItems?.map(\.label) == ["Subtotal", "Shipping", "Sales Tax"])
        #expect(request.lineItems?.map(\.amount) == ["62.50", "5.00", "5.16"])  // 62.50 × 0.0825 = 5.15625 → 5.16
        #expect(request.total.amount == "72.66")
        #expect(request.total.label == "Tessera Arena (via Tessera Market)")
        #expect(request.shippingMethods?.map(\.identifier) == ["standard", "express"])
        #expect(request.supportsCouponCode == true)
        #expect(request.requiredShippingContactFields == [.postalAddress, .name, .email])
        let data = try #require(request.applicationData.flatMap { Data(base64Encoded: $0) })
        #expect(String(decoding: data, as: UTF8.self) == "tessera-checkout-session:cs_test")
    }

    @Test("A percentage coupon is a negative line and the tax is on the discounted subtotal")
    func percentageCoupon() throws {
        var cart = session([CartLine(sku: "TSHIRT", name: "Tour T-shirt", quantity: 4, unitPrice: 25)])
        cart.couponCode = "SAVE10"
        cart.selectedShippingMethod = "express"
        let request = try engine().paymentRequest(for: cart)
        #expect(request.lineItems?.map(\.label) == ["Subtotal", "Coupon SAVE10", "Shipping", "Sales Tax"])
        #expect(request.lineItems?.map(\.amount) == ["100.00", "-10.00", "15.00", "7.43"])
        #expect(request.total.amount == "112.43")
        #expect(request.shippingMethods?.first?.identifier == "express")
        #expect(request.couponCode == "SAVE10")
    }

    @Test("A fixed coupon never discounts more than the subtotal; shipping can be taxed")
    func fixedCoupon() throws {
        let pricing = try engine { $0.tax = .init(rate: Decimal(string: "0.10")!, appliesToShipping: true) }
        var cart = session([CartLine(name: "Sticker", quantity: 1, unitPrice: 3)])
        cart.couponCode = "FIVEOFF"
        let request = try pricing.paymentRequest(for: cart)
        #expect(request.lineItems?.map(\.amount) == ["3.00", "-3.00", "5.00", "0.50"])
        #expect(request.total.amount == "5.50")
    }

    @Test("Coupons: valid ignoring case, expired, unknown")
    func coupons() throws {
        let pricing = try engine()
        #expect(pricing.coupon("save10") == .valid(CheckoutFixture.merchantConfiguration().coupons[0]))
        #expect(pricing.coupon("OLD") == .expired)
        #expect(pricing.coupon("NOPE") == .invalid)
    }

    @Test("Tickets alone do not ship: no shipping methods or shipping line")
    func noShipping() throws {
        let request = try engine().paymentRequest(for: session([
            CartLine(sku: "TICKET-GA", name: "GA", quantity: 2, unitPrice: 45, requiresShipping: false),
        ]))
        #expect(request.shippingMethods == nil)
        #expect(request.shippingType == nil)
        #expect(request.lineItems?.map(\.label) == ["Subtotal", "Sales Tax"])
        #expect(request.total.amount == "97.43")
    }

    @Test("Goods that ship are sent to an address even when the merchant has no shipping methods")
    func shipsWithoutMethods() throws {
        let pricing = try engine { $0.shippingMethods = [] }
        let cart = session([CartLine(sku: "TSHIRT", name: "Tour T-shirt", quantity: 1, unitPrice: 25)])
        #expect(pricing.requiresShipping(cart))
        let request = try pricing.paymentRequest(for: cart)
        #expect(request.requiredShippingContactFields == [.postalAddress, .name, .email])
        #expect(request.shippingMethods == nil)
        #expect(request.lineItems?.map(\.label) == ["Subtotal", "Sales Tax"])
        #expect(pricing.highestTotal(for: cart) == Decimal(string: "27.06")!)
    }

    @Test("Tax waiting for the address makes the total pending until a shipping contact is known")
    func pendingTax() throws {
        let pricing = try engine { $0.tax?.pendingUntilAddressKnown = true }
        var cart = session([CartLine(sku: "TSHIRT", name: "Tour T-shirt", quantity: 1, unitPrice: 25)])
        let pending = try pricing.paymentRequest(for: cart)
        #expect(pending.total.type == .pending)
        #expect(pending.lineItems?.last?.type == .pending)
        cart.shippingContact = RedactedContact(contact(postalCode: "94107", countryCode: "US"))
        let final = try pricing.paymentRequest(for: cart)
        #expect(final.total.type == .final)
        #expect(final.total.amount == "32.06")  // 25 + 5 + 2.0625 → 2.06
    }

    @Test("Shipping regions: postal-code prefixes, whole countries, and the errors for the rest")
    func regions() throws {
        let pricing = try engine()
        #expect(pricing.shippingOptions(for: RedactedContact(contact(postalCode: "94107", countryCode: "US"))).count == 2)
        #expect(pricing.shippingOptions(for: RedactedContact(contact(postalCode: "H2X 1Y4", countryCode: "ca"))).count == 2)
        #expect(pricing.shippingOptions(for: RedactedContact(contact(postalCode: "10001", countryCode: "US"))).isEmpty)
        #expect(pricing.shippingOptions(for: RedactedContact(contact(postalCode: "75001", countryCode: "FR"))).isEmpty)
        #expect(pricing.shippingOptions(for: RedactedContact(contact(postalCode: "94107", countryCode: nil))).isEmpty)
    }

    @Test("Redaction keeps only locality, areas, postal code and country code")
    func redaction() throws {
        var full = ApplePayPaymentContact(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.test",
                                          phoneNumber: "+1 415 555 0100")
        full.addressLines = ["1 Infinite Loop"]
        full.locality = " Cupertino "
        full.subLocality = "Monta Vista"
        full.administrativeArea = "CA"
        full.postalCode = "95014"
        full.countryCode = "us"
        full.country = "United States"
        let redacted = RedactedContact(full)
        let json = String(decoding: try JSONEncoder().encode(redacted), as: UTF8.self)
        #expect(redacted.locality == "Cupertino")
        #expect(redacted.countryCode == "US")
        for secret in ["Ada", "Lovelace", "ada@example.test", "555", "Infinite", "United States"] {
            #expect(!json.contains(secret), "\(secret) leaked into the redacted contact")
        }
    }

    private func contact(postalCode: String?, countryCode: String?) -> ApplePayPaymentContact {
        var contact = ApplePayPaymentContact()
        contact.postalCode = postalCode
        contact.countryCode = countryCode
        return contact
    }
}
