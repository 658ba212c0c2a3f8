import Checkout
import Foundation
import PaymentRequest
import Testing
import TesseraTestSupport

/// The sheet's rows in headless Chromium: only those the request needs, each showing its value with a chevron and
/// opening its picker in place; one primary button stating the amount; live regions and focus kept.
@Suite("The payment sheet's rows", .serialized)
struct SheetRowsTests {
    /// The ids of the rows shown, in order.
    static let visibleRows = "Array.from(document.querySelectorAll('.row')).filter((r) => !r.hidden).map((r) => r.id).join(',')"

    @Test("Goods that ship: payment, shipping address, shipping method, contact and promo code rows, each with its value")
    func rowsForGoodsThatShip() async throws {
        try await SheetBrowser.run { page in
            _ = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            #expect(try await page.evaluate(Self.visibleRows)
                    == "row-payment,row-shipping-address,row-shipping-method,row-contact,row-coupon")
            #expect(try await page.driver.text("#payment-value") == "Visa ••••1111 (test card)")
            #expect(try await page.driver.text("#shipping-address-value") == "Add shipping address")
            #expect(try await page.driver.text("#shipping-method-value") == "Standard · $5.00")
            #expect(try await page.driver.text("#contact-value") == "Add contact")
            for row in ["payment", "shipping-address", "shipping-method", "contact", "coupon"] {
                #expect(try await page.driver.attribute("#row-\(row)-button", "aria-expanded") == "false")
                #expect(try await page.evaluate("!!document.querySelector('#row-\(row)-button .chevron')") == "true")
                #expect(try await page.evaluate("document.getElementById('picker-\(row)').hidden") == "true")
            }
            // One primary button, stating the amount; the line items and the merchant's total line beside the amount.
            #expect(try await page.evaluate("document.querySelectorAll('button.pay-button:not([hidden])').length") == "1")
            #expect(try await page.driver.text("#pay-button") == "Pay $107.84")
            #expect(try await page.driver.text("#line-items").contains("Sales Tax"))
            #expect(try await page.driver.attribute("#total-amount", "aria-live") == "polite")
            #expect(try await page.driver.attribute("#result", "aria-live") == "assertive")
        }
    }

    @Test("A row opens its picker in place, closes the others, and Escape brings the focus back to the row")
    func pickerOpensInPlace() async throws {
        try await SheetBrowser.run { page in
            _ = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            try await page.driver.click("#row-shipping-method-button")
            #expect(try await page.driver.attribute("#row-shipping-method-button", "aria-expanded") == "true")
            // In place: the picker sits inside its row, right below the row's button.
            let placed = "(() => { const b = document.getElementById('row-shipping-method-button').getBoundingClientRect(),"
                + " p = document.getElementById('picker-shipping-method'); return p.parentElement.id === 'row-shipping-method'"
                + " && !p.hidden && p.getBoundingClientRect().top >= b.bottom - 1; })()"
            #expect(try await page.evaluate(placed) == "true")
            #expect(try await page.evaluate("document.activeElement.id") == "method-standard")
            try await page.driver.click("#method-express")
            #expect(try await page.text("#shipping-method-value") { $0 == "Express · $15.00" } == "Express · $15.00")
            try await page.driver.keys("#method-express", "\u{E00C}")
            #expect(try await page.evaluate("document.getElementById('picker-shipping-method').hidden") == "true")
            #expect(try await page.evaluate("document.activeElement.id") == "row-shipping-method-button")

            try await page.driver.click("#row-shipping-address-button")
            try await page.driver.click("#row-contact-button")
            #expect(try await page.evaluate("document.getElementById('picker-shipping-address').hidden") == "true")
            #expect(try await page.evaluate("document.activeElement.id") == "emailAddress")
            try await page.driver.type("#emailAddress", "ada@example.test")
            try await page.driver.click("#contact-submit")
            #expect(try await page.driver.text("#contact-value") == "ada@example.test")
            #expect(try await page.evaluate("document.activeElement.id") == "row-contact-button")

            try await page.driver.click("#row-shipping-address-button")
            for (field, value) in [("#givenName", "Ada"), ("#familyName", "Lovelace"), ("#addressLine", "1 Infinite Loop"),
                                   ("#locality", "Cupertino"), ("#postalCode", "95014"), ("#countryCode", "US")] {
                try await page.driver.type(field, value)
            }
            try await page.driver.click("#address-submit")
            let address = try await page.text("#shipping-address-value") { $0.contains("Cupertino") }
            #expect(address == "Ada Lovelace, 1 Infinite Loop, Cupertino, 95014, US")
            #expect(try await page.evaluate("document.activeElement.id") == "row-shipping-address-button")
        }
    }

    @Test("A digital good: no shipping address or method; the contact row asks for the name and email the merchant wants")
    func rowsForADigitalGood() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 1]]]) { page in
            _ = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            #expect(try await page.evaluate(Self.visibleRows) == "row-payment,row-contact,row-coupon")
            #expect(try await page.driver.text("#line-items").contains("Sales Tax"))
            #expect(!(try await page.driver.text("#line-items")).contains("Shipping"))
            #expect(try await page.evaluate("Array.from(document.querySelectorAll('#contact-fields input')).map((i) => i.id).join(',')")
                    == "givenName,familyName,emailAddress")
            try await page.driver.click("#pay-button")
            let refused = try await page.text("#result") { !$0.isEmpty }
            #expect(refused == "The contact details need a name.")
            try await page.fillTicketContact()
            #expect(try await page.driver.text("#contact-value") == "Ada Lovelace, ada@example.test")
            try await page.driver.click("#pay-button")
            let code = try await page.driver.wait({ try await page.driver.attribute("#result", "data-code") },
                                                  until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(code == "STATUS_SUCCESS", "\(receipt)")
        }
    }

    @Test("Goods that ship from a shop with no shipping methods: the address row, no method row, no shipping line")
    func rowsWithoutShippingMethods() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TSHIRT", "quantity": 1]]],
                                   configure: { $0.shippingMethods = [] }) { page in
            _ = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            #expect(try await page.evaluate(Self.visibleRows) == "row-payment,row-shipping-address,row-contact,row-coupon")
            #expect(try await page.driver.text("#shipping-address-value") == "Add shipping address")
            #expect(!(try await page.driver.text("#line-items")).contains("Shipping"))
            try await page.openRow("contact")
            try await page.driver.type("#emailAddress", "ada@example.test")
            try await page.driver.click("#contact-submit")
            try await page.driver.click("#pay-button")
            let refused = try await page.text("#result") { !$0.isEmpty }
            #expect(refused.hasPrefix("The shipping details need"), "\(refused)")
        }
    }

    @Test("A digital good whose card needs a billing address: a Billing row asks for it, and the payment carries it")
    func billingAddressForADigitalGood() async throws {
        try await SheetBrowser.run(session: ["items": [["sku": "TICKET-GA", "quantity": 1]]],
                                   configure: { $0.requiredBillingContactFields = [ContactField.postalAddress, ContactField.name] }) { page in
            _ = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            #expect(try await page.evaluate(Self.visibleRows) == "row-payment,row-shipping-address,row-contact,row-coupon")
            #expect(try await page.evaluate("document.querySelector('#row-shipping-address-button .row-title').textContent") == "Billing")
            #expect(try await page.driver.text("#shipping-address-value") == "Add billing address")
            // The name is asked in the address row here: only the email is in Contact.
            #expect(try await page.evaluate("Array.from(document.querySelectorAll('#contact-fields input')).map((i) => i.id).join(',')")
                    == "emailAddress")
            try await page.openRow("contact")
            try await page.driver.type("#emailAddress", "ada@example.test")
            try await page.driver.click("#contact-submit")
            try await page.driver.click("#pay-button")
            #expect(try await page.text("#result") { !$0.isEmpty } == "The contact details need a name.")
            try await page.openRow("shipping-address")
            try await page.driver.type("#givenName", "Ada")
            try await page.driver.type("#familyName", "Lovelace")
            try await page.driver.click("#address-submit")
            try await page.driver.click("#pay-button")
            #expect(try await page.text("#result") { $0 != "The contact details need a name." }
                    == "The billing details need a street address.")
            try await page.openRow("shipping-address")
            try await page.driver.type("#addressLine", "1 Infinite Loop")
            try await page.driver.type("#locality", "Cupertino")
            try await page.driver.type("#postalCode", "95014")
            try await page.driver.type("#countryCode", "US")
            try await page.driver.click("#address-submit")
            #expect(try await page.text("#shipping-address-value") { $0.contains("Cupertino") }
                    == "Ada Lovelace, 1 Infinite Loop, Cupertino, 95014, US")
            try await page.driver.click("#pay-button")
            let code = try await page.driver.wait({ try await page.driver.attribute("#result", "data-code") },
                                                  until: { $0 == "STATUS_SUCCESS" })
            let receipt = try await page.driver.text("#result")
            #expect(code == "STATUS_SUCCESS", "\(receipt)")
        }
    }

    @Test("Without Apple Pay and without development mode: no Apple Pay UI at all, the amount still stated")
    func noApplePayUIWhereUnavailable() async throws {
        try await SheetBrowser.run(developmentMode: false) { page in
            let pay = try await page.text("#pay-button") { $0.hasPrefix("Pay $") }
            #expect(pay == "Pay $107.84")
            #expect(try await page.driver.attribute("#pay-button", "disabled") == "true")
            #expect(try await page.evaluate("document.getElementById('apple-pay-area').hidden") == "true")
            #expect(!(try await page.evaluate("document.body.innerText")).contains("Apple Pay"))
            #expect(try await page.driver.text("#payment-value") == "No payment method in this browser")
        }
    }
}
