import TesseraHTTP
@_spi(Testing) import Checkout
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOSSL
import PassWebService
import Testing
import TesseraServer
import TesseraTestSupport

/// The sheet's Apple Pay JS path in headless Chromium, against a stand-in `ApplePaySession` replaying a recorded
/// sequence of events, with merchant validation going to a stand-in of Apple's payment-session endpoint.
@Suite("The payment sheet drives ApplePaySession", .serialized)
struct SheetApplePayTests {
    /// A recorded purchase: merchant validation, an address, express shipping, a coupon, a card, then the payment.
    /// The calls the page makes while ``purchase`` replays, up to its pause before the payment.
    static let purchaseCalls = [
        "constructor", "begin",
        "event:onvalidatemerchant", "completeMerchantValidation",
        "event:onshippingcontactselected", "completeShippingContactSelection",
        "event:onshippingmethodselected", "completeShippingMethodSelection",
        "event:oncouponcodechanged", "completeCouponCodeChange",
        "event:onpaymentmethodselected", "completePaymentMethodSelection",
    ]

    static let purchase = """
        [{"handler": "onvalidatemerchant", "event": {"validationURL": "https://localhost/paymentservices/paymentSession"}},
         {"handler": "onshippingcontactselected", "event": {"shippingContact":
           {"locality": "Cupertino", "administrativeArea": "CA", "postalCode": "95014", "countryCode": "US"}}},
         {"handler": "onshippingmethodselected", "event": {"shippingMethod":
           {"label": "Express", "detail": "", "amount": "15.00", "identifier": "express"}}},
         {"handler": "oncouponcodechanged", "event": {"couponCode": "SAVE10"}},
         {"handler": "onpaymentmethodselected", "event": {"paymentMethod":
           {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}},
         {"handler": "pause"}]
        """

    /// A recorded abandoned purchase: an address the merchant does not ship to, then the buyer cancels.
    static let abandoned = """
        [{"handler": "onvalidatemerchant", "event": {"validationURL": "https://localhost/paymentservices/paymentSession"}},
         {"handler": "onshippingcontactselected", "event": {"shippingContact":
           {"locality": "New York", "administrativeArea": "NY", "postalCode": "10001", "countryCode": "US"}}},
         {"handler": "oncancel", "event": {}}]
        """

    /// Runs `test` with the sheet open in Chromium under the stand-in, merchant validation wired to Apple's stand-in.
    static func run(events: String,
                    _ test: @escaping @Sendable (SheetBrowser.Page, CheckoutFixture) async throws -> Void) async throws {
        if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] == "1" { return }
        guard let chromium = WebDriver.locate() else {
            Issue.record("Chromium or chromedriver not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            return
        }
        let gateway = try AppleGatewayStandIn()
        let identity = try MerchantValidationTests.identity()
        try await gateway.serve { gatewayPort in
            let fixture = try CheckoutFixture { merchant in
                merchant.merchantIdentity = .init(certificatePath: identity.certificatePath, keyPath: identity.keyPath)
                merchant.merchantValidationHosts = ["localhost"]
                merchant.walletOrders = WalletOrderDataTests.walletOrders
            }
            let walletOrders = try WalletOrderIssuerStandIn()
            let validator = try MerchantValidator(
                merchant: fixture.merchant,
                trustRoots: try NIOSSLCertificate.fromPEMFile(gateway.certificates.authorityPEMPath),
                endpointOverrides: ["localhost": "localhost:\(gatewayPort)"], logger: Logger(label: "test.validation"))
            let clock = fixture.clock
            let service = try CheckoutService(merchant: fixture.merchant, store: fixture.store, processor: fixture.processor,
                                              passIssuer: OrderPassIssuer(issuer: fixture.issuer),
                                              walletOrderIssuer: walletOrders, merchantValidator: validator,
                                              logger: Logger(label: "test.checkout"), now: { clock.now })
            // The server, its handlers and the test on a thread of their own; the stand-in on another.
            try await CheckoutFixture.withClient(router: {
                let router = RouteTable()
                fixture.passService.addRoutes(to: router)
                service.addRoutes(to: router)
                return router
            }) { client in
                let port = try #require(client.port)
                let session = try await client.createSession(SheetBrowser.shirtsAndTicket)
                let id = try #require(session["id"] as? String)
                let sheetURL = try #require(session["sheetURL"] as? String)
                let driver = try await WebDriver.start(browser: chromium.browser, driver: chromium.driver)
                do {
                    try await driver.devTools("Page.addScriptToEvaluateOnNewDocument",
                                              ["source": ApplePaySessionStandIn.script(events: events)])
                    let url = "http://127.0.0.1:\(port)\(sheetURL)"
                    try await driver.open(url)
                    try await test(SheetBrowser.Page(driver: driver, fixture: fixture, client: client, sessionId: id, url: url), fixture)
                } catch {
                    await driver.quit()
                    try? await validator.shutdown()
                    throw error
                }
                await driver.quit()
            }
            try await validator.shutdown()
        }
    }

