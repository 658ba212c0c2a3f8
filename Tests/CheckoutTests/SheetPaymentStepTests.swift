import Checkout
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// The sheet without Apple Pay and outside development mode, paying through the merchant's payment step: a card
/// gateway's hosted element on another origin, in headless Chromium.
@Suite("Payment sheet: paying by card through the merchant's payment step")
struct SheetPaymentStepTests {
    @Test("The card is typed into the gateway's frame; the sheet pays with the gateway's token and never sees the number")
    func paysWithGatewayToken() async throws {
        let gateway = CardGatewayStandIn()
        try await gateway.serve { gatewayPort in
            let origin = "http://127.0.0.1:\(gatewayPort)"
            let processor = CountingProcessor()
            try await SheetBrowser.run(developmentMode: false, session: ["items": [["sku": "TICKET-GA", "quantity": 1]]],
                                       processor: processor, configure: { merchant in
                merchant.paymentStep = .init(scriptURL: origin + "/card-step.js")
            }) { page in
                let driver = page.driver
                try await SheetLayoutTests.emulate(page, width: 390, height: 844, mobile: true,
                                                   features: [("prefers-color-scheme", "light"), ("prefers-reduced-motion", "reduce")])
                #expect(try await page.text("#payment-value", until: { $0 == "Add card" }) == "Add card")
                #expect(try await page.text("#pay-button", until: { $0.contains("48.71") }) == "Pay $48.71")
                try await page.openRow("payment")

                // A number the gateway refuses: the sheet says why and nothing is charged.
                try await driver.frame("#gateway-card-frame")
                try await driver.type("#number", "4242 4242 4242 4241")
                try await driver.frame(nil)
                try await driver.click("#pay-button")
                #expect(try await page.text("#result", until: { !$0.isEmpty }) == "Your card number is incomplete.")
                #expect(try await driver.attribute("#result", "data-code") == "paymentFailed")
                #expect(processor.calls.isEmpty)

                try await driver.frame("#gateway-card-frame")
                try await driver.type("#number", "4242 4242 4242 4242")
                try await driver.type("#expiry", "12/30")
                try await driver.frame(nil)
                #expect(try await page.text("#payment-value", until: { $0.contains("4242") }) == "Visa ••••4242")
                #expect(try await page.text("#result", until: { $0.isEmpty }) == "", "the refusal stays after the card changed")
                try FileManager.default.createDirectory(at: SheetLayoutTests.screenshots, withIntermediateDirectories: true)
                let file = SheetLayoutTests.screenshots.appendingPathComponent("sheet-payment-step.png")
                try await driver.screenshot().write(to: file)
                print("payment sheet screenshot: \(file.path)")
                if let axe = try await SheetAccessibilityTests.axeSource() {
                    #expect(try await SheetAccessibilityTests.violations(page, axe: axe, iframes: false) == [],
                            "the Card row open with the gateway's element")
                }
                // The number is in the gateway's frame only: the sheet's own document cannot read it.
                let leaked = try await page.evaluate(
                    "document.documentElement.outerHTML.includes('4242 4242') || document.documentElement.outerHTML.includes('4242424242424242')")
                #expect(leaked == "false")
                let readable = try await page.evaluate(
                    "(() => { try { return !!document.getElementById('gateway-card-frame').contentDocument; } catch (e) { return false; } })()")
                #expect(readable == "false")

                try await page.fillTicketContact()
                try await driver.click("#pay-button")
                let result = try await page.text("#result", until: { $0.hasPrefix("Paid") })
                #expect(result.contains("Visa ••••4242"), "\(result)")
                #expect(!result.contains("Apple Pay"))
                let call = try #require(processor.calls.first)
                #expect(processor.calls.count == 1)
                let token = try #require(call.cardToken)
                #expect(gateway.cardNumber(forToken: token) == "4242424242424242")
                #expect(!token.contains("4242424242424242"))
                let session = try #require(await page.fixture.store.session(id: page.sessionId))
                #expect(session.state == .authorized)
                let orderId = try #require(session.orderId)
                let order = try #require(await page.fixture.store.order(id: orderId))
                let stored = String(decoding: try JSONEncoder().encode(order), as: UTF8.self)
                #expect(!stored.contains("4242424242424242") && !stored.contains(token))
                #expect(order.payment.method == .card)
            }
        }
    }

    @Test("A payment step whose script does not load: the Card row says card payments are unavailable and Pay stays off")
    func scriptMissing() async throws {
        try await SheetBrowser.run(developmentMode: false, session: ["items": [["sku": "TICKET-GA", "quantity": 1]]],
                                   processor: CountingProcessor(), configure: { merchant in
            merchant.paymentStep = .init(scriptURL: "http://127.0.0.1:9/card-step.js")
        }) { page in
            let row = try await page.text("#payment-value", until: { $0.contains("not available") })
            #expect(row == "Card payments are not available")
            let result = try await page.text("#result", until: { !$0.isEmpty })
            #expect(result.contains("could not be loaded"))
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")
        }
    }
}
