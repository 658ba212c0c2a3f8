/// The sheet's hook for the merchant's payment step (``MerchantConfiguration/PaymentStepConfiguration``): where
/// Apple Pay is not available, the sheet loads the merchant's script, which mounts the gateway's hosted card element
/// in the Card row and registers itself with `TesseraSheet.registerPaymentStep`:
///
/// ```js
/// TesseraSheet.registerPaymentStep({
///   mount(container, context) { /* put the gateway's card element into container */ },
///   async confirm(context) { return { token, network, lastFour, type }; },  // throw Error('…') to refuse
/// });
/// ```
///
/// `context` holds `sessionId`, `amount` (a decimal string), `currencyCode`, `merchantLine`, `billingContact` and
/// `changed({complete, summary})`, which the step calls when the card is complete (and what the Card row shows).
/// The card number stays in the gateway's frame; the sheet only ever sees the gateway's token.
enum PaymentStepScript {
    static let source = #"""
    (function () {
      'use strict';
      let registered = null;
      let waiting = null;
      window.TesseraSheet = Object.freeze({
        registerPaymentStep(step) {
          if (!step || typeof step.mount !== 'function' || typeof step.confirm !== 'function') {
            throw new TypeError('registerPaymentStep needs an object with mount(container, context) and confirm(context).');
          }
          if (registered) throw new Error('A payment step is registered already.');
          registered = step;
          if (waiting) waiting(step);
        },
      });

      // The step the merchant's script registers, once it has loaded and run (20 s at most).
      function load(url) {
        return new Promise((resolve, reject) => {
          const failed = () => reject(new Error('The card form could not be loaded. Please reload the page.'));
          if (registered) { resolve(registered); return; }
          waiting = resolve;
          const script = document.createElement('script');
          script.src = url;
          script.async = true;
          script.addEventListener('error', failed);
          document.head.append(script);
          setTimeout(failed, 20000);
        });
      }

      // Mounts the step in `options.container` and pays with it: options.context() is what the step is told,
      // options.row(text, needed) shows the Card row's value, options.changed(state) hears the card change, and
      // options.pay(cardPayment) authorizes. Resolves with the function Pay calls.
      async function start(options) {
        let changedOnce = false;
        options.row('Loading the card form\u2026', true);
        let step, context;
        try {
          step = await load(options.scriptURL);
          context = () => Object.assign({}, options.context(), {
            changed: (state) => {
              state = state || {};
              changedOnce = true;
              options.changed(state);
              options.row(state.summary || (state.complete ? 'Card' : 'Add card'), !state.complete);
            },
          });
          await step.mount(options.container, context());
        } catch (error) {
          options.row('Card payments are not available', true);
          throw error;
        }
        if (!changedOnce) options.row('Add card', true);
        return async () => {
          const card = await step.confirm(context());
          if (!card || typeof card.token !== 'string') throw new Error('The card could not be used. Please check it.');
          const cardPayment = { token: card.token };
          for (const key of ['network', 'lastFour', 'type']) if (typeof card[key] === 'string') cardPayment[key] = card[key];
          return options.pay(cardPayment);
        };
      }

      window.TesseraPaymentStep = Object.freeze({ start });
    })();
    """#
}
