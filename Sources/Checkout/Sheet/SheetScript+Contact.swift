extension SheetScript {
    /// The sheet's contact rows, inside ``source``'s function: the fields the request asks for (shipping and billing
    /// together, one contact serving both), the address and contact pickers, the address kept in the tab's storage,
    /// and each row's value.
    static let contactFields = #"""
      // The fields the request asks for, for shipping and for billing: one contact serves both on this sheet.
      const billing = request.requiredBillingContactFields || [];
      const required = Array.from(new Set((request.requiredShippingContactFields || []).concat(billing)));
      // Nothing ships but the card's billing address is needed: the address row asks for it, as the billing address.
      const billingAddress = !ships && billing.includes('postalAddress');
      const addressRow = ships || billingAddress;
      const inputs = { name: [['givenName', 'First name', 'given-name'], ['familyName', 'Last name', 'family-name']],
        email: [['emailAddress', 'Email', 'email']], phone: [['phoneNumber', 'Phone', 'tel']],
        postalAddress: [['addressLine', 'Street address', 'address-line1']] };
      // Name and street belong to the address row, email and phone (and the name when there is no address) to the
      // contact row.
      const home = { name: addressRow ? 'name-fields' : 'contact-fields', postalAddress: 'street-fields',
        email: 'contact-fields', phone: 'contact-fields' };
      for (const field of required) {
        if (field === 'postalAddress' && !addressRow) continue;
        for (const [id, text, autocomplete] of inputs[field] || []) {
          const label = document.createElement('label');
          label.htmlFor = id;
          label.textContent = text;
          const input = document.createElement('input');
          input.id = id;
          input.name = id;
          input.autocomplete = autocomplete;
          // The keyboard for the field on phones, without the browser's own validation (the server's names the field).
          if (autocomplete === 'email' || autocomplete === 'tel') input.inputMode = autocomplete;
          $(home[field]).append(label, input);
        }
      }

      // The address stays in this tab's sessionStorage for this session, so a reload does not forget it.
      const fields = () => Array.from(document.querySelectorAll('#address-form input, #contact-form input'));
      function remember() {
        const values = {};
        for (const input of fields()) values[input.id] = input.value;
        try { sessionStorage.setItem(saved, JSON.stringify(values)); } catch (error) { /* storage unavailable */ }
      }
      function restore() {
        let values = null;
        try { values = JSON.parse(sessionStorage.getItem(saved) || 'null'); } catch (error) { values = null; }
        // Known to the server already (the redacted part only): shown, not typed again.
        if (!values && data.shippingContact) values = { locality: data.shippingContact.locality || '',
          administrativeArea: data.shippingContact.administrativeArea || '',
          postalCode: data.shippingContact.postalCode || '', countryCode: data.shippingContact.countryCode || '' };
        if (!values) return;
        for (const input of fields()) if (typeof values[input.id] === 'string') input.value = values[input.id];
      }
      // The redacted address Apple Pay gives before payment: city, state or province, postal code and country.
      const redacted = () => {
        const contact = { locality: value('locality'), postalCode: value('postalCode'),
          countryCode: value('countryCode').toUpperCase() };
        if (value('administrativeArea')) contact.administrativeArea = value('administrativeArea');
        return contact;
      };
      function fullContact() {
        const contact = redacted();
        for (const id of ['givenName', 'familyName', 'emailAddress', 'phoneNumber']) if (value(id)) contact[id] = value(id);
        if (value('addressLine')) contact.addressLines = [value('addressLine')];
        return contact;
      }

      $('address-form').addEventListener('submit', async (event) => {
        event.preventDefault();
        if (!ships) {
          // A billing address: nothing to price, so nothing goes to the server before payment.
          remember();
          renderRows();
          $('picker-shipping-address').dispatchEvent(new Event('sheet:close'));
          return;
        }
        // Only the redacted part of the address goes to the server before payment, as with Apple Pay.
        remember();
        const shippingContact = redacted();
        await queued(async () => {
          try {
            const update = await post('/shipping-contact', { shippingContact });
            apply(update, true);
            if (update.errors && update.errors.length) say('shipping-status', describe(update.errors), update.errors[0].code);
            else {
              say('shipping-status', 'Shipping address updated.');
              $('picker-shipping-address').dispatchEvent(new Event('sheet:close'));
            }
            renderRows();
          } catch (error) { say('shipping-status', error.message, 'requestFailed'); }
        });
      });

      $('contact-form').addEventListener('submit', (event) => {
        event.preventDefault();
        remember();
        renderRows();
        $('picker-contact').dispatchEvent(new Event('sheet:close'));
      });

      // Each row shows its current value; a row the buyer still has to fill says so.
      function rowValue(name, text, needed) {
        const element = $(name + '-value');
        element.textContent = text;
        element.classList.toggle('needed', !!needed);
      }
      function renderRows() {
        const join = (parts) => parts.filter((part) => part).join(', ');
        const name = join([value('givenName') + ' ' + value('familyName')].map((n) => n.trim()));
        const place = join([value('addressLine'), value('locality'), value('administrativeArea'), value('postalCode'),
          value('countryCode').toUpperCase()]);
        rowValue('shipping-address', unserviceable ? 'We do not ship to ' + place
          : (place ? join([name, place]) : (ships ? 'Add shipping address' : 'Add billing address')), !place || unserviceable);
        const method = methods.find((m) => m.identifier === selected);
        rowValue('shipping-method', unserviceable || !method ? 'No shipping method for this address'
          : method.label + ' \u00b7 ' + money(method.amount), unserviceable || !method);
        const contact = join([addressRow ? '' : name, value('emailAddress'), value('phoneNumber')]);
        rowValue('contact', contact || 'Add contact', !contact);
        rowValue('coupon', request.couponCode && !value('couponCode') ? request.couponCode : (value('couponCode') || 'Add promo code'));
      }
    """#
}
