import Foundation
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
        var apiBase: String
        var clientSecret: String
    }

    /// The page's content security policy: inline script and style, requests to this origin only.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

    let bootstrap: Bootstrap

    /// The HTML document.
    func html() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `<` is escaped so the JSON can never close its script element.
        let json = String(decoding: try encoder.encode(bootstrap), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
        let title = HTMLText.escape("Pay \(bootstrap.merchantLine)")
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>\(Self.css)</style>
        </head>
        <body>
        <main id="sheet" aria-labelledby="sheet-title">
          <h1 id="sheet-title" class="visually-hidden">\(title)</h1>
          <p id="mode" class="muted"></p>
          <section aria-labelledby="summary-title">
            <h2 id="summary-title" class="visually-hidden">Summary</h2>
            <dl id="line-items"></dl>
            <dl class="total"><dt id="merchant-line">\(title)</dt><dd id="total-amount" aria-live="polite"></dd></dl>
          </section>
          <div id="apple-pay-area" hidden>
            <button type="button" id="apple-pay-button" class="apple-pay-button" aria-label="Pay with Apple Pay"></button>
          </div>
          <div id="fallback" hidden>
            <form id="address-form" novalidate>
              <fieldset>
                <legend>Shipping address</legend>
                <div id="contact-fields"></div>
                <label for="locality">City</label>
                <input id="locality" name="locality" autocomplete="address-level2">
                <label for="postalCode">Postal code</label>
                <input id="postalCode" name="postalCode" autocomplete="postal-code">
                <label for="countryCode">Country code</label>
                <input id="countryCode" name="countryCode" autocomplete="country" maxlength="2" placeholder="US">
                <button type="submit" id="address-submit">Use this address</button>
              </fieldset>
            </form>
            <p id="shipping-status" role="status" aria-live="polite"></p>
            <fieldset id="shipping-fieldset">
              <legend id="shipping-title">Shipping Method</legend>
              <div id="shipping-methods"></div>
            </fieldset>
            <form id="coupon-form" novalidate>
              <label for="couponCode">Coupon code</label>
              <input id="couponCode" name="couponCode" autocomplete="off">
              <button type="submit" id="coupon-submit">Apply</button>
            </form>
            <p id="coupon-status" role="status" aria-live="polite"></p>
            <button type="button" id="pay-button" class="pay-button">Pay</button>
          </div>
          <p id="result" role="status" aria-live="assertive"></p>
        </main>
        <script type="application/json" id="checkout-data">\(json)</script>
        <script>\(SheetScript.source)</script>
        </body>
        </html>
        """
    }

    static let css = """
    :root { color-scheme: light dark; font-family: -apple-system, system-ui, sans-serif; }
    body { margin: 0; background: #f2f2f7; color: #1c1c1e; }
    main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 14px; padding: 1.25rem 1.5rem;
      box-shadow: 0 2px 12px rgba(0,0,0,.12); }
    h1 { font-size: 1.15rem; margin: 0 0 .25rem; }
    .muted { color: #6c6c70; font-size: .85rem; margin: 0 0 1rem; }
    dl { display: grid; grid-template-columns: 1fr auto; gap: .35rem 1rem; margin: 0 0 .75rem; }
    dt, dd { margin: 0; } dd { text-align: right; font-variant-numeric: tabular-nums; }
    .total { border-top: 1px solid #d1d1d6; padding-top: .6rem; font-weight: 600; font-size: 1.1rem; }
    fieldset { border: 1px solid #d1d1d6; border-radius: 10px; margin: 0 0 .75rem; padding: .6rem .8rem; }
    legend { font-weight: 600; padding: 0 .25rem; }
    label { display: block; font-size: .85rem; margin: .45rem 0 .15rem; }
    .method label { display: inline; font-size: 1rem; }
    .method { display: grid; grid-template-columns: auto 1fr auto; gap: .5rem; align-items: start; padding: .35rem 0; }
    .method small { display: block; color: #6c6c70; }
    input { font: inherit; padding: .4rem .5rem; border: 1px solid #aeaeb2; border-radius: 8px; width: 100%;
      box-sizing: border-box; }
    input[type=radio] { width: auto; margin-top: .25rem; }
    button { font: inherit; margin-top: .6rem; padding: .5rem .9rem; border-radius: 8px; border: 1px solid #8e8e93;
      background: #fff; color: inherit; cursor: pointer; }
    .pay-button { width: 100%; background: #000; color: #fff; border: 0; padding: .8rem; font-weight: 600; }
    .pay-button[disabled] { opacity: .5; cursor: not-allowed; }
    .apple-pay-button { -webkit-appearance: -apple-pay-button; -apple-pay-button-type: buy;
      -apple-pay-button-style: black; width: 100%; height: 44px; border: 0; }
    :focus-visible { outline: 3px solid #0a84ff; outline-offset: 2px; }
    .error { color: #c5221f; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    @media (prefers-color-scheme: dark) {
      body { background: #000; color: #f2f2f7; } main { background: #1c1c1e; }
      input, button { background: #2c2c2e; color: #f2f2f7; } .pay-button { background: #f2f2f7; color: #000; }
    }
    """
}

/// HTML escaping for text and attribute values.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
