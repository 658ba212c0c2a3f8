import Checkout
import Foundation
import Testing
import TesseraTestSupport

/// The payment sheet's behaviour where it used to go wrong, each checked in headless Chromium.
@Suite("The payment sheet keeps focus, order, address and amounts right", .serialized)
struct SheetDefectTests {
    /// The page's shipping method radio buttons, in document order.
    static let radioOrder = "Array.from(document.querySelectorAll('input[name=shippingMethod]')).map((e) => e.id).join(',')"

    @Test("Choosing a shipping method with the arrow keys keeps the focus on the chosen method")
    func arrowKeysKeepFocus() async throws {
        try await SheetBrowser.run { page in
            try await page.openRow("shipping-method")
            try await page.driver.click("#method-standard")
            try await page.driver.keys("#method-standard", "\u{E015}")
            let total = try await page.text("#total-amount") { $0 == "$117.84" }
            #expect(total == "$117.84")
            // The list is rebuilt from the server's answer; the focus must come back to where the buyer was.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await page.evaluate("document.activeElement.id") == "method-express")
            #expect(try await page.evaluate("document.getElementById('method-express').checked") == "true")
        }
    }

    @Test("The selected shipping method stays where the merchant listed it")
    func selectedMethodKeepsItsPlace() async throws {
        try await SheetBrowser.run { page in
            #expect(try await page.evaluate(Self.radioOrder) == "method-standard,method-express")
            try await page.openRow("shipping-method")
            try await page.driver.click("#method-express")
            _ = try await page.text("#total-amount") { $0 == "$117.84" }
            #expect(try await page.evaluate(Self.radioOrder) == "method-standard,method-express")
            // A coupon's answer and a reload carry the server's list, which puts the selected method first.
            try await page.openRow("coupon")
            try await page.driver.type("#couponCode", "SAVE10")
            try await page.driver.click("#coupon-submit")
            _ = try await page.text("#coupon-status") { $0.contains("applied") }
            #expect(try await page.evaluate(Self.radioOrder) == "method-standard,method-express")
            #expect(try await page.evaluate("document.getElementById('method-express').checked") == "true")
            try await page.driver.refresh()
            _ = try await page.text("#total-amount") { !$0.isEmpty }
            #expect(try await page.evaluate(Self.radioOrder) == "method-standard,method-express")
            #expect(try await page.evaluate("document.getElementById('method-express').checked") == "true")
            // The server itself lists the selected method first, as Apple Pay expects; the sheet must not follow it.
            let (_, read) = try await page.client.get("/checkout/v1/sessions/\(page.sessionId)")
            let methods = (read["paymentRequest"] as? [String: Any])?["shippingMethods"] as? [[String: Any]]
            #expect(methods?.first?["identifier"] as? String == "express")
        }
    }

    @Test("The development pay button states the amount and follows the total")
    func payButtonStatesTheAmount() async throws {
        try await SheetBrowser.run { page in
            #expect(try await page.text("#pay-button") { $0 == "Pay $107.84" } == "Pay $107.84")
            try await page.openRow("shipping-method")
            try await page.driver.click("#method-express")
            #expect(try await page.text("#pay-button") { $0 == "Pay $117.84" } == "Pay $117.84")
        }
    }

    @Test("The total is labelled with the merchant on the statement, not \"Total\"")
    func totalCarriesTheMerchantLine() async throws {
        try await SheetBrowser.run { page in
            _ = try await page.text("#total-amount") { !$0.isEmpty }
            let label = try await page.evaluate("document.getElementById('total-amount').previousElementSibling.textContent")
            #expect(label == "Pay Tessera Arena (via Tessera Market)")
            #expect(!(try await page.driver.text("#sheet")).contains("Total"))
        }
    }

