import Checkout
import Foundation
import HTTPTypes
import Testing
import TesseraTestSupport

/// The payment sheet when its requests overlap or fail: updates land in the order the buyer made them, a total
/// changed elsewhere is shown again before anything is charged, and a paid order is never shown as a failure. Each
/// checked in headless Chromium, the page's `fetch` held back or failed where the network would.
@Suite("The payment sheet's updates, refusals and receipt when requests overlap or fail", .serialized)
struct SheetUpdateOrderTests {
    /// The session's total as the server has it.
    static func serverTotal(_ page: SheetBrowser.Page) async throws -> String? {
        let (_, read) = try await page.client.get("/checkout/v1/sessions/\(page.sessionId)")
        return ((read["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"] as? String
    }

    @Test("Methods chosen faster than the server answers: the last one chosen is shown, priced and saved; Pay waits")
    func overlappingMethodChoices() async throws {
        try await SheetBrowser.run { page in
            _ = try await page.text("#total-amount") { $0 == "$107.84" }
            // The first choice's request is held back until the test lets it go, as a slow network would: sent
            // unordered, the second would reach the server first and the first would be saved last.
            _ = try await page.driver.execute("""
                const original = window.fetch;
                let release;
                const held = new Promise((resolve) => { release = resolve; });
                window.releaseHeld = () => release();
                window.fetch = (url, init) => (init && String(init.body || '').includes('"express"'))
                  ? held.then(() => original(url, init))
                  : original(url, init);
                return 'held';
                """)
            try await page.openRow("shipping-method")
            try await page.driver.click("#method-express")
            try await page.driver.click("#method-standard")
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true", "Pay while updates are on their way")
            _ = try await page.driver.execute("window.releaseHeld(); return 'released';")
            let enabled = try await page.driver.wait({ try await page.driver.attribute("#pay-button", "disabled") ?? "" },
                                                     until: { $0 != "true" })
            #expect(enabled != "true")
            // Whatever was on its way has landed (the old sheet sent the second choice at once, the first after it).
            try await Task.sleep(for: .milliseconds(1500))
            #expect(try await page.evaluate("document.getElementById('method-standard').checked") == "true")
            #expect(try await page.driver.attribute("#total-amount", "data-amount") == "107.84")
            let (_, read) = try await page.client.get("/checkout/v1/sessions/\(page.sessionId)")
            #expect(read["selectedShippingMethod"] as? String == "standard", "\(read["selectedShippingMethod"] ?? "none")")
        }
    }

    @Test("A total changed elsewhere: Pay is refused, the sheet shows the session as it is now, and paying again succeeds")
    func totalChangedElsewhere() async throws {
        try await SheetBrowser.run { page in
            try await page.fillShippingBuyer()
            let shown = try await page.driver.attribute("#total-amount", "data-amount")
            // Another tab (or the merchant) chooses express: this tab still shows the standard total.
            let (status, _) = try await page.client.post(
                "/checkout/v1/sessions/\(page.sessionId)/shipping-method", ["identifier": "express"])
            #expect(status == .ok)
            let changed = try #require(try await Self.serverTotal(page))
            #expect(changed != shown)
            try await page.driver.click("#pay-button")
            let refused = try await page.resultCode(until: { (code: String?) in code == "amountMismatch" || code == "STATUS_SUCCESS" })
            #expect(refused == "amountMismatch", "charged a total the sheet did not show")
            let reread = try await page.driver.wait({ try await page.driver.attribute("#total-amount", "data-amount") },
                                                    until: { $0 == changed })
            #expect(reread == changed)
            #expect(try await page.evaluate("document.getElementById('method-express').checked") == "true")
            try await page.driver.click("#pay-button")
            let paid = try await page.resultCode(until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(paid == "STATUS_SUCCESS", "\(receipt)")
        }
    }

    @Test("A receipt whose first read fails: the sheet is locked, says Paid, and never offers to pay again")
    func receiptReadFails() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 1]]]) { page in
            // A phone shows the email keyboard for the email field.
            #expect(try await page.driver.attribute("#emailAddress", "inputmode") == "email")
            try await page.fillTicketContact()
            _ = try await page.driver.execute("""
                const original = window.fetch;
                let failed = false;
                window.fetch = (url, init) => {
                  if (!failed && String(url).includes('/orders/')) {
                    failed = true;
                    return Promise.resolve(new Response('{"error":{"message":"busy"}}', { status: 503 }));
                  }
                  return original(url, init);
                };
                return 'failing';
                """)
            try await page.driver.click("#pay-button")
            let code = try await page.resultCode(until: { (code: String?) in code == "STATUS_SUCCESS" || code == "paymentFailed" })
            #expect(code == "STATUS_SUCCESS")
            let receipt = try await page.text("#result") { $0.hasPrefix("Paid") && $0.contains("Order") }
            #expect(receipt.hasPrefix("Paid"), "\(receipt)")
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")
        }
    }

    @Test("A total pending until the address is known cannot be paid; the address makes it payable")
    func pendingTotalDisablesPay() async throws {
        try await SheetBrowser.run(configure: { $0.tax?.pendingUntilAddressKnown = true }) { page in
            _ = try await page.text("#total-amount") { $0 == "Amount Pending" }
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")
            try await page.fillShippingBuyer()
            let total = try await page.driver.wait({ try await page.driver.attribute("#total-amount", "data-pending") },
                                                   until: { $0 == "false" })
            #expect(total == "false")
            #expect(try await page.driver.attribute("#pay-button", "disabled") != "true")
        }
    }
}

