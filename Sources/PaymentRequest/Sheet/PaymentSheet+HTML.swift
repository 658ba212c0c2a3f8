import Markup

extension PaymentSheet {
    /// The sheet as a self-contained HTML page (inline CSS, no scripts, no external resources); every value from the
    /// request is escaped.
    /// - Returns: An HTML document.
    public func html() -> String {
        var body: [String] = []
        body.append("<h1 class=\"merchant\(merchantLineTooLong ? " too-long" : "")\">\(MarkupText.html(merchantLine))</h1>")
        if !shippingChoices.isEmpty {
            body.append("<section><h2>\(MarkupText.html(shippingTitle))</h2><ul class=\"choices\">")
            for choice in shippingChoices {
                let dates = choice.dates.map { " <span class=\"dates\">(\(MarkupText.html($0)))</span>" } ?? ""
                body.append("<li class=\"\(choice.isSelected ? "selected" : "")\"><span class=\"label\">"
                    + "\(MarkupText.html(choice.label))</span> <span class=\"amount\">\(MarkupText.html(choice.amount))</span>"
                    + "<div class=\"detail\">\(MarkupText.html(choice.detail))\(dates)</div></li>")
            }
            body.append("</ul></section>")
        }
        if !shippingContactFields.isEmpty || !billingContactFields.isEmpty {
            body.append("<section><h2>Contact</h2>")
            if !shippingContactFields.isEmpty {
                body.append("<p>Shipping: \(MarkupText.html(shippingContactFields.joined(separator: ", ")))</p>")
            }
            if !billingContactFields.isEmpty {
                body.append("<p>Billing: \(MarkupText.html(billingContactFields.joined(separator: ", ")))</p>")
            }
            body.append("</section>")
        }
        if let couponField {
            body.append("<section><h2>Coupon code</h2><p class=\"coupon\">\(MarkupText.html(couponField))</p></section>")
        }
        if !paymentTerms.isEmpty {
            body.append("<section class=\"terms\">" + paymentTerms.map { "<p>\(MarkupText.html($0))</p>" }.joined() + "</section>")
        }
        body.append("<table class=\"summary\">")
        for line in lineItems {
            body.append("<tr\(line.isTooLong ? " class=\"too-long\"" : "")><td>\(MarkupText.html(line.label))</td>"
                + "<td class=\"amount\">\(MarkupText.html(line.amount))</td></tr>")
        }
        body.append("<tr class=\"total\"><td>\(MarkupText.html(merchantLine))</td>"
            + "<td class=\"amount\">\(MarkupText.html(totalAmount))</td></tr></table>")
        if !networks.isEmpty {
            body.append("<p class=\"networks\">Accepted networks: \(MarkupText.html(networks.joined(separator: ", ")))</p>")
        }
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Apple Pay sheet preview (\(MarkupText.html(currencyCode)))</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        <main class="sheet">
        \(body.joined(separator: "\n"))
        </main>
        </body>
        </html>

        """
    }

    private static let style = """
    body{margin:0;padding:24px;background:#e5e5ea;font:15px -apple-system,system-ui,sans-serif;color:#1c1c1e}\
    .sheet{max-width:390px;margin:auto;background:#fff;border-radius:14px;padding:16px 20px;\
    box-shadow:0 2px 12px rgba(0,0,0,.15)}\
    h1{font-size:17px;margin:4px 0 12px}h2{font-size:13px;color:#8e8e93;text-transform:uppercase;margin:14px 0 6px}\
    ul.choices{list-style:none;margin:0;padding:0}ul.choices li{padding:6px 0;border-top:1px solid #e5e5ea}\
    li.selected .label::before{content:"\\2713  ";color:#007aff}.detail{color:#8e8e93;font-size:13px}\
    table.summary{width:100%;border-collapse:collapse;margin-top:14px}td{padding:4px 0}\
    td.amount{text-align:right;white-space:nowrap}tr.total td{border-top:1px solid #c7c7cc;font-weight:600;padding-top:8px}\
    .too-long{outline:2px dashed #ff9500}.networks,.terms{color:#8e8e93;font-size:12px}
    """
}
