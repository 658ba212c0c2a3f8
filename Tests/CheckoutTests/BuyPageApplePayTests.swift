import Checkout
import Foundation
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// The buy page's Apple Pay tap in headless Chromium, against the stand-in `ApplePaySession`: the sheet begins inside
/// the click from the request the server embedded, the session is created once during merchant validation, and the
/// purchase goes through the sheet's endpoints to the receipt.
@Suite("The buy page opens Apple Pay on the tap", .serialized)
struct BuyPageApplePayTests {
    /// Wraps `fetch` to keep every request the page makes (method and URL) in the tab's `sessionStorage`.
    static let fetchLog = """
        (function () {
          const original = window.fetch.bind(window);
          window.fetch = function (url, init) {
            const log = JSON.parse(sessionStorage.getItem('fetchLog') || '[]');
            log.push({ method: (init && init.method) || 'GET', url: String(url) });
            sessionStorage.setItem('fetchLog', JSON.stringify(log));
            return original(url, init);
          };
        })();
        """

    /// Opens `/checkout/buy/TSHIRT` with the stand-in replaying `events` and the fetch log, both emptied.
    static func openBuyPage(_ page: SheetBrowser.Page) async throws -> String {
        let origin = try #require(page.url.range(of: "/checkout/sheet/").map { String(page.url[..<$0.lowerBound]) })
        try await page.driver.devTools("Page.addScriptToEvaluateOnNewDocument", ["source": fetchLog])
        try await page.driver.open("\(origin)/checkout/buy/TSHIRT")
        _ = try await page.evaluate("sessionStorage.clear()")
        _ = try await page.driver.wait({ try await page.evaluate(
            "document.getElementById('buy-button').classList.contains('apple-pay-button')") }, until: { $0 == "true" })
        return origin
    }

    /// The requests the page made, as `METHOD path`.
    static func fetches(_ page: SheetBrowser.Page) async throws -> [String] {
        let json = try await page.evaluate("sessionStorage.getItem('fetchLog') || '[]'")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]])
        return log.map { "\($0["method"] ?? "") \(URLComponents(string: $0["url"] ?? "")?.path ?? "")" }
    }

    /// The stand-in's calls as kept in `sessionStorage`, readable after the page has moved on.
    static func storedCalls(_ page: SheetBrowser.Page) async throws -> [[String: Any]] {
        let json = try await page.evaluate("sessionStorage.getItem('applePayStandIn.calls') || '[]'")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    /// The bytes of the `applicationData` of the request the sheet was built with.
    static func applicationData(_ request: [String: Any]?) throws -> Data {
        try #require((request?["applicationData"] as? String).flatMap { Data(base64Encoded: $0) })
    }
}

extension BuyPageApplePayTests {
    /// Makes the page look as it did before the price changed: its embedded total becomes 1.00, no longer the server's.
    static func embedOldPrice(_ page: SheetBrowser.Page) async throws {
        _ = try await page.driver.execute("""
            const element = document.getElementById('buy-data');
            const data = JSON.parse(element.textContent);
            data.paymentRequest.total.amount = '1.00';
            element.textContent = JSON.stringify(data);
            """)
    }

