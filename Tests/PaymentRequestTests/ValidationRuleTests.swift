import Foundation
import PaymentRequest
import Testing

/// One validation rule: how to break a valid request, and the exact issue that must come out.
struct Rule: Sendable, CustomTestStringConvertible {
    var name: String
    var severity: PaymentRequestIssue.Severity
    var path: String
    var message: String
    var breakRequest: @Sendable (inout ApplePayPaymentRequest) -> Void

    init(_ name: String, _ severity: PaymentRequestIssue.Severity, _ path: String, _ message: String,
         _ breakRequest: @escaping @Sendable (inout ApplePayPaymentRequest) -> Void) {
        self.name = name
        self.severity = severity
        self.path = path
        self.message = message
        self.breakRequest = breakRequest
    }

    var testDescription: String { name }

    /// A request with every part filled in correctly.
    static var valid: ApplePayPaymentRequest {
        var request = ApplePayPaymentRequest(countryCode: "US", currencyCode: "USD", merchantCapabilities: [.supports3DS],
                                             supportedNetworks: [.visa, .masterCard],
                                             total: ApplePayLineItem(label: "Corner Bakery", amount: "12.50", type: .final))
        request.lineItems = [ApplePayLineItem(label: "Subtotal", amount: "10.00"),
                             ApplePayLineItem(label: "Tax", amount: "2.50")]
        request.shippingMethods = [ApplePayShippingMethod(label: "Standard", detail: "3-5 days", amount: "0.00",
                                                          identifier: "std")]
        return request
    }
}

@Suite("Validation rules: Safari's checks")
struct SafariRuleTests {
    static let rules: [Rule] = [
        Rule("missing country", .error, "countryCode", "is required") { $0.countryCode = "" },
        Rule("lower-case country", .error, "countryCode", "\"us\" is not an ISO 3166-1 alpha-2 country code") {
            $0.countryCode = "us"
        },
        Rule("missing currency", .error, "currencyCode", "is required") { $0.currencyCode = "" },
        Rule("unknown currency", .error, "currencyCode", "\"usd\" is not an ISO 4217 currency code") {
            $0.currencyCode = "usd"
        },
        Rule("bad supported country", .error, "supportedCountries[1]", "\"XX\" is not an ISO 3166-1 alpha-2 country code") {
            $0.supportedCountries = ["US", "XX"]
        },
        Rule("no capabilities", .error, "merchantCapabilities", "must list at least one capability") {
            $0.merchantCapabilities = []
        },
        Rule("unknown capability", .error, "merchantCapabilities[1]",
             "\"supportsAll\" is not a merchant capability (supports3DS, supportsEMV, supportsCredit, supportsDebit)") {
            $0.merchantCapabilities = [.supports3DS, MerchantCapability(rawValue: "supportsAll")]
        },
        Rule("no networks", .error, "supportedNetworks", "must list at least one network") { $0.supportedNetworks = [] },
        Rule("unknown network", .error, "supportedNetworks[2]", "\"diners\" is not a payment network Apple Pay supports") {
            $0.supportedNetworks.append(PaymentNetwork(rawValue: "diners"))
        },
        Rule("total amount grammar", .error, "total.amount",
             "\"12.5.0\" is not a valid amount: use digits with an optional minus sign and decimal point, such as \"10.00\"") {
            $0.total.amount = "12.5.0"
        },
        Rule("missing total amount", .error, "total.amount", "is required") { $0.total.amount = "" },
        Rule("negative total", .error, "total.amount", "must not be negative") {
            $0.total.amount = "-1.00"
            $0.lineItems = nil
        },
        Rule("total too big", .error, "total.amount", "must not be more than 100000000") {
            $0.total.amount = "100000000.01"
            $0.lineItems = nil
        },
        Rule("unknown total type", .error, "total.type", "\"estimated\" is not a line item type (final, pending)") {
            $0.total.type = LineItemType(rawValue: "estimated")
        },
        Rule("line item amount grammar", .error, "lineItems[1].amount",
             "\"2,50\" is not a valid amount: use digits with an optional minus sign and decimal point, such as \"10.00\"") {
            $0.lineItems![1].amount = "2,50"
        },
        Rule("unknown payment timing", .error, "lineItems[0].paymentTiming",
             "\"monthly\" is not a payment timing (immediate, recurring, deferred, automaticReload)") {
            $0.lineItems![0].paymentTiming = PaymentTiming(rawValue: "monthly")
        },
        Rule("unknown interval unit", .error, "lineItems[0].recurringPaymentIntervalUnit",
             "\"week\" is not a recurring payment date unit (year, month, day, hour, minute)") {
            $0.lineItems![0].recurringPaymentIntervalUnit = RecurringPaymentDateUnit(rawValue: "week")
        },
        Rule("bad date", .error, "lineItems[0].recurringPaymentStartDate",
             "\"next monday\" is not an ISO 8601 date such as \"2026-01-31T00:00:00Z\"") {
            $0.lineItems![0].recurringPaymentStartDate = "next monday"
        },
        Rule("unknown shipping type", .error, "shippingType",
             "\"courier\" is not a shipping type (shipping, delivery, storePickup, servicePickup)") {
            $0.shippingType = ShippingType(rawValue: "courier")
        },
        Rule("unknown editing mode", .error, "shippingContactEditingMode",
             "\"locked\" is not a shipping contact editing mode (available, enabled, storePickup)") {
            $0.shippingContactEditingMode = ShippingContactEditingMode(rawValue: "locked")
        },
        Rule("negative shipping", .error, "shippingMethods[0].amount", "must not be negative") {
            $0.shippingMethods![0].amount = "-5.00"
        },
        Rule("unknown contact field", .error, "requiredShippingContactFields[0]",
             "\"address\" is not a contact field (email, name, phone, postalAddress, phoneticName)") {
            $0.requiredShippingContactFields = [ContactField(rawValue: "address")]
        },
        Rule("unknown billing field", .error, "requiredBillingContactFields[0]",
             "\"zip\" is not a contact field (email, name, phone, postalAddress, phoneticName)") {
            $0.requiredBillingContactFields = [ContactField(rawValue: "zip")]
        },
    ]

