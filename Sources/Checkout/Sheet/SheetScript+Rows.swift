/// The sheet's rows: each row's button opens its picker in place (and closes the others); Escape or a picker's
/// `sheet:close` event closes it and puts the focus back on the row, so the buyer never loses their place.
extension SheetScript {
    static let rows = #"""
    (function () {
      'use strict';
      const buttons = () => Array.from(document.querySelectorAll('.row-button'));
      function close(button, refocus) {
        const picker = document.getElementById(button.getAttribute('aria-controls'));
        button.setAttribute('aria-expanded', 'false');
        picker.hidden = true;
        if (refocus) button.focus();
      }
      function open(button) {
        for (const other of buttons()) if (other !== button && other.getAttribute('aria-expanded') === 'true') close(other, false);
        const picker = document.getElementById(button.getAttribute('aria-controls'));
        button.setAttribute('aria-expanded', 'true');
        picker.hidden = false;
        const first = picker.querySelector('input:checked:not([disabled]), input:not([disabled]), button:not([disabled])');
        if (first) first.focus();
      }
      for (const button of buttons()) {
        button.addEventListener('click', () => {
          if (button.getAttribute('aria-expanded') === 'true') close(button, true); else open(button);
        });
        const picker = document.getElementById(button.getAttribute('aria-controls'));
        picker.addEventListener('keydown', (event) => {
          if (event.key === 'Escape') { event.preventDefault(); close(button, true); }
        });
        picker.addEventListener('sheet:close', () => close(button, true));
      }
    })();
    """#
}