    /// The calls the page made on the stand-in so far.
    static func calls(_ page: SheetBrowser.Page) async throws -> [[String: Any]] {
        let json = try await page.evaluate("JSON.stringify(applePayStandIn.calls)")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    static func argument(_ call: [String: Any]?) -> [String: Any] {
        (call?["args"] as? [Any])?.first as? [String: Any] ?? [:]
    }

    static func total(_ update: [String: Any]) -> String? { (update["newTotal"] as? [String: Any])?["amount"] as? String }
}

extension SheetApplePayTests {
    @Test("A recorded purchase: every call the page makes and every update it passes back, then the payment")
    func replaysAPurchase() async throws {
        try await Self.run(events: Self.purchase) { page, fixture in
            #expect(try await page.evaluate("document.getElementById('apple-pay-area').hidden") == "false")
            #expect(try await page.evaluate("document.getElementById('fallback').hidden") == "true")
            try await page.driver.click("#apple-pay-button")
            let paused = try await page.driver.wait({ try await page.evaluate("applePayStandIn.paused") }, until: { $0 == "true" })
            #expect(paused == "true")
            let calls = try await Self.calls(page)
            #expect(calls.map { $0["name"] as? String ?? "" } == Self.purchaseCalls)
            // Built and begun synchronously inside the buyer's click, as Safari requires.
            #expect(calls.prefix(2).map { $0["inClick"] as? Bool } == [true, true])
            let byName = Dictionary(calls.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
            // The newest version the browser supports, and the session's own payment request.
            let constructor = byName["constructor"]?["args"] as? [Any]
            #expect(constructor?.first as? Int == 14)
            let request = constructor?.last as? [String: Any]
            #expect((request?["total"] as? [String: Any])?["label"] as? String == "Tessera Arena (via Tessera Market)")
            #expect((request?["total"] as? [String: Any])?["amount"] as? String == "107.84")
            // Apple's merchant session, unchanged.
            let merchantSession = Self.argument(byName["completeMerchantValidation"])
            let expected = try JSONSerialization.jsonObject(with: Data(AppleGatewayStandIn.session.utf8)) as? [String: Any]
            #expect(merchantSession["merchantSessionIdentifier"] as? String == expected?["merchantSessionIdentifier"] as? String)
            #expect(merchantSession["signature"] as? String == "c2lnbmF0dXJl")
            // Each update is the server's answer.
            let contact = Self.argument(byName["completeShippingContactSelection"])
            #expect(Self.total(contact) == "107.84")
            #expect((contact["newShippingMethods"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String }
                    == ["standard", "express"])
            #expect(Self.total(Self.argument(byName["completeShippingMethodSelection"])) == "117.84")
            let (_, read) = try await page.client.get("/checkout/v1/sessions/\(page.sessionId)")
            let request2 = read["paymentRequest"] as? [String: Any]
            let serverTotal = try #require((request2?["total"] as? [String: Any])?["amount"] as? String)
            #expect(request2?["couponCode"] as? String == "SAVE10")
            #expect(Self.total(Self.argument(byName["completeCouponCodeChange"])) == serverTotal)
            #expect(Self.total(Self.argument(byName["completePaymentMethodSelection"])) == serverTotal)
            #expect(try await page.text("#total-amount") { $0 == "$\(serverTotal)" } == "$\(serverTotal)")

            // The device's payment for that total, signed and encrypted as Apple Pay would send it.
            let minorUnits = try #require(Decimal(string: serverTotal)) * 100
            let payment = try fixture.payment(minorUnits: minorUnits,
                                              applicationData: Data("tessera-checkout-session:\(page.sessionId)".utf8))
            let paymentObject = try JSONSerialization.jsonObject(with: payment)
            _ = try await page.driver.execute("applePayStandIn.resume(arguments[0]);", [paymentObject])
            let code = try await page.driver.wait({ try await page.driver.attribute("#result", "data-code") },
                                                  until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(code == "STATUS_SUCCESS", "\(receipt)")
            #expect(receipt.contains("(Apple Pay)"))
            let completion = try #require(try await Self.calls(page).last)
            #expect(completion["name"] as? String == "completePayment")
            #expect(Self.argument(completion)["status"] as? Int == 0)
            // The Wallet order issued for the order, handed to Wallet with Apple Pay JS's four keys.
            let orderDetails = try #require(Self.argument(completion)["orderDetails"] as? [String: String])
            #expect(orderDetails["orderTypeIdentifier"] == WalletOrderIssuerStandIn.orderTypeIdentifier)
            #expect(orderDetails["webServiceURL"] == WalletOrderIssuerStandIn.webServiceURL)
            #expect(orderDetails["authenticationToken"]?.count == 32)
            #expect(orderDetails.keys.sorted() == ["authenticationToken", "orderIdentifier", "orderTypeIdentifier", "webServiceURL"])
            #expect(try await page.evaluate("document.getElementById('apple-pay-area').hidden") == "true")
        }
    }

    @Test("An unserviceable address is passed back as an ApplePayError; a cancel is announced")
    func replaysAnAbandonedPurchase() async throws {
        try await Self.run(events: Self.abandoned) { page, _ in
            try await page.driver.click("#apple-pay-button")
            let finished = try await page.driver.wait({ try await page.evaluate("applePayStandIn.finished") }, until: { $0 == "true" })
            #expect(finished == "true")
            let calls = try await Self.calls(page)
            let contact = try #require(calls.first { $0["name"] as? String == "completeShippingContactSelection" })
            let errors = Self.argument(contact)["errors"] as? [[String: Any]]
            #expect(errors?.first?["code"] as? String == "addressUnserviceable")
            #expect(errors?.first?["contactField"] as? String == "postalCode")
            #expect(contact["applePayErrors"] as? [Bool] == [true])
            #expect(!calls.contains { $0["name"] as? String == "abort" })
            let code = try await page.driver.wait({ try await page.driver.attribute("#result", "data-code") },
                                                  until: { $0 == "cancelled" })
            #expect(code == "cancelled")
            #expect(try await page.driver.text("#result").contains("cancelled"))
        }
    }
}
