/// The payment sheet's script: Apple Pay JS when the browser has it, otherwise the fallback sheet. Every amount it
/// shows comes from the server's answers; it computes none itself.
enum SheetScript {
    /// The whole script: the sheet's state and summary, its session read again (``sessionReads``), its contact rows
    /// (``contactFields``), then paying.
    static let source = #"""
    (function () {
      'use strict';
      const data = JSON.parse(document.getElementById('checkout-data').textContent);
      const api = data.apiBase + '/sessions/' + encodeURIComponent(data.sessionId);
      const request = data.paymentRequest;
      let lineItems = request.lineItems || [];
      let total = request.total;
      let methods = request.shippingMethods || [];
      let selected = methods.length ? methods[0].identifier : null;
      // The method the server last saved (the buyer's latest choice, `selected`, may still be on its way).
      let confirmed = selected;
      // Set when the server answers that it does not ship to the address: no shipping price or total is shown then.
      // A session reopened after such an answer starts from it (the server keeps the problem until another address).
      let unserviceable = !!data.shippingAddressProblem;
      let paid = false;
      // While a payment is on its way: the pay button stays disabled whatever an update redraws, and the total the
      // buyer tapped Pay at is the one the card payment confirms (an update landing meanwhile is refused, not charged).
      let paying = false;
      let tappedTotal = null;
      // Whether the pay button can pay: the test card in development mode, or a mounted payment step.
      let payable = false;
      // Updates on their way (a method, an address, a coupon): Pay waits for them, so it confirms the total they make.
      let updating = 0;
      let queue = Promise.resolve();
      let rowsReady = false;
      const $ = (id) => document.getElementById(id);
      // The buyer's locale and the currency's own minor digits as the server charges them ("$95.00", "¥6,028",
      // "KWD 13.720", "HUF 1,268.73"): not the browser's currency data, which rounds some (HUF, IDR) to none.
      const formatter = new Intl.NumberFormat(navigator.languages && navigator.languages.length ? navigator.languages : undefined,
        Object.assign({ style: 'currency', currency: data.currencyCode }, data.currencyDigits == null ? {}
          : { minimumFractionDigits: data.currencyDigits, maximumFractionDigits: data.currencyDigits }));
      const money = (amount) => formatter.format(Number(amount));
      const shown = (item) => item.type === 'pending' ? 'Amount Pending' : money(item.amount);
      const order = data.shippingMethodOrder || [];
      const rank = (method) => { const index = order.indexOf(method.identifier); return index < 0 ? order.length : index; };
      // The merchant's order, whichever method is selected (the server lists the selected one first).
      const ordered = (list) => list.map((m, i) => [m, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map((p) => p[0]);
      methods = ordered(methods);
      const shippingLine = request.shippingType === 'delivery' ? 'Delivery' : 'Shipping';
      // Goods that ship: the server's requests say so with shippingType; a request reviewed on its own may only ask
      // for a postal address or list shipping methods.
      const ships = !!request.shippingType || (request.requiredShippingContactFields || []).includes('postalAddress')
        || methods.length > 0;
      // A shop with no shipping methods ships at no charge: the address is asked, no method is offered.
      const offersMethods = !!request.shippingType || methods.length > 0;
      // `tessera pay sheet --format html`: the sheet for review, with no server behind it.
      const preview = data.state === 'preview';
      const saved = 'tessera.sheet.' + data.sessionId;

      function renderSummary() {
        const list = $('line-items');
        list.textContent = '';
        for (const item of lineItems) {
          if (unserviceable && item.label === shippingLine) continue;
          const dt = document.createElement('dt');
          dt.textContent = item.label;
          const dd = document.createElement('dd');
          dd.textContent = shown(item);
          list.append(dt, dd);
        }
        const element = $('total-amount');
        const pending = total.type === 'pending' || unserviceable;
        element.textContent = pending ? 'Amount Pending' : money(total.amount);
        element.dataset.amount = pending ? '' : total.amount;
        element.dataset.pending = pending ? 'true' : 'false';
        $('merchant-line').textContent = 'Pay ' + total.label;
        renderPayButton();
      }

      // The pay button states the amount it pays ("Pay $107.84").
      // Without a way to pay here (a preview, a payment step not ready, or neither Apple Pay nor development mode)
      // it still states the amount.
      function renderPayButton() {
        const pay = $('pay-button');
        if (!preview && data.state !== 'pending') return;
        const pending = total.type === 'pending' || unserviceable;
        pay.textContent = pending ? 'Pay' : 'Pay ' + money(total.amount);
        // A pending total cannot be paid (the server refuses it until the address that prices it is given).
        pay.disabled = preview || !payable || paid || unserviceable || paying || updating > 0 || total.type === 'pending';
      }

      function day(c) {
        return new Date(Date.UTC(c.years, c.months - 1, c.days))
          .toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
      }

      function dates(range) {
        const first = day(range.startDateComponents), last = day(range.endDateComponents);
        return first === last ? first : first + ' \u2013 ' + last;
      }

      function renderMethods() {
        const box = $('shipping-methods');
        // Rebuilding the list must not lose the buyer's place (arrow keys move the selection and the focus).
        const hadFocus = box.contains(document.activeElement);
        box.textContent = '';
        $('shipping-fieldset').hidden = !ships || !offersMethods;
        if (!ships || !offersMethods) return;
        if (methods.length === 0) { box.textContent = 'No shipping method for this address.'; return; }
        const disabled = paid;
        for (const method of methods) {
          const row = document.createElement('div');
          row.className = 'method';
          const input = document.createElement('input');
          input.type = 'radio';
          input.name = 'shippingMethod';
          input.value = method.identifier;
          input.id = 'method-' + method.identifier;
          input.checked = method.identifier === selected;
          input.disabled = disabled;
          input.addEventListener('change', () => chooseMethod(method.identifier));
          const label = document.createElement('label');
          label.htmlFor = input.id;
          label.textContent = method.label;
          const detail = document.createElement('small');
          detail.textContent = method.detail + (method.dateComponentsRange ? ' \u00b7 ' + dates(method.dateComponentsRange) : '');
          label.append(detail);
          const price = document.createElement('span');
          price.textContent = money(method.amount);
          row.append(input, label, price);
          box.append(row);
        }
        if (hadFocus && $('method-' + selected)) $('method-' + selected).focus();
        if (typeof renderRows === 'function' && rowsReady) renderRows();
      }

      // The Apple Pay driver's POST (embedded before this script), with this session's client secret.
      async function postTo(url, body) {
        if (preview) throw new Error('This is a preview: nothing is sent.');
        return TesseraApplePay.postTo({ clientSecret: data.clientSecret }, url, body);
      }
      const post = (path, body) => postTo(api + path, body);

      function apply(update, contactUpdate) {
        if (contactUpdate) unserviceable = (update.errors || []).some((e) => e.code === 'addressUnserviceable');
        if (update.newTotal) total = update.newTotal;
        if (update.newLineItems) lineItems = update.newLineItems;
        if (update.newShippingMethods) {
          // The server lists the selected method first; the sheet shows them in the merchant's order.
          const listed = update.newShippingMethods;
          confirmed = listed.length ? listed[0].identifier : null;
          if (!listed.some((m) => m.identifier === selected)) selected = confirmed;
          methods = ordered(listed);
        }
        renderSummary();
        renderMethods();
      }

      // Runs `task` (a request to the server and the showing of its answer) after the updates before it: one at a
      // time, in the order the buyer made them, so the answer shown last is the change the server saved last.
      function queued(task) {
        updating += 1;
        renderPayButton();
        const run = queue.then(task);
        queue = run.catch(() => {}).then(() => {
          updating -= 1;
          renderPayButton();
        });
        return run;
      }

    """# + sessionReads + #"""
      function say(id, text, code) {
        const element = $(id);
        element.textContent = text;
        element.classList.toggle('error', !!code);
        element.dataset.code = code || '';
      }
      const describe = (errors) => errors.map((e) => e.message || e.code).join(' ');

      function chooseMethod(identifier) {
        selected = identifier;
        return queued(async () => {
          try {
            apply(await post('/shipping-method', { identifier }));
            confirmed = identifier;
            say('shipping-status', '');
          } catch (error) {
            // Not saved: the method the session still has is shown chosen again, with its price in the total (unless
            // the buyer chose another since: that choice is on its way).
            if (selected === identifier) selected = confirmed;
            renderMethods();
            say('shipping-status', error.message, 'requestFailed');
          }
        });
      }

      const value = (id) => ($(id) ? $(id).value.trim() : '');

    """# + contactFields + #"""

      $('coupon-form').addEventListener('submit', (event) => {
        event.preventDefault();
        const couponCode = value('couponCode');
        queued(async () => {
          try {
            const update = await post('/coupon-code', { couponCode });
            apply(update);
            if (update.errors && update.errors.length) say('coupon-status', describe(update.errors), update.errors[0].code);
            else {
              say('coupon-status', couponCode ? 'Coupon applied.' : 'Coupon removed.');
              $('picker-coupon').dispatchEvent(new Event('sheet:close'));
            }
            renderRows();
          } catch (error) { say('coupon-status', error.message, 'requestFailed'); }
        });
      });

      // Paid: nothing on the sheet can change any more, whether or not the receipt can be read at once.
      async function showOrder(orderId) {
        lock();
        await TesseraReceipt.show({
          apiBase: data.apiBase, clientSecret: data.clientSecret, orderId, money, element: $('result'),
        });
      }

      // After payment nothing on the sheet can be changed.
      function lock() {
        paid = true;
        for (const control of document.querySelectorAll('#fallback input, #fallback button, #fallback fieldset, #pay-button')) {
          control.disabled = true;
          if (control.tagName === 'INPUT') control.readOnly = true;
        }
        try { sessionStorage.removeItem(saved); } catch (error) { /* storage unavailable */ }
      }

      // Refusals after which the session itself is read again: a total changed elsewhere (shown now, to pay again),
      // or a session paid or being paid meanwhile (its order, or word that it is being confirmed).
      const staleSheet = ['amountMismatch', 'totalPending', 'sessionNotPending', 'authorizationInProgress'];

      async function finish(answer) {
        if (answer.status === 'STATUS_SUCCESS') { await showOrder(answer.orderId); return; }
        say('result', answer.reason || describe(answer.errors || []), answer.code || 'STATUS_FAILURE');
        markContactField(answer.errors);
        if (staleSheet.includes(answer.code)) {
          try { await refresh(); } catch (error) { /* the refusal stands as said */ }
        }
      }

      // Apple Pay JS (the shared driver, ApplePayDriver): each event answered by the matching endpoint of this
      // session, the server's update handed back unchanged. Called synchronously from the tap.
      function startApplePay() {
        TesseraApplePay.begin({
          request,
          checkout: () => ({ api, apiBase: data.apiBase, clientSecret: data.clientSecret }),
          apply: (update) => apply(update),
          say: (text, code) => say('result', text, code),
          paid: async (answer) => {
            await finish(answer);
            $('apple-pay-area').hidden = true;
          },
          failed: (answer) => finish(answer),
          cancelled: () => say('result', 'Payment cancelled. Tap the Apple Pay button to try again.', 'cancelled'),
        });
      }

      // The pay button pays with `authorize(contact)` (a promise of the authorization's answer).
      function payOnClick(authorize) {
        const pay = $('pay-button');
        pay.addEventListener('click', async () => {
          if (paying) return;
          paying = true;
          tappedTotal = total.amount;
          pay.disabled = true;
          say('result', '');
          try {
            await finish(await authorize(fullContact()));
          } catch (error) { say('result', error.message || String(error), 'paymentFailed'); }
          paying = false;
          tappedTotal = null;
          if ($('result').dataset.code !== 'STATUS_SUCCESS') renderPayButton();
        });
      }

      // The merchant's payment step (a gateway's hosted card element) in the Card row; its token goes to authorize.
      async function startPaymentStep() {
        renderPayButton();
        const container = document.createElement('div');
        container.id = 'payment-step';
        $('payment-methods').append(container);
        try {
          const confirm = await TesseraPaymentStep.start({
            scriptURL: data.paymentStep.scriptURL, container,
            context: () => ({
              sessionId: data.sessionId, amount: tappedTotal !== null ? tappedTotal : total.amount, currencyCode: data.currencyCode,
              merchantLine: total.label, billingContact: fullContact(),
            }),
            row: (text, needed) => rowValue('payment', text, needed),
            // The buyer is correcting the card: the last refusal no longer applies.
            changed: () => { if ($('result').dataset.code === 'paymentFailed') say('result', ''); },
            // With the total shown as Pay was tapped: a total changed meanwhile is refused, not charged.
            pay: (cardPayment) => post('/authorize', {
              cardPayment: Object.assign({}, cardPayment, { amount: tappedTotal !== null ? tappedTotal : total.amount }),
              shippingContact: fullContact(), billingContact: fullContact(),
            }),
          });
          payable = true;
          renderPayButton();
          payOnClick(() => confirm());
        } catch (error) {
          say('result', error.message || String(error), 'paymentStepUnavailable');
        }
      }

      renderSummary();
      renderMethods();
      if (data.state !== 'pending' && !preview) {
        $('fallback').hidden = true;
        if (data.orderId) showOrder(data.orderId);
        else awaitConfirmation();
      } else if (!preview && window.ApplePaySession && ApplePaySession.canMakePayments()) {
        $('mode').textContent = 'Apple Pay';
        $('apple-pay-area').hidden = false;
        $('apple-pay-button').addEventListener('click', startApplePay);
      } else {
        $('fallback').hidden = false;
        $('pay-button').hidden = false;
        restore();
        if (request.couponCode) $('couponCode').value = request.couponCode;
        $('row-payment').hidden = false;
        $('row-shipping-address').hidden = !addressRow;
        if (billingAddress) $('row-shipping-address').querySelector('.row-title').textContent = 'Billing';
        $('row-shipping-method').hidden = !ships || !offersMethods;
        $('row-contact').hidden = $('contact-fields').childElementCount === 0;
        $('row-coupon').hidden = !request.supportsCouponCode;
        rowsReady = true;
        if (data.shippingAddressProblem) {
          say('shipping-status', describe([data.shippingAddressProblem]), data.shippingAddressProblem.code);
        }
        renderRows();
        for (const input of fields()) input.addEventListener('input', remember);
        if (preview) {
          $('mode').textContent = 'Preview: the sheet as a buyer without Apple Pay sees it; nothing is sent.';
          rowValue('payment', 'Chosen by the buyer');
          renderPayButton();
        } else if (data.paymentStep) {
          startPaymentStep();
        } else if (data.developmentMode) {
          $('mode').textContent = 'Development mode: Apple Pay is not available here; the button pays with a test card.';
          rowValue('payment', 'Visa \u2022\u2022\u2022\u20221111 (test card)');
          $('payment-methods').innerHTML = '<div class="method"><input type="radio" name="paymentMethod" id="payment-test" checked>'
            + '<label for="payment-test">Visa \u2022\u2022\u2022\u20221111<small>Test card, development mode</small></label></div>';
          payable = true;
          renderPayButton();
          // With the total shown as Pay was tapped, as a card payment confirms it.
          payOnClick((contact) => post('/test-authorize', { shippingContact: contact, billingContact: contact, amount: tappedTotal }));
        } else {
          // Where Apple Pay is not available the sheet shows no Apple Pay UI at all, not even its name.
          $('mode').textContent = 'This shop does not take payments in this browser.';
          rowValue('payment', 'No payment method in this browser', true);
          $('payment-methods').textContent = 'This shop does not take payments in this browser.';
          renderPayButton();
        }
      }
    })();
    """#
}
