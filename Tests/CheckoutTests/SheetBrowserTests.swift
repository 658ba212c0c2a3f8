import Checkout
import Foundation
import HummingbirdTesting
import HTTPTypes
import Testing
import TesseraTestSupport

@Suite("The payment sheet in headless Chromium")
struct SheetBrowserTests {
    @Test("Renders, refreshes the total from the server on a shipping change, shows the unserviceable error, pays in development mode")
    func sheetInChromium() async throws {
        try await SheetBrowser.run { page in
            let driver = page.driver, client = page.client, id = page.sessionId
            #expect(page.url.contains("clientSecret="))
            #expect(try await driver.text("#merchant-line") == "Pay Tessera Arena (via Tessera Market)")
            // 95.00 + standard 5.00 + 7.84 tax
            let initial = try await page.text("#total-amount") { !$0.isEmpty }
            #expect(initial == "$107.84")
            #expect(try await driver.text("#line-items").contains("Sales Tax"))

            try await page.openRow("shipping-method")
            try await driver.click("#method-express")
            // The sheet posts the choice on its own: the server's total is read once it has (a loaded machine takes
            // longer than one read).
            var serverTotal = ""
            let deadline = Date().addingTimeInterval(30)
            repeat {
                let (_, read) = try await client.get("/checkout/v1/sessions/\(id)")
                serverTotal = ((read["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"] as? String ?? ""
                if serverTotal != "117.84" { try await Task.sleep(for: .milliseconds(100)) }
            } while serverTotal != "117.84" && Date() < deadline
            #expect(serverTotal == "117.84")
            let shown = try await page.text("#total-amount") { $0 == "$\(serverTotal)" }
            #expect(shown == "$\(serverTotal)")
            #expect(try await driver.attribute("#total-amount", "data-amount") == serverTotal)

            try await page.openRow("shipping-address")
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
            try await driver.type("#addressLine", "1 Infinite Loop")
            try await driver.type("#locality", "Cupertino")
            try await driver.type("#administrativeArea", "CA")
            try await driver.type("#postalCode", "95014")
            try await driver.click("#address-submit")
            _ = try await page.text("#shipping-status") { $0.contains("updated") }
            #expect(try await driver.text("#shipping-address-value") == "Ada Lovelace, 1 Infinite Loop, Cupertino, CA, 95014, US")
            // The state goes with the redacted address, as Apple Pay's does (a US or Canadian label needs it).
            let (_, addressed) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect((addressed["shippingContact"] as? [String: Any])?["administrativeArea"] as? String == "CA", "\(addressed)")
            try await page.openRow("contact")
            try await driver.type("#emailAddress", "ada@example.test")
            try await driver.click("#contact-submit")
            #expect(try await driver.text("#contact-value") == "ada@example.test")
            try await driver.click("#pay-button")
            let result = try await driver.wait({ try await driver.attribute("#result", "data-code") },
                                               until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await driver.text("#result")
            #expect(result == "STATUS_SUCCESS", "\(receipt)")
            #expect(receipt.contains("Visa ••••1111 (Apple Pay)"))
        }
    }

    @Test("Two tickets: after payment one link adds both passes to Apple Wallet as one .pkpasses download, and one the order")
    func allPassesLink() async throws {
        let walletOrders = try WalletOrderIssuerStandIn()
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 2]]], walletOrderIssuer: walletOrders,
                                   configure: { $0.walletOrders = WalletOrderDataTests.walletOrders }) { page in
            let driver = page.driver, client = page.client
            try await page.fillTicketContact()
            try await driver.click("#pay-button")
            let result = try await driver.wait({ try await driver.attribute("#result", "data-code") },
                                               until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await driver.text("#result")
            #expect(result == "STATUS_SUCCESS", "\(receipt)")
            #expect(try await driver.text("#all-passes") == "Add all 2 passes to Apple Wallet")
            let orderId = try #require(try await page.fixture.store.session(id: page.sessionId)?.orderId)
            let issued = try #require(walletOrders.issued[orderId])
            #expect(try await driver.attribute("#wallet-order", "href") == issued.details.downloadURL)
            #expect(try await driver.text("#wallet-order") == "Track this order in Apple Wallet")
            let href = try #require(try await driver.attribute("#all-passes", "href"))
            let link = try #require(URLComponents(string: href))
            #expect(link.path.hasPrefix("/checkout/v1/orders/") && link.path.hasSuffix("/pkpasses"), "\(href)")
            #expect(link.query?.hasPrefix("clientSecret=") == true, "\(href)")
            try await client.execute(uri: link.path + "?" + (link.query ?? ""), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpasses")
            }
        }
    }
}
