import OrderModel

/// An order as text, the way Wallet lists it: merchant, number and status, items, total and payment, fulfillments.
struct OrderSummary {
    let order: Order

    var text: String {
        var lines: [String] = []
        lines.append("\(order.merchant?.displayName ?? "(no merchant)")  order \(order.orderNumber ?? "?")  \(order.status ?? "?")")
        lines.append("  \(order.orderTypeIdentifier ?? "?") / \(order.orderIdentifier ?? "?")  updated \(order.updatedAt ?? "?")")
        for item in order.lineItems ?? [] {
            let price = item.price.map { "  \(Self.money($0))" } ?? ""
            lines.append("  \(item.quantity.map { "\($0)" } ?? "1") × \(item.title ?? "?")\(item.subtitle.map { " (\($0))" } ?? "")\(price)")
        }
        if let payment = order.payment {
            let methods = (payment.paymentMethods ?? []).joined(separator: ", ")
            lines.append("Total: \(payment.total.map(Self.money) ?? "?")  \(payment.status ?? "?")\(methods.isEmpty ? "" : "  \(methods)")")
        }
        for fulfillment in order.fulfillments ?? [] {
            switch fulfillment {
            case .shipping(let shipping):
                let tracking = [shipping.carrier, shipping.trackingNumber].compactMap { $0 }.joined(separator: " ")
                let expected = shipping.estimatedDeliveryAt.map { ", expected \($0)" } ?? ""
                lines.append("Shipping \(shipping.fulfillmentIdentifier ?? "?"): \(shipping.status ?? "?")"
                    + (tracking.isEmpty ? "" : " (\(tracking))") + expected)
            case .pickup(let pickup):
                let window = pickup.pickupAt.map { ", from \($0)" } ?? ""
                lines.append("Pickup \(pickup.fulfillmentIdentifier ?? "?"): \(pickup.status ?? "?")"
                    + (pickup.displayName.map { " at \($0)" } ?? "") + window)
            }
        }
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }

    private static func money(_ amount: OrderCurrencyAmount) -> String {
        "\(amount.currency ?? "") \(amount.amount ?? "?")"
    }
}