    @Test(arguments: rules)
    func reportsTheRuleExactly(_ rule: Rule) {
        var request = Rule.valid
        #expect(request.validate().issues.isEmpty, "the base request must be clean")
        rule.breakRequest(&request)
        let report = request.validate()
        let expected = PaymentRequestIssue(severity: rule.severity, path: rule.path, message: rule.message)
        #expect(report.issues.contains(expected), "\(report.issues)")
        #expect(report.isValid == (rule.severity == .warning))
    }

    @Test func networksMatchIgnoringCase() {
        var request = Rule.valid
        request.supportedNetworks = [PaymentNetwork(rawValue: "VISA"), PaymentNetwork(rawValue: "MasterCard"),
                                     PaymentNetwork(rawValue: "vpay"), PaymentNetwork(rawValue: "cartesbancaires")]
        #expect(request.validate().issues.isEmpty)
        #expect(PaymentNetwork(rawValue: "MASTERCARD").canonical == .masterCard)
    }

    @Test func pendingLineItemsMayHaveNoAmount() {
        var request = Rule.valid
        request.lineItems!.append(ApplePayLineItem(label: "Tip", amount: "", type: .pending))
        request.total.type = .pending
        #expect(request.validate().issues.isEmpty)
    }

    @Test func everyProblemIsReportedAtOnce() {
        var request = Rule.valid
        request.countryCode = "USA"
        request.currencyCode = "DOLLAR"
        request.supportedNetworks = []
        request.total.label = ""
        request.lineItems![0].amount = "ten"
        #expect(request.validate().errors.map(\.path) == ["countryCode", "currencyCode", "supportedNetworks",
                                                          "total.label", "lineItems[0].amount"])
    }
}
