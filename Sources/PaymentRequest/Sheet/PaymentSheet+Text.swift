extension PaymentSheet {
    /// The sheet as plain text, one section per part of the sheet, amounts right-aligned.
    /// - Returns: Text ending in a newline.
    public func text() -> String {
        var out: [String] = ["Apple Pay sheet preview (\(currencyCode))", ""]
        out.append(merchantLine + (merchantLineTooLong ? "  [longer than one sheet line]" : ""))
        if !shippingChoices.isEmpty {
            out += ["", shippingTitle]
            for choice in shippingChoices {
                out.append("  \(choice.isSelected ? "(•)" : "( )") \(choice.label) — \(choice.amount)")
                let dates = choice.dates.map { " (\($0))" } ?? ""
                out.append("      \(choice.detail)\(dates)")
            }
        }
        if !shippingContactFields.isEmpty || !billingContactFields.isEmpty {
            out += ["", "Contact"]
            if !shippingContactFields.isEmpty { out.append("  Shipping: " + shippingContactFields.joined(separator: ", ")) }
            if !billingContactFields.isEmpty { out.append("  Billing: " + billingContactFields.joined(separator: ", ")) }
        }
        if let couponField {
            out += ["", "Coupon code: " + (couponField.isEmpty ? "(empty field)" : couponField)]
        }
        if !paymentTerms.isEmpty {
            out += [""] + paymentTerms
        }
        out += ["", "Summary"]
        let rows = lineItems.map { ($0.label + ($0.isTooLong ? " [too long]" : ""), $0.amount) }
        let totalRow = (merchantLine, totalAmount)
        let width = max(40, (rows + [totalRow]).map { $0.0.count + $0.1.count + 4 }.max() ?? 0)
        for (label, amount) in rows { out.append(Self.row(label, amount, width: width)) }
        out.append("  " + String(repeating: "-", count: width - 2))
        out.append(Self.row(totalRow.0, totalRow.1, width: width))
        if !networks.isEmpty {
            out += ["", "Accepted networks: " + networks.joined(separator: ", ")]
        }
        return out.joined(separator: "\n") + "\n"
    }

    private static func row(_ label: String, _ amount: String, width: Int) -> String {
        let gap = max(2, width - 2 - label.count - amount.count)
        return "  " + label + String(repeating: " ", count: gap) + amount
    }
}
