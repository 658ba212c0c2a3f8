import Foundation
import Markup
import PaymentRequest

/// The browser payment sheet for one session: Apple Pay JS where `window.ApplePaySession` exists, otherwise an
/// Apple Pay-style sheet built from the same session that talks to the same endpoints. Self-contained: inline CSS and
/// script, no external resources (the content security policy forbids them).
struct SheetPage {
    /// What the page's script starts from, embedded as JSON.
    struct Bootstrap: Encodable {
        var sessionId: String
        var state: String
        var orderId: String?
        var merchantLine: String
        var currencyCode: String
        /// The merchant's shipping methods in the order it lists them; the sheet keeps this order whichever is
        /// selected (the update endpoints put the selected one first, as Apple Pay expects).
        var shippingMethodOrder: [String]
        var paymentRequest: ApplePayPaymentRequest
        var shippingContact: RedactedContact?
        var developmentMode: Bool
        /// Whether the page loads Apple's Apple Pay JS SDK (the merchant's `applePayJSSDK`).
        var applePayJSSDK: Bool
        var apiBase: String
        var clientSecret: String
        /// What is wrong with the session's last shipping address, while the server serves none.
        var shippingAddressProblem: ApplePayError? = nil
        /// The merchant's payment step for buyers without Apple Pay (its script and the origins it may use).
        var paymentStep: MerchantConfiguration.PaymentStepConfiguration? = nil
        /// The currency's minor digits as the server charges them (ISO 4217): a browser's own currency data shows
        /// some with other digits (HUF, IDR, COP with none), which would round what is charged.
        var currencyDigits: Int? = nil
    }

    /// Where Apple serves the Apple Pay JS SDK (the auto-updating 1.x version).
    static let applePaySDK = "https://applepay.cdn-apple.com/jsapi/1.latest/apple-pay-sdk.js"
    static let applePaySDKOrigin = "https://applepay.cdn-apple.com"

    /// The page's content security policy: inline script and style, requests to this origin only; with the SDK,
    /// Apple's SDK origin for its script, styles, images, frames and requests too.
    /// With a payment step, the step's origins (its script's and the configured ones) for the same kinds, and fonts.
    var contentSecurityPolicy: String {
        var origins = bootstrap.applePayJSSDK ? [Self.applePaySDKOrigin] : []
        origins += bootstrap.paymentStep?.allowedOrigins ?? []
        let other = origins.map { " " + $0 }.joined()
        return "default-src 'none'; script-src 'unsafe-inline'\(other); style-src 'unsafe-inline'\(other); "
            + "connect-src 'self'\(other); img-src 'self' data:\(other); frame-src\(other.isEmpty ? " 'none'" : other); "
            + (bootstrap.paymentStep == nil ? "" : "font-src\(other); ")
            + "form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
    }

    let bootstrap: Bootstrap

