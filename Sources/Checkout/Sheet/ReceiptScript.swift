/// The sheet's receipt once an order is paid: what was paid with which card, the order number, the link that adds the
/// order itself to Wallet (its `.order`, when the merchant issues Wallet orders) and the links that add its Wallet
/// passes (one `.pkpasses` link for all of them when there are several and Wallet takes them at once).
enum ReceiptScript {
    static let source = #"""
    (function () {
      'use strict';
      // Reads the order and writes the receipt into options.element (the sheet's result region); options.money
      // formats an amount for the buyer's locale.
      // The order is paid whatever happens here: a read that fails (the server busy, the network gone for a moment)
      // is tried again, and if it never succeeds the buyer is told the payment went through.
      async function show(options) {
        const orders = options.apiBase + '/orders/' + encodeURIComponent(options.orderId);
        const result = options.element;
        let order = null;
        for (let attempt = 0; attempt < 5 && !order; attempt += 1) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
          try {
            const response = await fetch(orders, { headers: { 'Checkout-Client-Secret': options.clientSecret } });
            if (response.ok) order = await response.json();
          } catch (error) { /* tried again */ }
        }
        if (!order || !order.payment) {
          result.textContent = 'Paid. Order ' + options.orderId + '. The receipt cannot be shown just now: reload this '
            + 'page to see it.';
          result.classList.remove('error');
          result.dataset.code = 'STATUS_SUCCESS';
          return;
        }
        result.textContent = 'Paid ' + options.money(order.total) + ' with ' + order.payment.displayName
          + '. Order ' + order.id + '.';
        result.classList.remove('error');
        result.dataset.code = 'STATUS_SUCCESS';
        if (order.walletOrder && order.walletOrder.downloadURL) {
          // The Wallet order: after Apple Pay, Wallet has it already; a card payment adds it from this link.
          const track = document.createElement('a');
          track.id = 'wallet-order';
          track.href = order.walletOrder.downloadURL;
          track.textContent = ' Track this order in Apple Wallet';
          result.append(track);
        }
        const passes = order.passes || [];
        if (passes.length > 1 && passes.length <= 10) {
          // Several passes: one .pkpasses download adds them all (Wallet takes at most 10 from one bundle).
          const all = document.createElement('a');
          all.id = 'all-passes';
          all.href = orders + '/pkpasses?clientSecret=' + encodeURIComponent(options.clientSecret);
          all.textContent = ' Add all ' + passes.length + ' passes to Apple Wallet';
          result.append(all);
        }
        for (const pass of passes) {
          const link = document.createElement('a');
          link.href = pass.downloadURL;
          link.textContent = ' Add to Apple Wallet (' + pass.serialNumber + ')';
          result.append(link);
        }
      }

      window.TesseraReceipt = Object.freeze({ show });
    })();
    """#
}
