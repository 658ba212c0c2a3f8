import Foundation
import PaymentRequest
import Testing

@Suite("Validation rules: Apple's rules for merchants and warnings")
struct MerchantRuleTests {
    static let rules: [Rule] = [
        Rule("empty total label", .error, "total.label",
             "must not be empty: it is the name on the buyer's card statement, shown as \"Pay <label>\"") {
            $0.total.label = ""
        },
        Rule("too many fraction digits", .error, "lineItems[1].amount",
             "has 3 digits after the decimal point; USD allows 2") {
            $0.lineItems![1].amount = "2.500"
        },
        Rule("yen with decimals", .error, "total.amount", "has 2 digits after the decimal point; JPY allows 0") {
            $0.currencyCode = "JPY"
            $0.total.amount = "1250.00"
            $0.lineItems = nil
            $0.shippingMethods = nil
        },
        Rule("empty line items", .error, "lineItems", "must not be empty when present; leave it out instead") {
            $0.lineItems = []
        },
        Rule("total is not the sum", .error, "total.amount", "is 12.50 but the final line items add up to 13.50") {
            $0.lineItems![1].amount = "3.50"
        },
        Rule("no 3DS", .error, "merchantCapabilities", "must include \"supports3DS\"; Apple requires it in every request") {
            $0.merchantCapabilities = [.supportsCredit, .supportsDebit]
        },
        Rule("long total label", .warning, "total.label",
             "\"Pay <label>\" is 50 characters; the sheet shows about 30 on one line") {
            $0.total.label = "Corner Bakery and Coffee Roasters (via Market)"
        },
        Rule("long line label", .warning, "lineItems[0].label", "is 35 characters; the sheet shows about 30 on one line") {
            $0.lineItems![0].label = "Subtotal for everything in the cart"
        },
        Rule("empty line label", .warning, "lineItems[0].label", "is empty; the sheet shows a charge without a name") {
            $0.lineItems![0].label = ""
        },
        Rule("pending item, final total", .warning, "total.type",
             "should be \"pending\" because a line item is pending; the sheet then shows \"Amount Pending\"") {
            $0.lineItems!.append(ApplePayLineItem(label: "Tip", amount: "", type: .pending))
        },
        Rule("duplicate network", .warning, "supportedNetworks[2]", "repeats \"Visa\"") {
            $0.supportedNetworks.append(PaymentNetwork(rawValue: "Visa"))
        },
        Rule("deprecated editing mode", .warning, "shippingContactEditingMode", "\"enabled\" is deprecated; use \"available\"") {
            $0.shippingContactEditingMode = .enabled
        },
        Rule("duplicate method identifier", .warning, "shippingMethods[1].identifier",
             "repeats the identifier of shippingMethods[0]") {
            $0.shippingMethods!.append($0.shippingMethods![0])
        },
        Rule("empty method identifier", .warning, "shippingMethods[0].identifier",
             "is empty; the merchant cannot tell which method the buyer picked") {
            $0.shippingMethods![0].identifier = ""
        },
        Rule("empty method label", .warning, "shippingMethods[0].label", "is empty; the sheet shows a method without a name") {
            $0.shippingMethods![0].label = ""
        },
        Rule("dates backwards", .warning, "shippingMethods[0].dateComponentsRange",
             "endDateComponents is before startDateComponents") {
            $0.shippingMethods![0].dateComponentsRange = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2026, months: 3, days: 9),
                endDateComponents: ApplePayDateComponents(years: 2026, months: 3, days: 2))
        },
        Rule("email for billing", .warning, "requiredBillingContactFields[1]",
             "\"email\" is not collected for billing; ask for it in requiredShippingContactFields") {
            $0.requiredBillingContactFields = [.postalAddress, .email]
        },
        Rule("contact country", .warning, "shippingContact.countryCode", "\"USA\" is not an ISO 3166-1 alpha-2 country code") {
            var contact = ApplePayPaymentContact(givenName: "Ann")
            contact.countryCode = "USA"
            $0.shippingContact = contact
        },
        Rule("coupon without field", .warning, "couponCode",
             "is set but supportsCouponCode is not true, so the sheet does not show it") {
            $0.couponCode = "SPRING"
        },
        Rule("interval count", .error, "lineItems[0].recurringPaymentIntervalCount", "must be at least 1") {
            $0.lineItems![0].recurringPaymentIntervalCount = 0
        },
        Rule("a month that does not exist", .error, "shippingMethods[0].dateComponentsRange.startDateComponents.months",
             "must be 1 to 12, found 13") {
            $0.shippingMethods![0].dateComponentsRange = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2026, months: 13, days: 9),
                endDateComponents: ApplePayDateComponents(years: 2027, months: 1, days: 40))
        },
        Rule("a day that does not exist", .error, "shippingMethods[0].dateComponentsRange.endDateComponents.days",
             "must be 1 to 31, found 40") {
            $0.shippingMethods![0].dateComponentsRange = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2026, months: 12, days: 9),
                endDateComponents: ApplePayDateComponents(years: 2027, months: 1, days: 40))
        },
        Rule("a day its month does not have", .error, "shippingMethods[0].dateComponentsRange.startDateComponents.days",
             "month 2 of 2026 has 28 days, found 30") {
            $0.shippingMethods![0].dateComponentsRange = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2026, months: 2, days: 30),
                endDateComponents: ApplePayDateComponents(years: 2026, months: 3, days: 2))
        },
        Rule("the 31st of a 30-day month", .error, "shippingMethods[0].dateComponentsRange.endDateComponents.days",
             "month 4 of 2027 has 30 days, found 31") {
            $0.shippingMethods![0].dateComponentsRange = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2027, months: 4, days: 2),
                endDateComponents: ApplePayDateComponents(years: 2027, months: 4, days: 31))
        },
        Rule("a total label of spaces", .error, "total.label",
             "must not be empty: it is the name on the buyer's card statement, shown as \"Pay <label>\"") {
            $0.total.label = "   "
        },
        Rule("recurring end before start", .warning, "lineItems[0].recurringPaymentEndDate",
             "is before recurringPaymentStartDate") {
            $0.lineItems![0].recurringPaymentStartDate = "2026-06-01T00:00:00Z"
            $0.lineItems![0].recurringPaymentEndDate = "2026-01-01"
        },
    ]

    @Test(arguments: rules)
    func reportsTheRuleExactly(_ rule: Rule) {
        var request = Rule.valid
        rule.breakRequest(&request)
        let report = request.validate()
        let expected = PaymentRequestIssue(severity: rule.severity, path: rule.path, message: rule.message)
        #expect(report.issues.contains(expected), "\(report.issues)")
        #expect(report.isValid == (rule.severity == .warning))
    }

    @Test func labelLimitIsTheDocumentedOne() {
        var request = Rule.valid
        request.total.label = String(repeating: "x", count: ApplePayLimits.labelCharacterLimit - 4)  // "Pay " + 26
        #expect(request.validate().issues.isEmpty)
        request.total.label += "x"
        #expect(request.validate().warnings.map(\.path) == ["total.label"])
    }

    @Test func theSumIgnoresPendingItemsAndAllowsDiscounts() {
        var request = Rule.valid
        request.lineItems!.append(ApplePayLineItem(label: "Discount", amount: "-2.50"))
        request.lineItems!.append(ApplePayLineItem(label: "Tip", amount: "3.00", type: .pending))
        request.total = ApplePayLineItem(label: "Corner Bakery", amount: "10.00", type: .pending)
        #expect(request.validate().issues.isEmpty)
    }
}
