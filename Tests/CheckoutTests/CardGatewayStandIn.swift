import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import Synchronization
import TesseraTestSupport

/// A card gateway on its own loopback origin, the way hosted card fields work: the merchant's payment-step script
/// (`/card-step.js`) mounts the gateway's card element (`/element.html`) in a frame; the card number is typed into
/// that frame, which exchanges it with the gateway (`POST /tokens`) for a single-use token and hands the sheet only
/// the token, the network and the last four digits. ``serve(_:)`` runs it on a thread and event loop of its own, so
/// the browser's requests to it never wait behind the suite's other work.
final class CardGatewayStandIn: Sendable {
    /// Card numbers by the token issued for them.
    private let issued = Mutex<[String: String]>([:])

    /// The card number a token was issued for.
    func cardNumber(forToken token: String) -> String? { issued.withLock { $0[token] } }

    /// Runs the gateway on `127.0.0.1` (a free port) on a thread of its own for as long as `body` runs.
    /// - Parameter body: The test, given the gateway's port.
    /// - Returns: What `body` returns.
    func serve<T: Sendable>(_ body: (_ port: Int) async throws -> T) async throws -> T {
        try await EventLoopExecutor.serve({ executor, onServerRunning in
            Application(
                router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning, eventLoopGroupProvider: .shared(executor.eventLoopGroup))
        }, body)
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("card-step.js") { _, _ in Self.file(Self.stepScript, type: "text/javascript") }
        router.get("element.html") { _, _ in Self.file(Self.element, type: "text/html; charset=utf-8") }
        router.post("tokens") { request, _ -> Response in
            var request = request
            let body = Data((try await request.collectBody(upTo: 4096)).readableBytesView)
            let number = String(decoding: body, as: UTF8.self).filter(\.isNumber)
            let token = "tok_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            self.issued.withLock { $0[token] = number }
            return Self.file(#"{"token":"\#(token)"}"#, type: "application/json")
        }
        return router
    }

    private static func file(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The merchant's script: registers the step with the sheet and talks to the element's frame by messages.
    static let stepScript = #"""
    (function () {
      const origin = new URL(document.currentScript.src).origin;
      let frame = null, pending = null, changed = null;
      window.addEventListener('message', (event) => {
        if (event.origin !== origin || event.source !== frame.contentWindow) return;
        if (event.data.kind === 'state' && changed) changed(event.data.state);
        if (event.data.kind === 'token' && pending) { pending(event.data); pending = null; }
      });
      TesseraSheet.registerPaymentStep({
        mount(container, context) {
          changed = context.changed;
          frame = document.createElement('iframe');
          frame.src = origin + '/element.html';
          frame.title = 'Card details';
          frame.id = 'gateway-card-frame';
          frame.style.cssText = 'width:100%;height:7rem;border:0';
          container.append(frame);
          return new Promise((resolve) => frame.addEventListener('load', resolve));
        },
        confirm(context) {
          return new Promise((resolve, reject) => {
            pending = (answer) => answer.error ? reject(new Error(answer.error)) : resolve(answer.card);
            frame.contentWindow.postMessage({ kind: 'tokenize', amount: context.amount }, origin);
          });
        },
      });
    })();
    """#

    /// The gateway's card element: the number never leaves this frame except to the gateway itself.
    static let element = #"""
    <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Card</title></head><body>
    <label for="number">Card number</label> <input id="number" autocomplete="cc-number" inputmode="numeric">
    <label for="expiry">Expiry</label> <input id="expiry" autocomplete="cc-exp" placeholder="MM/YY">
    <script>
      const digits = () => document.getElementById('number').value.replace(/\D/g, '');
      function luhn(number) {
        let sum = 0;
        for (let i = 0; i < number.length; i++) {
          let d = Number(number[number.length - 1 - i]);
          if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
          sum += d;
        }
        return number.length >= 12 && sum % 10 === 0;
      }
      const network = (n) => n.startsWith('4') ? 'Visa' : /^5[1-5]/.test(n) ? 'MasterCard' : 'Card';
      const tell = (message) => parent.postMessage(message, '*');
      function state() {
        const n = digits(), complete = luhn(n) && /^\d\d\/\d\d$/.test(document.getElementById('expiry').value);
        tell({ kind: 'state', state: { complete, summary: complete ? network(n) + ' \u2022\u2022\u2022\u2022' + n.slice(-4) : '' } });
      }
      document.getElementById('number').addEventListener('input', state);
      document.getElementById('expiry').addEventListener('input', state);
      window.addEventListener('message', async (event) => {
        if (event.data.kind !== 'tokenize') return;
        const n = digits();
        if (!luhn(n)) { tell({ kind: 'token', error: 'Your card number is incomplete.' }); return; }
        const answer = await (await fetch('/tokens', { method: 'POST', body: n })).json();
        tell({ kind: 'token', card: { token: answer.token, network: network(n), lastFour: n.slice(-4), type: 'credit' } });
      });
    </script></body></html>
    """#
}
