import Foundation
import Testing
import TesseraTestSupport

/// `tessera pay sheet --format html` (the CLI as a subprocess) opened in headless Chromium: the checkout's sheet,
/// static, for a request on its own.
@Suite("The payment sheet preview from tessera pay sheet")
struct SheetPreviewTests {
    static let request = """
        {"countryCode": "JP", "currencyCode": "JPY", "merchantCapabilities": ["supports3DS"], "supportedNetworks": ["visa"],
         "lineItems": [{"label": "Subtotal", "amount": "6000"}, {"label": "Shipping", "amount": "28"}],
         "shippingType": "shipping",
         "shippingMethods": [{"label": "Standard", "detail": "3-5 days", "amount": "28", "identifier": "std"},
                             {"label": "Express", "detail": "1 day", "amount": "500", "identifier": "exp"}],
         "requiredShippingContactFields": ["postalAddress", "email"],
         "total": {"label": "Tessera Arena (via Tessera Market)", "amount": "6028"}}
        """

    @Test("Renders the rows, the merchant's total line and a disabled pay button stating the amount; sends nothing")
    func previewInChromium() async throws {
        if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] == "1" { return }
        guard let chromium = WebDriver.locate() else {
            Issue.record("Chromium or chromedriver not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            return
        }
        let directory = try TemporaryDirectory.make(prefix: "sheet-preview")
        let input = directory.appendingPathComponent("request.json")
        try Data(Self.request.utf8).write(to: input)
        let result = try await Subprocess.tessera(["pay", "sheet", input.path, "--format", "html"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = directory.appendingPathComponent("sheet.html")
        try Data(result.stdout.utf8).write(to: page)
        let driver = try await WebDriver.start(browser: chromium.browser, driver: chromium.driver)
        do {
            try await driver.open(page.absoluteString)
            let pay = try await driver.wait({ try await driver.text("#pay-button") }, until: { $0.hasPrefix("Pay ") })
            #expect(pay == "Pay ¥6,028")
            #expect(try await driver.attribute("#pay-button", "disabled") == "true")
            #expect(try await driver.text("#merchant-line") == "Pay Tessera Arena (via Tessera Market)")
            let rows = "Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).map((r) => r.id).join(',')"
            #expect(try await driver.execute("return \(rows);") as? String
                    == "row-payment,row-shipping-address,row-shipping-method,row-contact")
            #expect(try await driver.text("#shipping-method-value") == "Standard · ¥28")
            // The pickers open as on the live sheet; an answer that would need the server says it is a preview.
            try await driver.click("#row-shipping-method-button")
            try await driver.click("#method-exp")
            let status = try await driver.wait({ try await driver.text("#shipping-status") }, until: { !$0.isEmpty })
            #expect(status.contains("preview"))
            #expect(try await driver.text("#total-amount") == "¥6,028")
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
    }
}
