/// The payment sheet's script: Apple Pay JS when the browser has it, otherwise the fallback sheet. Every amount it
/// shows comes from the server's answers; it computes none itself.
enum SheetScript {
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
      const $ = (id) => document.getElementById(id);
      const money = (amount) => data.currencyCode + ' ' + amount;
      const shown = (item) => item.type === 'pending' ? 'Amount Pending' : money(item.amount);

      function renderSummary() {
        const list = $('line-items');
        list.textContent = '';
        for (const item of lineItems) {
          const dt = document.createElement('dt');
          dt.textContent = item.label;
          const dd = document.createElement('dd');
          dd.textContent = shown(item);
          list.append(dt, dd);
        }
        const element = $('total-amount');
        element.textContent = shown(total);
        element.dataset.amount = total.type === 'pending' ? '' : total.amount;
        element.dataset.pending = total.type === 'pending' ? 'true' : 'false';
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
        box.textContent = '';
        $('shipping-fieldset').hidden = !request.shippingType;
        if (!request.shippingType) return;
        if (methods.length === 0) { box.textContent = 'No shipping method for this address.'; return; }
        for (const method of methods) {
          const row = document.createElement('div');
          row.className = 'method';
          const input = document.createElement('input');
          input.type = 'radio';
          input.name = 'shippingMethod';
          input.value = method.identifier;
          input.id = 'method-' + method.identifier;
          input.checked = method.identifier === selected;
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
      }

      async function postTo(url, body) {
        const response = await fetch(url, {
          method: 'POST', headers: { 'Content-Type': 'application/json', 'Checkout-Client-Secret': data.clientSecret },
          body: JSON.stringify(body),
        });
        const json = await response.json().catch(() => ({}));
        if (!response.ok && !json.status) {
          throw new Error(json.error ? json.error.message : 'The request failed (' + response.status + ').');
        }
        return json;
      }
      const post = (path, body) => postTo(api + path, body);

      function apply(update) {
        if (update.newTotal) total = update.newTotal;
        if (update.newLineItems) lineItems = update.newLineItems;
        if (update.newShippingMethods) {
          methods = update.newShippingMethods;
          if (!methods.some((m) => m.identifier === selected)) selected = methods.length ? methods[0].identifier : null;
        }
        renderSummary();
        renderMethods();
      }

      function say(id, text, code) {
        const element = $(id);
        element.textContent = text;
        element.classList.toggle('error', !!code);
        element.dataset.code = code || '';
      }
      const describe = (errors) => errors.map((e) => e.message || e.code).join(' ');

      async function chooseMethod(identifier) {
        selected = identifier;
        try {
          apply(await post('/shipping-method', { identifier }));
          say('shipping-status', '');
        } catch (error) { say('shipping-status', error.message, 'requestFailed'); }
      }

      const value = (id) => ($(id) ? $(id).value.trim() : '');
      const required = request.requiredShippingContactFields || [];
      const inputs = { name: [['givenName', 'First name', 'given-name'], ['familyName', 'Last name', 'family-name']],
        email: [['emailAddress', 'Email', 'email']], phone: [['phoneNumber', 'Phone', 'tel']],
        postalAddress: [['addressLine', 'Street address', 'address-line1']] };
      for (const field of required) {
        for (const [id, text, autocomplete] of inputs[field] || []) {
          const label = document.createElement('label');
          label.htmlFor = id;
          label.textContent = text;
          const input = document.createElement('input');
          input.id = id;
          input.name = id;
          input.autocomplete = autocomplete;
          $('contact-fields').append(label, input);
        }
      }

      const redacted = () => ({ locality: value('locality'), postalCode: value('postalCode'),
        countryCode: value('countryCode').toUpperCase() });
      function fullContact() {
        const contact = redacted();
        for (const id of ['givenName', 'familyName', 'emailAddress', 'phoneNumber']) if (value(id)) contact[id] = value(id);
        if (value('addressLine')) contact.addressLines = [value('addressLine')];
        return contact;
      }

      $('address-form').addEventListener('submit', async (event) => {
        event.preventDefault();
        try {
          // Only the redacted part of the address goes to the server before payment, as with Apple Pay.
          const update = await post('/shipping-contact', { shippingContact: redacted() });
          apply(update);
          if (update.errors && update.errors.length) say('shipping-status', describe(update.errors), update.errors[0].code);
          else say('shipping-status', 'Shipping address updated.');
        } catch (error) { say('shipping-status', error.message, 'requestFailed'); }
      });

      $('coupon-form').addEventListener('submit', async (event) => {
        event.preventDefault();
        try {
          const update = await post('/coupon-code', { couponCode: value('couponCode') });
          apply(update);
          if (update.errors && update.errors.length) say('coupon-status', describe(update.errors), update.errors[0].code);
          else say('coupon-status', value('couponCode') ? 'Coupon applied.' : 'Coupon removed.');
        } catch (error) { say('coupon-status', error.message, 'requestFailed'); }
      });

      async function showOrder(orderId) {
        const response = await fetch(data.apiBase + '/orders/' + encodeURIComponent(orderId),
          { headers: { 'Checkout-Client-Secret': data.clientSecret } });
        const order = await response.json();
        const result = $('result');
        result.textContent = 'Paid ' + money(order.total) + ' with ' + order.payment.displayName + '. Order ' + order.id + '.';
        result.classList.remove('error');
        result.dataset.code = 'STATUS_SUCCESS';
        const passes = order.passes || [];
        if (passes.length > 1 && passes.length <= 10) {
          // Several passes: one .pkpasses download adds them all (Wallet takes at most 10 from one bundle).
          const all = document.createElement('a');
          all.id = 'all-passes';
          all.href = data.apiBase + '/orders/' + encodeURIComponent(order.id) + '/pkpasses?clientSecret='
            + encodeURIComponent(data.clientSecret);
          all.textContent = ' Add all ' + passes.length + ' passes to Apple Wallet';
          result.append(all);
        }
        for (const pass of passes) {
          const link = document.createElement('a');
          link.href = pass.downloadURL;
          link.textContent = ' Add to Apple Wallet (' + pass.serialNumber + ')';
          result.append(link);
        }
        $('pay-button').disabled = true;
      }

      async function finish(answer) {
        if (answer.status === 'STATUS_SUCCESS') await showOrder(answer.orderId);
        else say('result', answer.reason || describe(answer.errors || []), answer.code || 'STATUS_FAILURE');
      }

      function startApplePay() {
        const session = new ApplePaySession(3, request);
        const toError = (e) => new ApplePayError(e.code, e.contactField, e.message);
        const native = (u) => Object.assign({}, u, u.errors ? { errors: u.errors.map(toError) } : {});
        session.onvalidatemerchant = async (event) => {
          try {
            session.completeMerchantValidation(await postTo(data.apiBase + '/merchant-validation',
              { validationURL: event.validationURL }));
          } catch (error) { session.abort(); say('result', error.message, 'merchantValidationFailed'); }
        };
        session.onshippingmethodselected = async (event) =>
          session.completeShippingMethodSelection(native(await post('/shipping-method', { shippingMethod: event.shippingMethod })));
        session.onshippingcontactselected = async (event) =>
          session.completeShippingContactSelection(native(await post('/shipping-contact', { shippingContact: event.shippingContact })));
        session.oncouponcodechanged = async (event) =>
          session.completeCouponCodeChange(native(await post('/coupon-code', { couponCode: event.couponCode })));
        session.onpaymentmethodselected = async (event) =>
          session.completePaymentMethodSelection(native(await post('/payment-method', { paymentMethod: event.paymentMethod })));
        session.onpaymentauthorized = async (event) => {
          const answer = await post('/authorize', event.payment).catch((error) => ({ status: 'STATUS_FAILURE', reason: error.message }));
          session.completePayment({
            status: answer.status === 'STATUS_SUCCESS' ? ApplePaySession.STATUS_SUCCESS : ApplePaySession.STATUS_FAILURE,
            errors: (answer.errors || []).map(toError),
          });
          await finish(answer);
        };
        session.begin();
      }

      renderSummary();
      renderMethods();
      if (data.state !== 'pending') {
        $('fallback').hidden = true;
        if (data.orderId) showOrder(data.orderId);
      } else if (window.ApplePaySession && ApplePaySession.canMakePayments()) {
        $('mode').textContent = 'Apple Pay';
        $('apple-pay-area').hidden = false;
        $('apple-pay-button').addEventListener('click', startApplePay);
      } else {
        $('fallback').hidden = false;
        const pay = $('pay-button');
        if (data.developmentMode) {
          $('mode').textContent = 'Apple Pay is not available in this browser. Development mode: the button pays with a test card.';
          pay.textContent = 'Pay ' + shown(total).replace('Amount Pending', '') + ' (test)';
          pay.addEventListener('click', async () => {
            pay.disabled = true;
            try {
              const contact = fullContact();
              await finish(await post('/test-authorize', { shippingContact: contact, billingContact: contact }));
            } catch (error) { say('result', error.message, 'requestFailed'); }
            if ($('result').dataset.code !== 'STATUS_SUCCESS') pay.disabled = false;
          });
        } else {
          $('mode').textContent = 'Apple Pay is not available in this browser. Open this page in Safari on an Apple device.';
          pay.textContent = 'Apple Pay unavailable';
          pay.disabled = true;
        }
      }
    })();
    """#
}