    @Test("An unserviceable address shows no shipping price, no total and no way to pay")
    func unserviceableAddressHasNoShippingPrice() async throws {
        try await SheetBrowser.run { page in
            _ = try await page.text("#line-items") { $0.contains("Shipping") }
            try await page.openRow("shipping-address")
            try await page.driver.type("#locality", "New York")
            try await page.driver.type("#postalCode", "10001")
            try await page.driver.type("#countryCode", "US")
            try await page.driver.click("#address-submit")
            let code = try await page.driver.wait({ try await page.driver.attribute("#shipping-status", "data-code") },
                                                  until: { $0 == "addressUnserviceable" })
            #expect(code == "addressUnserviceable")
            #expect(!(try await page.driver.text("#line-items")).contains("Shipping"))
            #expect(!(try await page.evaluate("document.getElementById('shipping-methods').textContent")).contains("$"))
            #expect(!(try await page.driver.text("#shipping-method-value")).contains("$"))
            #expect(try await page.driver.attribute("#total-amount", "data-pending") == "true")
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")

            // A reload starts from the server's record of the unserviceable address, not from a shipping price.
            try await page.driver.refresh()
            _ = try await page.text("#total-amount") { !$0.isEmpty }
            #expect(try await page.driver.attribute("#shipping-status", "data-code") == "addressUnserviceable")
            #expect(!(try await page.driver.text("#line-items")).contains("Shipping"))
            #expect(!(try await page.driver.text("#shipping-method-value")).contains("$"))
            #expect(try await page.driver.attribute("#total-amount", "data-pending") == "true")
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")
        }
    }

    @Test("A reload keeps the address typed for this session")
    func reloadKeepsTheAddress() async throws {
        try await SheetBrowser.run { page in
            try await page.openRow("shipping-address")
            try await page.driver.type("#givenName", "Ada")
            try await page.driver.type("#addressLine", "1 Infinite Loop")
            try await page.driver.type("#locality", "Cupertino")
            try await page.driver.type("#postalCode", "95014")
            try await page.driver.type("#countryCode", "US")
            try await page.driver.click("#address-submit")
            _ = try await page.text("#shipping-status") { $0.contains("updated") }
            try await page.driver.refresh()
            _ = try await page.text("#total-amount") { !$0.isEmpty }
            let values = "['givenName','addressLine','locality','postalCode','countryCode']"
                + ".map((id) => document.getElementById(id).value).join('|')"
            #expect(try await page.evaluate(values) == "Ada|1 Infinite Loop|Cupertino|95014|US")
            // Kept in this tab's session storage under the session's id, not in the server's record.
            #expect(try await page.evaluate("sessionStorage.getItem('tessera.sheet.\(page.sessionId)') !== null") == "true")
        }
    }

    @Test("An address the session already has is shown, not typed again")
    func knownAddressIsShown() async throws {
        try await SheetBrowser.run { page in
            let (_, update) = try await page.client.post("/checkout/v1/sessions/\(page.sessionId)/shipping-contact", [
                "shippingContact": ["locality": "Cupertino", "postalCode": "95014", "countryCode": "US"]])
            #expect(update["errors"] == nil)
            try await page.driver.refresh()
            let shown = try await page.text("#shipping-address-value") { $0.contains("Cupertino") }
            #expect(shown == "Cupertino, 95014, US")
            #expect(try await page.evaluate("document.getElementById('postalCode').value") == "95014")
        }
    }

    @Test("After payment the sheet is read-only")
    func paidSheetIsReadOnly() async throws {
        try await SheetBrowser.run { page in
            try await page.fillShippingBuyer()
            try await page.driver.click("#pay-button")
            let code = try await page.resultCode(until: { $0 == "STATUS_SUCCESS" })
            #expect(code == "STATUS_SUCCESS")
            for control in ["#locality", "#givenName", "#couponCode", "#method-standard", "#method-express",
                            "#address-submit", "#coupon-submit", "#pay-button"] {
                #expect(try await page.driver.attribute(control, "disabled") == "true", "\(control) is still editable")
            }
        }
    }

    @Test("Amounts are written for the buyer's locale with the currency's own digits",
          arguments: [("USD", "95.00", "$95.00"), ("JPY", "6028", "¥6,028"), ("KWD", "13.720", "KWD 13.720"),
                      // A browser's currency data shows HUF without digits; it is charged with two.
                      ("HUF", "1268.73", "HUF 1,268.73")])
    func amountsUseTheCurrencysDigits(currency: String, subtotal: String, expected: String) async throws {
        try await SheetBrowser.run(session: ["summary": ["subtotal": subtotal]], configure: { merchant in
            merchant.currencyCode = currency
            merchant.tax = nil
            merchant.shippingMethods = []
            merchant.products = [:]  // the catalogue's prices are in cents, which JPY has not
            merchant.coupons = []
        }) { page in
            let shown = try await page.text("#total-amount") { !$0.isEmpty }
            #expect(shown.replacingOccurrences(of: "\u{00A0}", with: " ") == expected)
            #expect(try await page.driver.attribute("#total-amount", "data-amount") == subtotal)
        }
    }
}
