/// A stand-in for Safari's `ApplePaySession` and `ApplePayError`, installed in Chromium before the sheet's own script
/// runs. It records every call the page makes (constructor, `begin`, each `complete…`, `abort`) with its arguments,
/// and on `begin()` replays a recorded sequence of Apple Pay events, firing each only once the page has answered the
/// one before. An event named `pause` stops the replay until the test calls `window.applePayStandIn.resume(payment)`,
/// which fires `onpaymentauthorized` with that payment.
///
/// The constructor and `begin` record `inClick`: whether they ran synchronously inside the buyer's click
/// (`window.event` is the click there, and `undefined` once the handler has awaited anything), as Safari requires.
/// The calls are also kept in the tab's `sessionStorage` (`applePayStandIn.calls`), so a test can read them after
/// the page has gone on to another page.
enum ApplePaySessionStandIn {
    /// The script, with the replayed events (a JSON array of `{"handler", "event"}`) and the newest version it claims.
    static func script(events: String, newestVersion: Int = 14) -> String {
        """
        (function () {
          const standIn = { calls: [], paused: false, finished: false };
          window.applePayStandIn = standIn;
          const events = \(events);
          const completions = { onvalidatemerchant: 'completeMerchantValidation',
            onshippingcontactselected: 'completeShippingContactSelection',
            onshippingmethodselected: 'completeShippingMethodSelection', oncouponcodechanged: 'completeCouponCodeChange',
            onpaymentmethodselected: 'completePaymentMethodSelection', onpaymentauthorized: 'completePayment' };
          const plain = (value) => JSON.parse(JSON.stringify(value === undefined ? null : value));
          const inClick = () => !!(window.event && window.event.type === 'click');
          const note = (call) => {
            standIn.calls.push(call);
            try { sessionStorage.setItem('applePayStandIn.calls', JSON.stringify(standIn.calls)); } catch (error) {}
          };
          class ApplePayError {
            constructor(code, contactField, message) { this.code = code; this.contactField = contactField; this.message = message; }
          }
          class ApplePaySession {
            static supportsVersion(version) { return version >= 1 && version <= \(newestVersion); }
            static canMakePayments() { return true; }
            constructor(version, request) {
              note({ name: 'constructor', args: plain([version, request]), inClick: inClick() });
              standIn.session = this;
              this.waiting = null;
            }
            record(name, args) {
              const errors = (args[0] && args[0].errors) || [];
              note({ name, args: plain(args), applePayErrors: errors.map((e) => e instanceof ApplePayError),
                inClick: inClick() });
              if (this.waiting && this.waiting.name === name) { const next = this.waiting.next; this.waiting = null; next(); }
            }
            fire(handler, event, next) {
              const complete = completions[handler];
              if (complete) this.waiting = { name: complete, next };
              note({ name: 'event:' + handler });
              this[handler](event);
              if (!complete) next();
            }
            begin() {
              this.record('begin', []);
              let index = 0;
              const step = () => {
                if (index >= events.length) { standIn.finished = true; return; }
                const { handler, event } = events[index++];
                if (handler === 'pause') {
                  standIn.paused = true;
                  standIn.resume = (payment) => { standIn.paused = false; this.fire('onpaymentauthorized', { payment }, step); };
                  return;
                }
                this.fire(handler, event, step);
              };
              setTimeout(step, 0);
            }
            abort() { this.record('abort', []); }
          }
          for (const name of Object.values(completions)) {
            ApplePaySession.prototype[name] = function (...args) { this.record(name, args); };
          }
          ApplePaySession.STATUS_SUCCESS = 0;
          ApplePaySession.STATUS_FAILURE = 1;
          window.ApplePaySession = ApplePaySession;
          window.ApplePayError = ApplePayError;
        })();
        """
    }
}
