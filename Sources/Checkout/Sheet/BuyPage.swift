import Foundation
import Markup
import PaymentRequest

/// The page behind `GET /checkout/buy/{sku}`: one catalogue product, its price in the buyer's locale and one button.
///
/// Where `ApplePaySession` can make payments the button is the Apple Pay button, and its tap opens the Apple Pay
/// sheet at once from the payment request the server embedded; the anonymous, catalogue-only session for one of the
/// product (`POST /checkout/v1/sessions`, as any browser may) is created during merchant validation
/// (``ApplePayDriver``). Everywhere else a plain "Buy" button creates that session and opens its payment sheet page;
/// no Apple Pay mark is shown where Apple Pay is missing. Self-contained: inline style and script, requests to this
/// origin only.
struct BuyPage {
    /// What the page's script starts from, embedded as JSON.
    struct Bootstrap: Encodable {
        var sku: String
        var name: String
        var unitPrice: String
        var currencyCode: String
        var merchantLine: String
        var apiBase: String
        /// The payment request a catalogue session for one of the product would have (without `applicationData`),
        /// for the Apple Pay sheet the tap opens before that session exists; `nil` where it could not be offered.
        var paymentRequest: ApplePayPaymentRequest?
        /// The currency's minor digits as the server charges them (ISO 4217), not the browser's own currency data.
        var currencyDigits: Int? = nil
    }

    let bootstrap: Bootstrap

    /// The page's content security policy: inline script and style, requests to this origin only.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

    /// The HTML document.
    func html() throws -> String {
        let json = try HTMLText.scriptJSON(bootstrap)
        let name = MarkupText.html(bootstrap.name)
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(name) \u{2013} \(MarkupText.html(bootstrap.merchantLine))</title>
        <style>\(Self.css)</style>
        </head>
        <body>
        <main class="product" aria-labelledby="product-name">
          <p class="merchant">\(MarkupText.html(bootstrap.merchantLine))</p>
          <h1 id="product-name">\(name)</h1>
          <p id="product-price" class="price">\(MarkupText.html(bootstrap.currencyCode)) \(MarkupText.html(bootstrap.unitPrice))</p>
          <button type="button" id="buy-button" class="buy-button">Buy</button>
          <p id="buy-status" role="status" aria-live="polite"></p>
        </main>
        <script type="application/json" id="buy-data">\(json)</script>
        <script>\(ApplePayDriver.source)</script>
        <script>\(Self.script)</script>
        </body>
        </html>
        """
    }

    /// The page shown for a SKU the catalogue does not have.
    static func notFound(sku: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Product not found</title><style>\(css)</style></head>
        <body><main class="product"><h1>Product not found</h1>
        <p>There is no product \u{201C}\(MarkupText.html(String(sku.prefix(100))))\u{201D} in this shop.</p></main></body>
        </html>
        """
    }

    static let css = """
    :root { color-scheme: light dark; font-family: -apple-system, system-ui, sans-serif; }
    body { margin: 0; background: Canvas; color: CanvasText; }
    .product { max-width: 28rem; margin: 0 auto; padding: 1.5rem 1rem; }
    .merchant { margin: 0; opacity: .75; }
    h1 { font-size: 1.5rem; margin: .25rem 0; }
    .price { font-size: 1.25rem; margin: 0 0 1.5rem; }
    .buy-button { width: 100%; min-height: 2.75rem; border: 0; border-radius: 10px; font: inherit; font-weight: 600;
      background: #000; color: #fff; cursor: pointer; }
    @media (prefers-color-scheme: dark) { .buy-button { background: #fff; color: #000; } }
    .buy-button.apple-pay-button { -webkit-appearance: -apple-pay-button; -apple-pay-button-type: buy;
      -apple-pay-button-style: black; }
    .buy-button:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
    .buy-button[aria-busy="true"] { opacity: .6; }
    """

    static let script = """
    (function () {
      'use strict';
      const data = JSON.parse(document.getElementById('buy-data').textContent);
      const button = document.getElementById('buy-button');
      const status = document.getElementById('buy-status');
      const price = document.getElementById('product-price');
      try {
        price.textContent = new Intl.NumberFormat(navigator.languages && navigator.languages.length
          ? navigator.languages : undefined, Object.assign({ style: 'currency', currency: data.currencyCode },
            data.currencyDigits == null ? {} : { minimumFractionDigits: data.currencyDigits, maximumFractionDigits: data.currencyDigits }))
          .format(Number(data.unitPrice));
      } catch (error) { /* the server's text stays */ }
      const applePay = !!(window.ApplePaySession && ApplePaySession.canMakePayments());
      if (applePay) {
        button.classList.add('apple-pay-button');
        button.textContent = '';
        button.setAttribute('aria-label', 'Buy with Apple Pay');
      }
      function key() {
        if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
        const bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      }
      let busy = false;
      function settle() { busy = false; button.removeAttribute('aria-busy'); }
      // One key per session made: a second tap after a cancelled sheet goes on with the session the first one created.
      // A creation that failed gets a new key for the next tap: when its answer was lost on the way (the session made,
      // the page never told), the same key would be answered as a replay without the session's secret, every time.
      let buyKey = key();
      let created = null;
      function createSession() {
        return created || (created = (async () => {
          const response = await fetch(data.apiBase + '/sessions', {
            method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': buyKey },
            body: JSON.stringify({ items: [{ sku: data.sku, quantity: 1 }] }) });
          const body = await response.json().catch(() => ({}));
          if (!response.ok || !body.sheetURL || !body.clientSecret) {
            throw new Error((body.error && body.error.message) || 'status ' + response.status);
          }
          return body;
        })().catch((error) => { created = null; buyKey = key(); throw error; }));
      }
      const unavailable = 'This product cannot be bought right now. Please try again.';

      // Apple Pay: the sheet opens in this tick, from the request the server embedded (read at the tap); the session
      // is created inside merchant validation. applicationData ties the token to the session this key creates.
      function buyWithApplePay() {
        const request = JSON.parse(document.getElementById('buy-data').textContent).paymentRequest;
        request.applicationData = btoa('tessera-checkout-key:' + buyKey);
        status.textContent = '';
        TesseraApplePay.begin({
          request,
          checkout: () => createSession().then((session) => ({
            api: data.apiBase + '/sessions/' + encodeURIComponent(session.id), apiBase: data.apiBase,
            clientSecret: session.clientSecret, sheetURL: session.sheetURL,
            total: session.paymentRequest.total, lineItems: session.paymentRequest.lineItems || [] })),
          say: (text, code) => { status.textContent = code === 'merchantValidationFailed' ? unavailable : text; },
          // The session's sheet page, now read-only, shows the receipt and the passes.
          paid: (answer, checkout) => location.assign(checkout.sheetURL),
          failed: (answer) => { status.textContent = answer.reason || unavailable; },
          cancelled: () => { status.textContent = 'Payment cancelled.'; },
        });
      }

      button.addEventListener('click', async function () {
        if (applePay && data.paymentRequest) { buyWithApplePay(); return; }
        if (busy) return;
        busy = true;
        button.setAttribute('aria-busy', 'true');
        status.textContent = '';
        try {
          location.assign((await createSession()).sheetURL);
        } catch (error) {
          status.textContent = unavailable;
          settle();
        }
      });
    })();
    """
}
