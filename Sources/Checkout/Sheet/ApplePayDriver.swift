/// The Apple Pay JS driver the sheet page and the buy page both embed: `TesseraApplePay.begin(options)` builds an
/// `ApplePaySession` at the newest version the browser supports and calls `begin()` at once, in the same tick, so it
/// must be called synchronously from the buyer's tap (Apple Pay JS refuses to start after an `await`).
///
/// Each event then goes to the checkout session's endpoint and the server's answer is handed back unchanged, its
/// errors as `ApplePayError`. The session itself may not exist yet at the tap: `options.checkout()` is called once,
/// inside `onvalidatemerchant` (where waiting is allowed), and resolves to where the session is
/// (`{ api, apiBase, clientSecret }`, plus its `total` and `lineItems` when they may differ from the request the
/// sheet opened with). A total that differs is handed to the sheet in the first update; until the sheet has shown
/// it, a payment is refused rather than charged for an amount the buyer did not see.
///
/// The page passes what it shows and says: `apply(update)` for each answer, `say(text, code)` for a problem,
/// `paid(answer, checkout)` after a successful `completePayment` (which hands Wallet the answer's `orderDetails`, when
/// the merchant issues Wallet orders), `failed(answer)` after a refused one,
/// `cancelled()` when the buyer closes the sheet.
enum ApplePayDriver {
    static let source = #"""
    (function () {
      'use strict';
      // The newest ApplePaySession version the browser supports, from 16 down to 3.
      function newestVersion() {
        for (let candidate = 16; candidate > 3; candidate--) {
          if (ApplePaySession.supportsVersion(candidate)) return candidate;
        }
        return 3;
      }

      async function postTo(checkout, url, body) {
        let response;
        try {
          // An update whose answer never comes must not hold the sheet (its updates wait in line, Pay waits for them):
          // after 30 s, as long as Apple Pay gives an event, it fails and can be made again. A payment is waited for
          // whole (the processor's own tries can take longer; its answer decides what the buyer sees).
          const payment = /\/(test-)?authorize$/.test(url);
          response = await fetch(url, {
            method: 'POST', headers: { 'Content-Type': 'application/json', 'Checkout-Client-Secret': checkout.clientSecret },
            body: JSON.stringify(body),
            signal: !payment && AbortSignal.timeout ? AbortSignal.timeout(30000) : undefined,
          });
        } catch (error) {
          if (error && error.name === 'TimeoutError') throw new Error('The server did not answer in time. Please try again.');
          throw error;
        }
        const json = await response.json().catch(() => ({}));
        if (!response.ok && !json.status) {
          throw new Error(json.error ? json.error.message : 'The request failed (' + response.status + ').');
        }
        return json;
      }

      function begin(options) {
        const session = new ApplePaySession(newestVersion(), options.request);
        const noop = () => {};
        const apply = options.apply || noop, say = options.say || noop;
        let shownTotal = options.request.total;
        // The session's total and line items when they differ from what the sheet shows, until an update shows them.
        let unseen = null;
        let started = null;
        // The checkout session, asked for once whichever event comes first.
        const checkout = () => started || (started = Promise.resolve().then(options.checkout).then((found) => {
          if (found.total && (found.total.amount !== shownTotal.amount || found.total.type !== shownTotal.type)) {
            unseen = { newTotal: found.total, newLineItems: found.lineItems || [] };
            apply(unseen);
          }
          return found;
        }));
        const post = (path, body) => checkout().then((found) => postTo(found, found.api + path, body));
        const toError = (e) => new ApplePayError(e.code, e.contactField, e.message);
        // The server's update as Apple Pay takes it, with a total the sheet has not shown yet if the answer has none.
        function native(update) {
          const merged = Object.assign({}, unseen || {}, update, update.errors ? { errors: update.errors.map(toError) } : {});
          unseen = null;
          if (merged.newTotal) shownTotal = merged.newTotal;
          return merged;
        }
        const fail = (error) => { session.abort(); say(error.message, 'requestFailed'); };
        const update = (path, body, complete) => post(path, body)
          .then((answer) => { apply(answer); complete(native(answer)); }).catch(fail);

        session.onvalidatemerchant = (event) => checkout()
          .then((found) => postTo(found, found.apiBase + '/merchant-validation', { validationURL: event.validationURL }))
          .then((merchantSession) => session.completeMerchantValidation(merchantSession))
          .catch((error) => { session.abort(); say(error.message, 'merchantValidationFailed'); });
        session.onshippingcontactselected = (event) => update('/shipping-contact', { shippingContact: event.shippingContact },
          (u) => session.completeShippingContactSelection(u));
        session.onshippingmethodselected = (event) => update('/shipping-method', { shippingMethod: event.shippingMethod },
          (u) => session.completeShippingMethodSelection(u));
        session.oncouponcodechanged = (event) => update('/coupon-code', { couponCode: event.couponCode },
          (u) => session.completeCouponCodeChange(u));
        session.onpaymentmethodselected = (event) => update('/payment-method', { paymentMethod: event.paymentMethod },
          (u) => session.completePaymentMethodSelection(u));
        session.onpaymentauthorized = async (event) => {
          let answer;
          if (unseen) {
            // The price changed after the page was made and no update has shown the new total yet.
            answer = { status: 'STATUS_FAILURE', code: 'totalChanged',
              reason: 'The price has changed since this page was loaded. Please check the new total and try again.' };
          } else {
            answer = await post('/authorize', event.payment)
              .catch((error) => ({ status: 'STATUS_FAILURE', reason: error.message }));
          }
          const success = answer.status === 'STATUS_SUCCESS';
          const result = {
            status: success ? ApplePaySession.STATUS_SUCCESS : ApplePaySession.STATUS_FAILURE,
            errors: (answer.errors || []).map(toError),
          };
          // The Wallet order issued for the order: Wallet adds it to the device (Apple Pay JS version 13, iOS 16, and later).
          if (success && answer.orderDetails && ApplePaySession.supportsVersion(13)) result.orderDetails = answer.orderDetails;
          session.completePayment(result);
          if (success) await (options.paid || noop)(answer, await checkout());
          else await (options.failed || noop)(answer);
        };
        session.oncancel = () => (options.cancelled || noop)();
        session.begin();
        return session;
      }

      window.TesseraApplePay = { begin, newestVersion, postTo };
    })();
    """#
}