    @Test("One tap begins the sheet inside the click; the session is created once; the purchase reaches the receipt")
    func tapToReceipt() async throws {
        try await SheetApplePayTests.run(events: SheetApplePayTests.purchase) { page, fixture in
            _ = try await Self.openBuyPage(page)
            try await page.driver.click("#buy-button")
            _ = try await page.driver.wait({ try await page.evaluate("applePayStandIn.paused") }, until: { $0 == "true" })
            let calls = try await SheetApplePayTests.calls(page)
            #expect(calls.map { $0["name"] as? String ?? "" } == SheetApplePayTests.purchaseCalls)
            // Safari's rule: the session is built and begun synchronously inside the buyer's click.
            #expect(calls.first?["inClick"] as? Bool == true)
            #expect(calls.count > 1 && calls[1]["inClick"] as? Bool == true)

            // The newest version, and the request a catalogue session for one T-shirt has, priced by the server.
            let constructor = calls.first?["args"] as? [Any]
            #expect(constructor?.first as? Int == 14)
            var request = try #require(constructor?.last as? [String: Any])
            let applicationData = try Self.applicationData(request)
            #expect(String(decoding: applicationData, as: UTF8.self).hasPrefix("tessera-checkout-key:"))
            let reference = try await page.client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]])
            var expected = try #require(reference["paymentRequest"] as? [String: Any])
            request["applicationData"] = nil
            expected["applicationData"] = nil
            let canonical = { (value: [String: Any]) in
                String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try canonical(request) == canonical(expected))
            #expect((request["total"] as? [String: Any])?["label"] as? String == "Tessera Arena (via Tessera Market)")

            // Exactly one session, created inside merchant validation, then the sheet's own endpoints.
            let fetches = try await Self.fetches(page)
            #expect(fetches.filter { $0 == "POST /checkout/v1/sessions" }.count == 1, "\(fetches)")
            #expect(fetches.first == "POST /checkout/v1/sessions", "\(fetches)")
            #expect(fetches.dropFirst().first == "POST /checkout/v1/merchant-validation", "\(fetches)")
            let update = try #require(fetches.first { $0.hasSuffix("/shipping-contact") })
            let sessionId = try #require(update.split(separator: "/").dropLast().last.map(String.init))
            #expect(Array(fetches.dropFirst(2)) == ["shipping-contact", "shipping-method", "coupon-code", "payment-method"]
                .map { "POST /checkout/v1/sessions/\(sessionId)/\($0)" })

            // The total the sheet shows is the server's.
            let (_, read) = try await page.client.get("/checkout/v1/sessions/\(sessionId)")
            let serverTotal = try #require(((read["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"]
                as? String)
            let byName = Dictionary(calls.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
            #expect(SheetApplePayTests.total(SheetApplePayTests.argument(byName["completePaymentMethodSelection"]))
                    == serverTotal)

            // The device's payment for that total, for the request the sheet was built with.
            let minorUnits = try #require(Decimal(string: serverTotal)) * 100
            let payment = try fixture.payment(minorUnits: minorUnits, applicationData: applicationData)
            _ = try await page.driver.execute("applePayStandIn.resume(arguments[0]);",
                                              [try JSONSerialization.jsonObject(with: payment)])
            // The buyer lands on the session's sheet page, now read-only, with the receipt.
            // Read leniently: while the page changes there is briefly no document to ask.
            let code = try await page.driver.wait({
                (try? await page.evaluate("document.getElementById('result') ? document.getElementById('result').dataset.code : ''"))
                    ?? "" }, until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(code == "STATUS_SUCCESS", "\(receipt)")
            #expect(try await page.evaluate("location.pathname") == "/checkout/sheet/\(sessionId)")
            #expect(receipt.contains("(Apple Pay)"))
            let completion = try #require(try await Self.storedCalls(page).last)
            #expect(completion["name"] as? String == "completePayment")
            #expect(SheetApplePayTests.argument(completion)["status"] as? Int == 0)
            let after = try await Self.fetches(page)
            #expect(after.filter { $0 == "POST /checkout/v1/sessions" }.count == 1, "\(after)")
            #expect(after.contains("POST /checkout/v1/sessions/\(sessionId)/authorize"))
            let (_, paid) = try await page.client.get("/checkout/v1/sessions/\(sessionId)")
            #expect(paid["state"] as? String == "authorized")
        }
    }

    @Test("A price changed since the page was made reaches the sheet in the first update, and is never charged unseen")
    func changedPrice() async throws {
        let events = """
            [{"handler": "onvalidatemerchant", "event": {"validationURL": "https://localhost/paymentservices/paymentSession"}},
             {"handler": "pause"}]
            """
        try await SheetApplePayTests.run(events: events) { page, fixture in
            _ = try await Self.openBuyPage(page)
            // The page as it was before the price changed: the embedded total is no longer the server's.
            try await Self.embedOldPrice(page)
            try await page.driver.click("#buy-button")
            _ = try await page.driver.wait({ try await page.evaluate("applePayStandIn.paused") }, until: { $0 == "true" })
            let calls = try await SheetApplePayTests.calls(page)
            let request = (calls.first?["args"] as? [Any])?.last as? [String: Any]
            #expect((request?["total"] as? [String: Any])?["amount"] as? String == "1.00")
            #expect(calls.first?["inClick"] as? Bool == true)

            // No update has shown the new total: a payment for the old one is refused before it reaches the server.
            let payment = try fixture.payment(minorUnits: 100, applicationData: try Self.applicationData(request))
            _ = try await page.driver.execute("applePayStandIn.resume(arguments[0]);",
                                              [try JSONSerialization.jsonObject(with: payment)])
            _ = try await page.driver.wait({ try await SheetApplePayTests.calls(page).last?["name"] as? String ?? "" },
                                           until: { $0 == "completePayment" })
            let completion = try await SheetApplePayTests.calls(page).last
            #expect(SheetApplePayTests.argument(completion)["status"] as? Int == 1)
            #expect(try await page.text("#buy-status") { $0.contains("price") }.contains("price has changed"))
            let fetches = try await Self.fetches(page)
            #expect(!fetches.contains { $0.hasSuffix("/authorize") }, "\(fetches)")
        }
    }

    @Test("The first update after merchant validation carries the server's total")
    func firstUpdateCarriesTheNewTotal() async throws {
        let events = """
            [{"handler": "onvalidatemerchant", "event": {"validationURL": "https://localhost/paymentservices/paymentSession"}},
             {"handler": "onpaymentmethodselected", "event": {"paymentMethod":
               {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}},
             {"handler": "pause"}]
            """
        try await SheetApplePayTests.run(events: events) { page, _ in
            _ = try await Self.openBuyPage(page)
            let embedded = try await page.evaluate(
                "JSON.parse(document.getElementById('buy-data').textContent).paymentRequest.total.amount")
            try await Self.embedOldPrice(page)
            try await page.driver.click("#buy-button")
            _ = try await page.driver.wait({ try await page.evaluate("applePayStandIn.paused") }, until: { $0 == "true" })
            let calls = try await SheetApplePayTests.calls(page)
            let update = try #require(calls.first { $0["name"] as? String == "completePaymentMethodSelection" })
            #expect(SheetApplePayTests.total(SheetApplePayTests.argument(update)) == embedded)
            #expect(embedded == "32.06")
        }
    }
}
