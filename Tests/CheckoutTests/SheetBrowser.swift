import Checkout
import Foundation
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// Opens a checkout session's payment sheet in headless Chromium for a browser test.
enum SheetBrowser {
    /// The T-shirts-and-ticket session most sheet tests use: 95.00 of goods, standard shipping 5.00, tax 7.84.
    nonisolated(unsafe) static let shirtsAndTicket: [String: Any] = ["items": [["sku": "TSHIRT", "quantity": 2], ["sku": "TICKET-GA", "quantity": 1]]]

    /// One opened sheet: the browser, the server's test client and the session.
    struct Page {
        let driver: WebDriver
        let fixture: CheckoutFixture
        let client: LiveTestClient
        let sessionId: String
        let url: String

        /// The text of `selector` once `condition` holds (or the last text read after 30 s).
        func text(_ selector: String, until condition: @escaping (String) -> Bool) async throws -> String {
            try await driver.wait({ try await driver.text(selector) }, until: condition)
        }

        /// Opens a row's picker in place (a click on the row, as the buyer would), unless it is open already.
        func openRow(_ name: String) async throws {
            if try await driver.attribute("#row-\(name)-button", "aria-expanded") != "true" {
                try await driver.click("#row-\(name)-button")
            }
        }

        /// Fills the Contact row as a ticket's buyer would (the merchant asks for a name and an email; nothing ships).
        func fillTicketContact() async throws {
            try await openRow("contact")
            try await driver.type("#givenName", "Ada")
            try await driver.type("#familyName", "Lovelace")
            try await driver.type("#emailAddress", "ada@example.test")
            try await driver.click("#contact-submit")
        }

        /// Fills what the T-shirts-and-ticket session asks before payment: an email and a shipping address.
        func fillShippingBuyer() async throws {
            try await openRow("contact")
            try await driver.type("#emailAddress", "ada@example.test")
            try await driver.click("#contact-submit")
            try await openRow("shipping-address")
            for (field, value) in [("#givenName", "Ada"), ("#familyName", "Lovelace"), ("#addressLine", "1 Infinite Loop"),
                                   ("#locality", "Cupertino"), ("#postalCode", "95014"), ("#countryCode", "US")] {
                try await driver.type(field, value)
            }
            try await driver.click("#address-submit")
            _ = try await text("#shipping-status") { $0.contains("updated") }
        }

        /// The result region's code (`STATUS_SUCCESS`, a refusal's code) once `condition` holds (or after 30 s).
        func resultCode(until condition: @escaping (String?) -> Bool) async throws -> String? {
            try await driver.wait({ try await driver.attribute("#result", "data-code") }, until: condition)
        }

        /// The result of a JavaScript expression, as a string.
        func evaluate(_ expression: String) async throws -> String {
            let value = try await driver.execute("return String(\(expression));")
            return value as? String ?? ""
        }
    }

    /// Starts a fixture and Chromium, creates a session from `body`, opens its sheet and runs `test`; `nil` when
    /// Chromium is missing and the run asked to skip browser tests (`TESSERA_SKIP_BROWSER=1`).
    static func run(developmentMode: Bool = true, session body: [String: Any] = shirtsAndTicket,
                    processor: (any PaymentProcessor)? = nil, walletOrderIssuer: (any WalletOrderIssuing)? = nil,
                    configure: @escaping (inout MerchantConfiguration) -> Void = { _ in },
                    _ test: @escaping @Sendable (Page) async throws -> Void) async throws {
        if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] == "1" { return }
        guard let chromium = WebDriver.locate() else {
            Issue.record("Chromium or chromedriver not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            return
        }
        let fixture = try CheckoutFixture(developmentMode: developmentMode, processor: processor,
                                          walletOrderIssuer: walletOrderIssuer, configure: configure)
        let request = try JSONSerialization.data(withJSONObject: body)
        try await fixture.withClient { client in
            let port = try #require(client.port)
            let body = try #require(try JSONSerialization.jsonObject(with: request) as? [String: Any])
            let session = try await client.createSession(body)
            let id = try #require(session["id"] as? String)
            let sheetURL = try #require(session["sheetURL"] as? String)
            let driver = try await WebDriver.start(browser: chromium.browser, driver: chromium.driver)
            do {
                let url = "http://127.0.0.1:\(port)\(sheetURL)"
                try await driver.open(url)
                try await test(Page(driver: driver, fixture: fixture, client: client, sessionId: id, url: url))
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
    }
}
