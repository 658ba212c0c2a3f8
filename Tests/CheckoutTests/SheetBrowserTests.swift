import Checkout
import Foundation
import HummingbirdTesting
import HTTPTypes
import Testing

@Suite("The payment sheet in headless Chromium")
struct SheetBrowserTests {
    @Test("Renders, refreshes the total from the server on a shipping change, shows the unserviceable error, pays in development mode")
    func sheetInChromium() async throws {
        if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] == "1" { return }
        guard let chromium = WebDriver.locate() else {
            Issue.record("Chromium or chromedriver not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            return
        }
        let fixture = try CheckoutFixture(developmentMode: true)
        try await fixture.withClient { client in
            let port = try #require(client.port)
            let session = try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1], ["sku": "TICKET-GA", "quantity": 2]]])
            let id = try #require(session["id"] as? String)
            let sheetURL = try #require(session["sheetURL"] as? String)
            #expect(sheetURL.contains("clientSecret="))
            let driver = try await WebDriver.start(browser: chromium.browser, driver: chromium.driver)
            do {
                try await driver.open("http://127.0.0.1:\(port)\(sheetURL)")
                #expect(try await driver.text("#merchant-line") == "Pay Tessera Arena (via Tessera Market)")
                // 115.00 + standard 5.00 + 9.49 tax (8.25 % of 115.00)
                let initial = try await driver.wait({ try await driver.text("#total-amount") }, until: { !$0.isEmpty })
                #expect(initial == "USD 129.49")
                #expect(try await driver.text("#line-items").contains("Sales Tax"))

                try await driver.click("#method-express")
                let (_, read) = try await client.get("/checkout/v1/sessions/\(id)")
                let serverTotal = try #require(((read["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"] as? String)
                #expect(serverTotal == "139.49")
                let shown = try await driver.wait({ try await driver.text("#total-amount") }, until: { $0 == "USD \(serverTotal)" })
                #expect(shown == "USD \(serverTotal)")
                #expect(try await driver.attribute("#total-amount", "data-amount") == serverTotal)

                try await driver.type("#locality", "New York")
                try await driver.type("#postalCode", "10001")
                try await driver.type("#countryCode", "US")
                try await driver.click("#address-submit")
                let code = try await driver.wait({ try await driver.attribute("#shipping-status", "data-code") },
                                                 until: { $0 == "addressUnserviceable" })
                #expect(code == "addressUnserviceable")
                #expect(try await driver.text("#shipping-status").contains("postal code"))
                #expect(try await driver.attribute("#shipping-status", "aria-live") == "polite")

                try await driver.type("#givenName", "Ada")
                try await driver.type("#familyName", "Lovelace")
                try await driver.type("#emailAddress", "ada@example.test")
                try await driver.type("#addressLine", "1 Infinite Loop")
                try await driver.type("#locality", "Cupertino")
                try await driver.type("#postalCode", "95014")
                try await driver.click("#address-submit")
                _ = try await driver.wait({ try await driver.text("#shipping-status") }, until: { $0.contains("updated") })
                try await driver.click("#pay-button")
                let result = try await driver.wait({ try await driver.attribute("#result", "data-code") },
                                                   until: { $0 == "STATUS_SUCCESS" })
                let receipt = try await driver.text("#result")
                #expect(result == "STATUS_SUCCESS", "\(receipt)")
                #expect(receipt.contains("Visa ••••1111 (Apple Pay)"))
                // Two tickets: one link adds both to Wallet as a .pkpasses bundle.
                #expect(try await driver.text("#all-passes") == "Add all 2 passes to Apple Wallet")
                let href = try #require(try await driver.attribute("#all-passes", "href"))
                let path = href.replacingOccurrences(of: "http://127.0.0.1:\(port)", with: "")
                #expect(path.hasPrefix("/checkout/v1/orders/") && path.contains("/pkpasses?clientSecret="), "\(href)")
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/vnd.apple.pkpasses")
                }
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
    }
}
