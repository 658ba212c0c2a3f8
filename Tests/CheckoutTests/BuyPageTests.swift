import Checkout
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// `GET /checkout/buy/{sku}` in headless Chromium at phone size: the product, its price in the buyer's locale, one
/// button that opens the payment sheet at once; the Apple Pay button only where Apple Pay exists; 404 for no product.
@Suite("The buy page")
struct BuyPageTests {
    @Test("Shows the product in the buyer's locale and opens the sheet on one tap; Apple Pay only where it exists")
    func buyPage() async throws {
        try await SheetBrowser.run { page in
            let origin = try #require(page.url.range(of: "/checkout/sheet/").map { String(page.url[..<$0.lowerBound]) })
            try await page.driver.devTools("Emulation.setDeviceMetricsOverride",
                                           ["width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true])
            // A buyer whose browser prefers German: navigator.languages and Intl's default both follow.
            let userAgent = try await page.evaluate("navigator.userAgent")
            try await page.driver.devTools("Emulation.setUserAgentOverride", ["userAgent": userAgent, "acceptLanguage": "de-DE"])
            try await page.driver.devTools("Emulation.setLocaleOverride", ["locale": "de-DE"])
            try await page.driver.open("\(origin)/checkout/buy/TSHIRT")
            #expect(try await page.driver.text("#product-name") == "Tour T-shirt")
            let price = try await page.text("#product-price") { !$0.hasPrefix("USD") }
            #expect(price.replacingOccurrences(of: "\u{a0}", with: " ") == "25,00 $")
            #expect(try await page.driver.text("#buy-button") == "Buy")
            #expect(try await page.evaluate("document.getElementById('buy-button').classList.contains('apple-pay-button')")
                    == "false")

            try await page.driver.click("#buy-button")
            let path = try await page.driver.wait({ try await page.evaluate("location.pathname") },
                                                  until: { $0.hasPrefix("/checkout/sheet/") })
            #expect(path.hasPrefix("/checkout/sheet/cs_") && path != "/checkout/sheet/\(page.sessionId)")
            // The sheet is open at once: its pay button states the amount, with no step in between.
            let pay = try await page.text("#pay-button") { $0.hasPrefix("Pay ") && $0 != "Pay " }
            #expect(pay.replacingOccurrences(of: "\u{a0}", with: " ") == "Pay 32,06 $")
            let items = try await page.evaluate(
                "JSON.stringify(JSON.parse(document.getElementById('checkout-data').textContent).paymentRequest.lineItems[0])")
            #expect(items.contains("\"amount\":\"25.00\""), "\(items)")

            try await page.driver.devTools("Page.addScriptToEvaluateOnNewDocument",
                                           ["source": ApplePaySessionStandIn.script(events: "[]")])
            try await page.driver.open("\(origin)/checkout/buy/TICKET-GA")
            _ = try await page.driver.wait({ try await page.evaluate(
                "document.getElementById('buy-button').classList.contains('apple-pay-button')") }, until: { $0 == "true" })
            #expect(try await page.driver.attribute("#buy-button", "aria-label") == "Buy with Apple Pay")

            try await page.driver.open("\(origin)/checkout/buy/NOPE")
            #expect(try await page.driver.text("h1") == "Product not found")
            let missing = try await page.client.execute(uri: "/checkout/buy/NOPE", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
        }
    }
}
