import Foundation
import PaymentRequest
import Testing

@Suite("Building requests from a merchant summary")
struct BuilderTests {
    /// Wednesday 4 March 2026, 15:00 UTC.
    static let wednesday = Date(timeIntervalSince1970: 1_772_636_400)

    static func calendar() -> BusinessDayCalendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return BusinessDayCalendar(calendar: calendar, now: { wednesday })
    }

    static func decimal(_ text: String) -> Decimal { Decimal(string: text)! }

    static func builder(_ summary: MerchantSummary = MerchantSummary(subtotal: 40, tax: Charge("Tax", decimal("3.20"))))
        throws -> PaymentRequestBuilder {
        var builder = try PaymentRequestBuilder(merchant: .via(endMerchant: "Corner Bakery", platform: "Marketplace"),
                                                countryCode: "US", currencyCode: "USD", summary: summary,
                                                calendar: calendar())
        builder.shippingOptions = [
            ShippingOption(identifier: "std", label: "Standard", amount: 5, businessDays: 3...5),
            ShippingOption(identifier: "exp", label: "Express", amount: decimal("12.50"), businessDays: 1...1),
        ]
        return builder
    }

    @Test func lineItemsExplainTheTotalExactly() throws {
        var summary = MerchantSummary(subtotal: 40, tax: Charge("Tax", Self.decimal("3.20")))
        summary.discounts = [Charge("Spring Sale", 4)]
        summary.fees = [Charge("Service Fee", Self.decimal("1.99"))]
        summary.donations = [Charge("Round-up Donation", Self.decimal("0.81"))]
        let request = try Self.builder(summary).build()
        #expect(request.lineItems?.map(\.label) == ["Subtotal", "Spring Sale", "Shipping", "Tax", "Service Fee",
                                                    "Round-up Donation"])
        #expect(request.lineItems?.map(\.amount) == ["40.00", "-4.00", "5.00", "3.20", "1.99", "0.81"])
        #expect(request.total == ApplePayLineItem(label: "Corner Bakery (via Marketplace)", amount: "47.00", type: .final))
        #expect(request.merchantCapabilities.contains(.supports3DS))
        #expect(request.validate().errors.isEmpty)
    }

    @Test func merchantNaming() {
        #expect(MerchantName("Corner Bakery").totalLabel == "Corner Bakery")
        #expect(MerchantName.via(endMerchant: "Corner Bakery", platform: "Marketplace").totalLabel
            == "Corner Bakery (via Marketplace)")
        let sheet = PaymentSheet(request: try! Self.builder().build())
        #expect(sheet.merchantLine == "Pay Corner Bakery (via Marketplace)")
    }

    @Test func pendingCostsMakeThePendingTotal() throws {
        var summary = MerchantSummary(subtotal: 20)
        summary.pendingCosts = ["Final weight adjustment"]
        let request = try Self.builder(summary).build()
        #expect(request.total.type == .pending)
        #expect(request.total.amount == "25.00")
        #expect(request.lineItems?.last == ApplePayLineItem(label: "Final weight adjustment", amount: "", type: .pending))
        #expect(PaymentSheet(request: request).totalAmount == "Amount Pending")
    }

    @Test func shippingDatesSkipWeekends() throws {
        let methods = try Self.builder().shippingMethods()
        // Wednesday + 3 business days = Monday 9 March; + 5 = Wednesday 11 March.
        #expect(methods[0].dateComponentsRange == ApplePayDateComponentsRange(
            startDateComponents: ApplePayDateComponents(years: 2026, months: 3, days: 9),
            endDateComponents: ApplePayDateComponents(years: 2026, months: 3, days: 11)))
        #expect(methods[0].detail == "Arrives in 3-5 business days")
        #expect(methods[1].detail == "Arrives in 1 business day")
        #expect(methods[1].dateComponentsRange?.startDateComponents == ApplePayDateComponents(years: 2026, months: 3, days: 5))
        let saturday = BusinessDayCalendar(calendar: Self.calendar().calendar,
                                           now: { Self.wednesday.addingTimeInterval(3 * 86_400) })
        #expect(saturday.components(of: saturday.date(addingBusinessDays: 0))
            == ApplePayDateComponents(years: 2026, months: 3, days: 9))
    }

    @Test func pickupWording() {
        let option = ShippingOption(identifier: "store", label: "Store", amount: 0, businessDays: 0...0)
        #expect(option.computedDetail(for: .storePickup) == "Ready for pickup today")
        let later = ShippingOption(identifier: "store", label: "Store", amount: 0, businessDays: 1...2)
        #expect(later.computedDetail(for: .servicePickup) == "Ready for pickup in 1-2 business days")
    }

    @Test func theSelectedMethodFlowsIntoTheTotal() throws {
        var builder = try Self.builder()
        builder.selectedShippingIdentifier = "exp"
        let request = try builder.build()
        #expect(request.shippingMethods?.first?.identifier == "exp")
        #expect(request.total.amount == "55.70")
        let update = try Self.builder().shippingMethodUpdate(selecting: "std")
        #expect(update.newTotal.amount == "48.20")
        #expect(throws: PaymentRequestError.self) { try Self.builder().shippingMethodUpdate(selecting: "drone") }
    }

    @Test func updates() throws {
        let builder = try Self.builder()
        let coupon = try builder.couponCodeUpdate(code: "SAVE5", discount: Charge("Coupon SAVE5", 5))
        #expect(coupon.newTotal.amount == "43.20")
        #expect(coupon.newLineItems?[1] == ApplePayLineItem(label: "Coupon SAVE5", amount: "-5.00", type: .final))
        let expired = try builder.couponCodeUpdate(code: "OLD", discount: Charge("Old", 5), expired: true)
        #expect(expired.errors == [ApplePayError(code: .couponCodeExpired, message: "This code has expired.")])
        #expect(expired.newTotal.amount == "48.20")
        let invalid = try builder.couponCodeUpdate(code: "NOPE", discount: nil)
        #expect(invalid.errors?.first?.code == .couponCodeInvalid)
        var shipped = builder
        shipped.shippingType = .shipping
        let unserviceable = try shipped.shippingContactUpdate(options: [])
        #expect(unserviceable.errors?.first?.code == .addressUnserviceable)
        #expect(unserviceable.newTotal.amount == "43.20")
        let card = try builder.paymentMethodUpdate(surcharge: Charge("Card Surcharge", Self.decimal("0.75")))
        #expect(card.newTotal.amount == "48.95")
    }

    @Test func recurringChargesAndSubscription() throws {
        var summary = MerchantSummary(subtotal: 0)
        summary.recurringCharges = [RecurringCharge("Premium", Self.decimal("9.99"), .month,
                                                    startDate: Self.wednesday)]
        var builder = try PaymentRequestBuilder(merchant: MerchantName("Streamly"), countryCode: "US",
                                                currencyCode: "USD", summary: summary)
        builder.subscription = .init(paymentDescription: "Premium plan", managementURL: "https://streamly.example/account")
        let request = try builder.build()
        #expect(request.total.amount == "9.99")
        #expect(request.lineItems?[1].paymentTiming == .recurring)
        #expect(request.lineItems?[1].recurringPaymentStartDate == "2026-03-04T15:00:00.000Z")
        #expect(request.recurringPaymentRequest?.regularBilling.amount == "9.99")
    }

    @Test func refusesWhatCannotBeRight() throws {
        #expect(throws: PaymentRequestError.self) {
            try PaymentRequestBuilder(merchant: MerchantName("A"), countryCode: "US", currencyCode: "XYZ",
                                      summary: MerchantSummary(subtotal: 1))
        }
        #expect(throws: PaymentRequestError.self) {
            try PaymentRequestBuilder(merchant: MerchantName("A"), countryCode: "ZZ", currencyCode: "USD",
                                      summary: MerchantSummary(subtotal: 1))
        }
        var negative = MerchantSummary(subtotal: 10)
        negative.fees = [Charge("Fee", -1)]
        #expect(throws: PaymentRequestError.self) { try Self.builder(negative).build() }
        var tooMuchDiscount = MerchantSummary(subtotal: 1)
        tooMuchDiscount.discounts = [Charge("Everything free", 100)]
        let error = #expect(throws: PaymentRequestError.self) { try Self.builder(tooMuchDiscount).build() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.report?.errors.first?.path == "total.amount")
        let unnamed = try PaymentRequestBuilder(merchant: MerchantName(""), countryCode: "US", currencyCode: "USD",
                                                summary: MerchantSummary(subtotal: 1))
        #expect(throws: PaymentRequestError.self) { try unnamed.build() }
    }
}
