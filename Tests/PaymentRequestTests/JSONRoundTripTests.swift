import Foundation
import PaymentRequest
import Testing

@Suite("JSON: Apple Pay JS field names, round trips")
struct JSONRoundTripTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test(arguments: ["basic-request", "shipping-request", "recurring-request", "deferred-reload-request"])
    func fixturesRoundTripUnchanged(_ name: String) throws {
        let data = try Self.fixture(name)
        let request = try ApplePayPaymentRequest(jsonData: data)
        #expect(request.validate().errors.isEmpty, "\(request.validate().errors)")
        #expect(try Self.object(request.jsonData()) == Self.object(data))
        #expect(ApplePayPaymentRequest.unknownKeys(inJSON: data).isEmpty)
    }

    @Test func decodesApplesFieldNames() throws {
        let request = try ApplePayPaymentRequest(jsonData: Self.fixture("shipping-request"))
        #expect(request.shippingMethods?[0].dateComponentsRange?.endDateComponents.days == 11)
        #expect(request.requiredShippingContactFields == [.name, .postalAddress, .email, .phone])
        #expect(request.shippingContactEditingMode == .available)
        #expect(request.couponCode == "FESTIVAL")
        let recurring = try ApplePayPaymentRequest(jsonData: Self.fixture("recurring-request"))
        #expect(recurring.lineItems?[0].recurringPaymentIntervalCount == 6)
        #expect(recurring.recurringPaymentRequest?.managementURL == "https://applepaydemo.apple.com")
        let deferred = try ApplePayPaymentRequest(jsonData: Self.fixture("deferred-reload-request"))
        #expect(deferred.deferredPaymentRequest?.freeCancellationDateTimeZone == "Europe/London")
        #expect(deferred.automaticReloadPaymentRequest?.automaticReloadBilling.automaticReloadPaymentThresholdAmount == "5.00")
        // Apple Pay cancels multi-merchant requests with an automatic reload: the contexts are in the shipping request.
        let shipping = try ApplePayPaymentRequest(jsonData: Self.fixture("shipping-request"))
        #expect(shipping.multiTokenContexts?[0].merchantDomain == "festival.example")
    }

    @Test func nativeFormPutsTheTotalLast() throws {
        let request = try ApplePayPaymentRequest(jsonData: Self.fixture("shipping-request"))
        let items = request.paymentSummaryItems
        #expect(items.map(\.label) == ["Subtotal", "Free Shipping", "Estimated Tax", "Example Store"])
        #expect(items.last?.amount == Decimal(string: "38.06"))
    }

    @Test func amountsMustBeStrings() {
        let json = #"{"countryCode":"US","currencyCode":"USD","merchantCapabilities":["supports3DS"],"#
            + #""supportedNetworks":["visa"],"total":{"label":"A","amount":1.99}}"#
        let error = #expect(throws: PaymentRequestError.self) { try ApplePayPaymentRequest(jsonData: Data(json.utf8)) }
        #expect(error?.code == .invalidJSON)
        #expect(error?.reason.hasPrefix("total.amount: expected a string") == true)
    }

    @Test func missingRequiredFieldsAreReportedByPath() throws {
        let request = try ApplePayPaymentRequest(jsonData: Data("{}".utf8))
        #expect(request.validate().errors.map(\.path) == ["countryCode", "currencyCode", "merchantCapabilities",
                                                          "supportedNetworks", "total.label", "total.amount"])
        #expect(ApplePayPaymentRequest.unknownKeys(inJSON: Data(#"{"total":{},"merchantId":"x"}"#.utf8)) == ["merchantId"])
    }

    @Test func updatesAndResultsUseApplesShapes() throws {
        var update = ApplePayShippingContactUpdate(newTotal: ApplePayLineItem(label: "Shop", amount: "10.00"))
        update.errors = [ApplePayError(code: .addressUnserviceable, contactField: .postalCode, message: "No")]
        let json = try Self.object(PaymentJSON.encode(update))
        #expect(json == [
            "newTotal": ["label": "Shop", "amount": "10.00"],
            "errors": [["code": "addressUnserviceable", "contactField": "postalCode", "message": "No"]],
        ] as NSDictionary)
        let result = try Self.object(PaymentJSON.encode(ApplePayPaymentAuthorizationResult.failure(
            [ApplePayError(code: .billingContactInvalid)])))
        #expect(result == ["status": 1, "errors": [["code": "billingContactInvalid"]]] as NSDictionary)
        let decoded = try PaymentJSON.decode(ApplePayCouponCodeUpdate.self, from: Data(
            #"{"newTotal":{"label":"Shop","amount":"5.00"},"errors":[{"code":"couponCodeExpired"}]}"#.utf8))
        #expect(decoded.errors?.first?.code == .couponCodeExpired)
        #expect(decoded.validate(currencyCode: "USD").isValid)
        var bad = decoded
        bad.newLineItems = [ApplePayLineItem(label: "Subtotal", amount: "6.00")]
        #expect(bad.validate(currencyCode: "USD").errors == [PaymentRequestIssue(
            severity: .error, path: "newTotal.amount", message: "is 5.00 but the final line items add up to 6.00")])
    }
}