extension SheetUpdateOrderTests {
    @Test("A sheet opened while its payment is being confirmed says so, then shows the order once recovery has it")
    func sessionBeingConfirmed() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 1]]]) { page in
            let fixture = page.fixture, id = page.sessionId
            // A process that claimed the payment and went silent: recovery takes it over after the holder's silence.
            var claimed = try #require(await fixture.store.session(id: id))
            claimed.state = .authorizing
            claimed.authorizationAttempts = 1
            claimed.authorization = AuthorizationAttempt(
                orderId: "ord_gone0000000000000000", idempotencyKey: "\(id)-1", transactionIdentifier: "tx-\(id)",
                startedAt: fixture.clock.now, total: Decimal(string: "48.71")!, lineItems: [], shippingMethod: nil,
                couponCode: nil,
                payment: try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                             shippingContact: CheckoutFixture.ticketContact))
            #expect(try await fixture.store.claimAuthorization(claimed, transactionIdentifier: "tx-\(id)", holder: "gone",
                                                               at: fixture.clock.now) == .claimed)
            try await page.driver.refresh()
            let waiting = try await page.resultCode(until: { (code: String?) in code == "confirming" || code == "STATUS_SUCCESS" })
            #expect(waiting == "confirming")
            #expect(try await page.driver.text("#result") == "Your payment is being confirmed\u{2026}")
            // Past the lease: recovery retries the payment with its idempotency key, whoever held it.
            fixture.clock.advance(600)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            let paid = try await page.resultCode(until: { (code: String?) in code == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(paid == "STATUS_SUCCESS", "\(receipt)")
        }
    }
}

extension SheetUpdateOrderTests {
    @Test("A payment refused for a contact field opens its row, marks the field invalid and puts the focus on it")
    func refusedContactFieldIsFocused() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 1]]]) { page in
            try await page.openRow("contact")
            try await page.driver.type("#givenName", "Ada")
            try await page.driver.type("#familyName", "Lovelace")
            try await page.driver.type("#emailAddress", "not-an-address")
            try await page.driver.click("#contact-submit")
            try await page.driver.click("#pay-button")
            let code = try await page.resultCode(until: { (code: String?) in code?.hasSuffix("ContactInvalid") == true || code == "STATUS_SUCCESS" })
            // The sheet's one contact serves as shipping and billing contact: either names the field.
            #expect(code == "billingContactInvalid" || code == "shippingContactInvalid")
            #expect(try await page.driver.attribute("#row-contact-button", "aria-expanded") == "true")
            #expect(try await page.driver.attribute("#emailAddress", "aria-invalid") == "true")
            #expect(try await page.evaluate("document.activeElement.id") == "emailAddress")
        }
    }
}

extension SheetUpdateOrderTests {
    @Test("A refusal after another tab gave another address: this tab's address is given again before paying")
    func otherTabsAddress() async throws {
        try await SheetBrowser.run { page in
            try await page.fillShippingBuyer()
            let uri = "/checkout/v1/sessions/\(page.sessionId)"
            // Another tab: another address, and another method, so this tab's total is out of date.
            let (moved, _) = try await page.client.post(uri + "/shipping-contact", [
                "shippingContact": ["locality": "San Francisco", "postalCode": "94107", "countryCode": "US"]])
            #expect(moved == .ok)
            let (chosen, _) = try await page.client.post(uri + "/shipping-method", ["identifier": "express"])
            #expect(chosen == .ok)
            try await page.driver.click("#pay-button")
            let refused = try await page.resultCode(until: { (code: String?) in code == "amountMismatch" || code == "STATUS_SUCCESS" })
            #expect(refused == "amountMismatch")
            // The session is priced for this tab's address again, the one the payment ships to.
            var postalCode: String?
            let deadline = Date().addingTimeInterval(30)
            repeat {
                let (_, read) = try await page.client.get(uri)
                postalCode = (read["shippingContact"] as? [String: Any])?["postalCode"] as? String
                if postalCode == "95014" { break }
                try await Task.sleep(for: .milliseconds(200))
            } while Date() < deadline
            #expect(postalCode == "95014")
            let enabled = try await page.driver.wait({ try await page.driver.attribute("#pay-button", "disabled") ?? "" },
                                                     until: { $0 != "true" })
            #expect(enabled != "true")
        }
    }
}
