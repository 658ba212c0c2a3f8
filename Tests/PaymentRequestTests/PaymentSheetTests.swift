import Foundation
import PaymentRequest
import Testing

@Suite("Sheet rendering")
struct PaymentSheetTests {
    @Test func textShowsWhatTheSheetShows() throws {
        let request = try ApplePayPaymentRequest(jsonData: JSONRoundTripTests.fixture("shipping-request"))
        let text = PaymentSheet(request: request).text()
        #expect(text.contains("Pay Example Store"))
        #expect(text.contains("(•) Free Shipping — USD 0.00"))
        #expect(text.contains("Arrives in 5 to 7 days (Mar 9, 2026 – Mar 11, 2026)"))
        #expect(text.contains("Shipping: Name, Postal Address, Email, Phone"))
        #expect(text.contains("Billing: Postal Address"))
        #expect(text.range(of: #"  Estimated Tax +USD 3\.06\n"#, options: .regularExpression) != nil)
        #expect(text.range(of: #"  Pay Example Store +USD 38\.06\n"#, options: .regularExpression) != nil)
    }

    @Test func pendingTotalsReadAmountPending() {
        var request = Rule.valid
        request.lineItems!.append(ApplePayLineItem(label: "Tip", amount: "", type: .pending))
        request.total.type = .pending
        let sheet = PaymentSheet(request: request)
        #expect(sheet.totalAmount == "Amount Pending")
        #expect(sheet.lineItems.last?.amount == "Pending")
        #expect(sheet.text().contains("Amount Pending"))
    }

    @Test func recurringTermsAreShown() throws {
        let request = try ApplePayPaymentRequest(jsonData: JSONRoundTripTests.fixture("recurring-request"))
        let sheet = PaymentSheet(request: request)
        #expect(sheet.lineItems[0].amount == "USD 20.00 every 6 months from Jan 1, 2022 until Jan 1, 2024")
        #expect(sheet.paymentTerms.contains("Manage at https://applepaydemo.apple.com"))
    }

    @Test func htmlEscapesEverythingAndIsSelfContained() {
        var request = Rule.valid
        request.total.label = "<script>alert('x')</script> & \"Co\""
        request.lineItems![0].label = "<b>Subtotal</b>"
        let html = PaymentSheet(request: request).html()
        #expect(!html.contains("<script>") && !html.contains("<b>"))
        #expect(html.contains("Pay &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"))
        #expect(html.contains("&lt;b&gt;Subtotal&lt;/b&gt;"))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<style>"))
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("<script"))
    }

    @Test func longLabelsAreMarked() {
        var request = Rule.valid
        request.lineItems![0].label = "A subtotal label far too long for one line"
        let sheet = PaymentSheet(request: request)
        #expect(sheet.lineItems[0].isTooLong)
        #expect(sheet.text().contains("[too long]"))
        #expect(sheet.html().contains("class=\"too-long\""))
    }
}
