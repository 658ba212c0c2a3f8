import Checkout
import Foundation
import PaymentRequest
import Testing
import TesseraTestSupport

@Suite("Merchant configuration")
struct MerchantConfigurationTests {
    @Test("docs/examples/merchant.json decodes, resolves paths and passes validation")
    func example() throws {
        let url = Subprocess.repositoryRoot.appendingPathComponent("docs/examples/merchant.json")
        var merchant = try MerchantConfiguration.decode(jsonData: try Data(contentsOf: url))
        merchant.resolvePaths(relativeTo: URL(fileURLWithPath: "/etc/tessera"))
        try merchant.validate()
        #expect(merchant.merchantName.totalLabel == "Tessera Arena (via Tessera Market)")
        #expect(merchant.shippingMethods.map(\.amount) == [5, 15])
        #expect(merchant.tax?.rate == Decimal(string: "0.0825"))
        #expect(merchant.coupons[1].expires == ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z"))
        #expect(merchant.products["TICKET-GA"]?.passTemplate == "event-ticket")
        #expect(merchant.paymentProcessingKeyPaths == ["/etc/tessera/payment-processing-2026.key",
                                                       "/etc/tessera/payment-processing-2025.key"])
        #expect(merchant.merchantIdentity?.keyPath == "/etc/tessera/merchant-identity.key")
        #expect(merchant.paymentProcessor?.kind == .webhook)
        #expect(merchant.paymentProcessor?.secretFile == "/etc/tessera/payment-webhook.secret")
        #expect(merchant.apiKeyFile == "/etc/tessera/checkout-api.key")
        #expect(merchant.merchantValidationHosts == MerchantValidationHosts.appleDefaults)
        #expect(merchant.developmentMode == false)
    }

    @Test("Amounts must be decimal strings; errors name the key")
    func amountsAreStrings() throws {
        let json = #"{"merchantIdentifier":"m","displayName":"S","countryCode":"US","currencyCode":"USD","#
            + #""shippingMethods":[{"identifier":"a","label":"A","amount":5,"minimumBusinessDays":1,"maximumBusinessDays":2}]}"#
        let error = try #require(throws: CheckoutError.self) { try MerchantConfiguration.decode(jsonData: Data(json.utf8)) }
        #expect(error.field == "shippingMethods[0].amount")
    }

    @Test("Validation names the key at fault", arguments: [
        "currencyCode", "countryCode", "tax.rate", "coupons[0]", "shippingMethods[1].identifier",
        "shippingRegions[0].countryCode", "requiredShippingContactFields[1]", "requiredBillingContactFields[0]",
        "products.ODD.unitPrice", "coupons[0].amountOff", "shippingMethods[0].amount",
    ])
    func validation(field: String) throws {
        var merchant = CheckoutFixture.merchantConfiguration()
        switch field {
        case "currencyCode": merchant.currencyCode = "XYZ"
        case "countryCode": merchant.countryCode = "ZZ"
        case "tax.rate": merchant.tax = .init(rate: 8)
        case "coupons[0]": merchant.coupons = [.init(code: "X", percentOff: 10, amountOff: 1)]
        case "shippingMethods[1].identifier":
            merchant.shippingMethods = [.init(identifier: "a", label: "A", amount: 1, businessDays: 1...2),
                                        .init(identifier: "a", label: "B", amount: 2, businessDays: 1...2)]
        case "requiredShippingContactFields[1]": merchant.requiredShippingContactFields = [.email, ContactField(rawValue: "address")]
        case "requiredBillingContactFields[0]": merchant.requiredBillingContactFields = [ContactField(rawValue: "street")]
        // More decimal places than the currency has: rounded at every sale, the receipt's lines would not add up.
        case "products.ODD.unitPrice": merchant.products["ODD"] = .init(name: "Odd", unitPrice: Decimal(string: "1.005")!)
        case "coupons[0].amountOff": merchant.coupons = [.init(code: "A3", amountOff: Decimal(string: "1.005")!)]
        case "shippingMethods[0].amount":
            merchant.shippingMethods = [.init(identifier: "a", label: "A", amount: Decimal(string: "4.999")!, businessDays: 1...2)]
        default: merchant.shippingRegions = [.init(countryCode: "usa")]
        }
        let error = try #require(throws: CheckoutError.self) { try merchant.validate() }
        #expect(error.field == field)
        #expect(error.code == .invalidConfiguration)
    }

    @Test("Apple's gateway hosts are the default allow list")
    func defaultHosts() {
        let hosts = MerchantValidationHosts.appleDefaults
        #expect(hosts.count == 20)
        for host in ["apple-pay-gateway.apple.com", "cn-apple-pay-gateway.apple.com", "apple-pay-gateway-nc-pod5.apple.com",
                     "apple-pay-gateway-pr-pod1.apple.com", "cn-apple-pay-gateway-sh-pod3.apple.com",
                     "cn-apple-pay-gateway-tj-pod1.apple.com", "apple-pay-gateway-cert.apple.com",
                     "cn-apple-pay-gateway-cert.apple.com"] {
            #expect(hosts.contains(host))
        }
    }

    @Test("Validation URLs: only https, Apple's hosts, no port, user info or IP literal", arguments: [
        ("https://apple-pay-gateway.apple.com/paymentservices/paymentSession", true),
        ("https://APPLE-PAY-GATEWAY-CERT.apple.com./paymentservices/startSession", true),
        ("http://apple-pay-gateway.apple.com/paymentservices/paymentSession", false),
        ("https://apple-pay-gateway.apple.com:8443/paymentservices/paymentSession", false),
        ("https://user:pass@apple-pay-gateway.apple.com/paymentservices/paymentSession", false),
        ("https://apple-pay-gateway.apple.com.evil.example/paymentservices/paymentSession", false),
        ("https://evil.example/?h=apple-pay-gateway.apple.com", false),
        ("https://17.171.78.7/paymentservices/paymentSession", false),
        ("https://[::1]/paymentservices/paymentSession", false),
        ("https://169.254.169.254/latest/meta-data", false),
        ("file:///etc/passwd", false),
        ("not a url", false),
    ])
    func validationURLs(url: String, allowed: Bool) {
        let result = Result { try MerchantValidationHosts.check(url, allowed: MerchantValidationHosts.appleDefaults) }
        if allowed { #expect(throws: Never.self) { try result.get() } } else {
            #expect(throws: CheckoutError.self) { try result.get() }
        }
    }
}