    /// The HTML document.
    func html() throws -> String {
        let json = try HTMLText.scriptJSON(bootstrap)
        let title = MarkupText.html("Pay \(bootstrap.merchantLine)")
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(bootstrap.state == "preview"
            ? "<meta http-equiv=\"Content-Security-Policy\" content=\"\(PaymentSheetPreview.contentSecurityPolicy)\">" : "")
        <title>\(title)</title>
        <style>\(SheetStyle.css)</style>
        \(bootstrap.applePayJSSDK ? "<script crossorigin=\"anonymous\" src=\"\(Self.applePaySDK)\"></script>" : "")
        </head>
        <body>
        <div class="backdrop" aria-hidden="true"></div>
        <main id="sheet" class="sheet" aria-labelledby="sheet-title">
          <div class="grabber" aria-hidden="true"></div>
          <header class="sheet-header">
            <h1 id="sheet-title">\(MarkupText.html(bootstrap.merchantLine))</h1>
            <p id="mode" class="muted"></p>
          </header>
          <div id="apple-pay-area" hidden>
            \(bootstrap.applePayJSSDK
                ? "<apple-pay-button id=\"apple-pay-button\" buttonstyle=\"black\" type=\"buy\" locale=\"en-US\"></apple-pay-button>"
                : "<button type=\"button\" id=\"apple-pay-button\" class=\"apple-pay-button\" aria-label=\"Buy with Apple Pay\"></button>")
          </div>
          <div id="fallback" hidden>
            <ul class="rows" aria-label="Payment details">
              \(Self.row("payment", title: "Card", picker: """
                <fieldset><legend class="visually-hidden">Payment method</legend><div id="payment-methods"></div></fieldset>
                """))
              \(Self.row("shipping-address", title: "Shipping", picker: """
                <form id="address-form" novalidate>
                  <div id="name-fields"></div>
                  <div id="street-fields"></div>
                  <label for="locality">City</label>
                  <input id="locality" name="locality" autocomplete="address-level2">
                  <label for="administrativeArea">State, province or region</label>
                  <input id="administrativeArea" name="administrativeArea" autocomplete="address-level1">
                  <label for="postalCode">Postal code</label>
                  <input id="postalCode" name="postalCode" autocomplete="postal-code">
                  <label for="countryCode">Country code</label>
                  <input id="countryCode" name="countryCode" autocomplete="country" maxlength="2" placeholder="US">
                  <button type="submit" id="address-submit">Use this address</button>
                </form>
                """))
              \(Self.row("shipping-method", title: "Method", picker: """
                <fieldset id="shipping-fieldset"><legend id="shipping-title" class="visually-hidden">Shipping method</legend>
                <div id="shipping-methods"></div></fieldset>
                """))
              \(Self.row("contact", title: "Contact", picker: """
                <form id="contact-form" novalidate><div id="contact-fields"></div>
                <button type="submit" id="contact-submit">Done</button></form>
                """))
              \(Self.row("coupon", title: "Promo code", picker: """
                <form id="coupon-form" novalidate>
                  <label for="couponCode">Promo code</label>
                  <input id="couponCode" name="couponCode" autocomplete="off">
                  <button type="submit" id="coupon-submit">Apply</button>
                </form>
                """))
            </ul>
            <p id="shipping-status" class="status" role="status" aria-live="polite"></p>
            <p id="coupon-status" class="status" role="status" aria-live="polite"></p>
          </div>
          <section class="summary" aria-labelledby="summary-title">
            <h2 id="summary-title" class="visually-hidden">Summary</h2>
            <dl id="line-items"></dl>
            <dl class="total"><dt id="merchant-line">\(title)</dt><dd id="total-amount" aria-live="polite"></dd></dl>
          </section>
          <button type="button" id="pay-button" class="pay-button" hidden>Pay</button>
          <p id="result" role="status" aria-live="assertive"></p>
        </main>
        <script type="application/json" id="checkout-data">\(json)</script>
        <script>\(ApplePayDriver.source)</script>
        <script>\(PaymentStepScript.source)</script>
        <script>\(ReceiptScript.source)</script>
        <script>\(SheetScript.rows)</script>
        <script>\(SheetScript.source)</script>
        </body>
        </html>
        """
    }

    /// One row of the sheet: a button showing the row's title, its current value and a chevron, which opens the
    /// row's picker in place below it.
    static func row(_ name: String, title: String, picker: String) -> String {
        """
        <li class="row" id="row-\(name)" hidden>
          <button type="button" class="row-button" id="row-\(name)-button" aria-expanded="false"
            aria-controls="picker-\(name)"><span class="row-title">\(title)</span>
            <span class="row-value" id="\(name)-value"></span><span class="chevron" aria-hidden="true"></span></button>
          <div class="picker" id="picker-\(name)" role="group" aria-labelledby="row-\(name)-button" hidden>
          \(picker)
          </div>
        </li>
        """
    }
}

/// JSON embedded in the pages' `<script>` elements.
enum HTMLText {
    /// `value` as JSON to embed in a `<script>` element: every `<` written as `\u003c`, so the JSON can never close
    /// its script element whatever the strings in it hold.
    static func scriptJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }
}
