extension SheetScript {
    /// The sheet reading its session again: after a refusal that says the sheet is out of date, and while a payment
    /// made elsewhere (another tab, an answer lost) is being confirmed.
    static let sessionReads = #"""
      // The session as the server has it now: its total, lines and methods shown again (after a payment refused
      // because the total changed elsewhere, in another tab or by the merchant), or its order once it is paid.
      async function refresh() {
        const response = await fetch(api, { headers: { 'Checkout-Client-Secret': data.clientSecret } });
        if (!response.ok) return;
        const session = await response.json();
        if (session.orderId) { await showOrder(session.orderId); return; }
        if (session.state !== 'pending') { awaitConfirmation(); return; }
        const current = session.paymentRequest;
        total = current.total;
        lineItems = current.lineItems || [];
        const listed = current.shippingMethods || [];
        methods = ordered(listed);
        // The server lists its selected method first; none selected (not offered at its address) is none shown.
        selected = confirmed = session.selectedShippingMethod || (listed.length ? listed[0].identifier : null);
        renderSummary();
        renderMethods();
        if (rowsReady) renderRows();
        // Priced for another address than this tab's (another tab gave one): this tab's address is given again, so
        // what is paid is priced for where it ships.
        const mine = ships && rowsReady ? redacted() : null;
        const theirs = session.shippingContact || {};
        const fields = ['postalCode', 'countryCode', 'locality', 'administrativeArea'];
        if (mine && (mine.postalCode || mine.countryCode)
            && fields.some((field) => (mine[field] || '').toUpperCase() !== (theirs[field] || '').toUpperCase())) {
          await queued(async () => {
            const update = await post('/shipping-contact', { shippingContact: mine });
            apply(update, true);
            renderRows();
          });
        }
      }

      // A refusal naming a contact field (Apple Pay's `contactField`): its row opened, the field marked invalid,
      // described by the refusal and focused, so the buyer (and a screen reader) lands where the fix goes.
      const contactInputs = { name: 'givenName', givenName: 'givenName', familyName: 'familyName', emailAddress: 'emailAddress',
        phoneNumber: 'phoneNumber', postalAddress: 'addressLine', addressLines: 'addressLine', locality: 'locality',
        postalCode: 'postalCode', administrativeArea: 'administrativeArea', country: 'countryCode', countryCode: 'countryCode' };
      function markContactField(errors) {
        const named = (errors || []).find((e) => e.contactField && contactInputs[e.contactField]);
        const input = named && $(contactInputs[named.contactField]);
        if (!input) return;
        const picker = input.closest('.picker');
        const button = picker && document.querySelector('[aria-controls="' + picker.id + '"]');
        if (button && button.getAttribute('aria-expanded') !== 'true') button.click();
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', 'result');
        input.addEventListener('input', () => input.removeAttribute('aria-invalid'), { once: true });
        input.focus();
      }

      // A payment on its way (this tab's answer lost, or another tab paying): the sheet says so and reads the session
      // until it has its order (or the payment was refused and the session can be paid again: the page starts over).
      let confirming = null;
      function awaitConfirmation() {
        if (confirming || paid) return;
        $('fallback').hidden = true;
        $('pay-button').hidden = true;
        say('result', 'Your payment is being confirmed\u2026', 'confirming');
        const started = Date.now();
        let asking = false;
        const stop = (text) => {
          clearInterval(confirming);
          if (text) say('result', text, 'confirming');
        };
        confirming = setInterval(async () => {
          if (Date.now() - started > 15 * 60 * 1000) {
            stop('Your payment is still being confirmed. Reload this page later to see your order.');
            return;
          }
          // One read at a time: a server slower than the interval is not asked again before it answers.
          if (asking) return;
          asking = true;
          try {
            const response = await fetch(api, { headers: { 'Checkout-Client-Secret': data.clientSecret } });
            if ([401, 403, 404, 410].includes(response.status)) {
              stop('This checkout can no longer be read here. Check your email for the order, or contact the shop.');
            } else if (response.ok) {
              const session = await response.json();
              if (session.orderId) {
                stop();
                await showOrder(session.orderId);
              } else if (session.state === 'pending') {
                stop();
                location.reload();
              }
            }
          } catch (error) { /* offline for a moment: asked again */ }
          asking = false;
        }, 2000);
      }
    """#
}
