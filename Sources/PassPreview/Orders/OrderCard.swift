import Foundation
import Markup
import OrderModel

/// The order card: merchant header, the first fulfillment, the line items and the payment, top to bottom.
struct OrderCard {
    static let width = 320.0
    static let margin = 16.0
    static let ink = "#1c1c1e"
    static let secondary = "#6e6e73"
    static let accent = "#0a84ff"

    let order: Order
    let logo: PreviewResources.Image?
    let timeZone: TimeZone

    /// Draws the card and returns its height.
    func draw(on canvas: inout SVGCanvas) -> Double {
        var y = drawHeader(on: &canvas)
        if let fulfillment = order.fulfillments?.first {
            y = drawSeparator(on: &canvas, y: y)
            y = drawFulfillment(fulfillment, on: &canvas, y: y)
        }
        if let items = order.lineItems, !items.isEmpty {
            y = drawSeparator(on: &canvas, y: y)
            y = drawItems(items, on: &canvas, y: y)
        }
        if let payment = order.payment {
            y = drawSeparator(on: &canvas, y: y)
            y = drawPayment(payment, on: &canvas, y: y)
        }
        return y + Self.margin
    }

    private func drawHeader(on canvas: inout SVGCanvas) -> Double {
        var x = Self.margin
        if let logo {
            let side = 44.0
            canvas.raw("<clipPath id=\"merchant-logo\"><rect x=\"\(canvas.n(x))\" y=\"16\" width=\"\(canvas.n(side))\" "
                + "height=\"\(canvas.n(side))\" rx=\"10\"/></clipPath>\n")
            canvas.image(logo.uri, x: x, y: 16, width: side, height: side,
                         attributes: "data-role=\"merchant-logo\" clip-path=\"url(#merchant-logo)\"")
            x += side + 12
        }
        let maxWidth = Self.width - x - Self.margin
        canvas.text(order.merchant?.displayName ?? "", x: x, y: 34, size: 17, fill: Self.ink, bold: true,
                    maxWidth: maxWidth)
        let number = order.orderNumber.map { "Order #\($0)" } ?? ""
        let status = order.status.map(OrderText.status) ?? ""
        canvas.text([number, status].filter { !$0.isEmpty }.joined(separator: " · "), x: x, y: 54, size: 12,
                    fill: Self.secondary, maxWidth: maxWidth)
        return 72
    }

    private func drawSeparator(on canvas: inout SVGCanvas, y: Double) -> Double {
        canvas.rect(x: Self.margin, y: y, width: Self.width - 2 * Self.margin, height: 0.5, fill: "#d1d1d6")
        return y + 0.5
    }

    private func drawFulfillment(_ fulfillment: OrderFulfillment, on canvas: inout SVGCanvas, y start: Double) -> Double {
        let maxWidth = Self.width - 2 * Self.margin
        canvas.raw("<g data-role=\"fulfillment\" data-fulfillment-type=\"\(fulfillment.fulfillmentType)\" "
            + "data-status=\"\(MarkupText.xml(fulfillment.status ?? ""))\">\n")
        var y = start + 22
        canvas.text(fulfillment.fulfillmentType == "pickup" ? "PICKUP" : "SHIPPING", x: Self.margin, y: y, size: 10,
                    fill: Self.secondary, bold: true)
        y += 22
        canvas.text(fulfillment.status.map(OrderText.status) ?? "", x: Self.margin, y: y, size: 17, fill: Self.accent,
                    bold: true, maxWidth: maxWidth)
        var lines: [String] = []
        switch fulfillment {
        case .shipping(let shipping):
            if let description = shipping.statusDescription { lines.append(description) }
            let tracking = [shipping.carrier, shipping.trackingNumber].compactMap { $0 }.joined(separator: " ")
            if !tracking.isEmpty { lines.append(tracking) }
            if let delivered = shipping.deliveredAt.flatMap(date) {
                lines.append("Delivered \(delivered)")
            } else if let expected = shipping.estimatedDeliveryAt.flatMap(date) {
                lines.append("Expected \(expected)")
            }
        case .pickup(let pickup):
            if let description = pickup.statusDescription { lines.append(description) }
            if let place = pickup.displayName { lines.append(place) }
            if let address = pickup.address { lines += OrderText.address(address) }
            if let start = pickup.pickupAt.flatMap(OrderText.instant) {
                lines.append("Pickup " + OrderText.window(start: start, duration: pickup.pickupWindowDuration,
                                                           timeZone: timeZone))
            }
        }
        for line in lines {
            y += 18
            canvas.text(line, x: Self.margin, y: y, size: 13, fill: Self.ink, maxWidth: maxWidth)
        }
        canvas.raw("</g>\n")
        return y + 16
    }

    /// Line items drawn at most; past them one line says how many more there are. (Each takes 39 points: 500 made a
    /// card taller than any image the rasterizer can make at scale 2.)
    static let maximumDrawnItems = 100

    private func drawItems(_ items: [OrderLineItem], on canvas: inout SVGCanvas, y start: Double) -> Double {
        var y = start
        let right = Self.width - Self.margin
        for item in items.prefix(Self.maximumDrawnItems) {
            canvas.raw("<g data-role=\"line-item\">\n")
            y += 22
            let price = item.price.map(OrderText.money) ?? ""
            let priceWidth = TextMetrics.width(price, size: 14) + 12
            canvas.text(item.title ?? "", x: Self.margin, y: y, size: 14, fill: Self.ink, bold: true,
                        maxWidth: right - Self.margin - priceWidth)
            canvas.text(price, x: right, y: y, size: 14, fill: Self.ink, anchor: "end")
            let quantity = "Qty \(item.quantity.map { "\($0)" } ?? "1")"
            let detail = [item.subtitle, quantity].compactMap { $0 }.joined(separator: " · ")
            y += 17
            canvas.text(detail, x: Self.margin, y: y, size: 12, fill: Self.secondary, maxWidth: right - Self.margin)
            canvas.raw("</g>\n")
        }
        if items.count > Self.maximumDrawnItems {
            let more = items.count - Self.maximumDrawnItems
            y += 22
            canvas.raw("<g data-role=\"more-line-items\">\n")
            canvas.text("and \(more) more \(more == 1 ? "item" : "items")", x: Self.margin, y: y, size: 12,
                        fill: Self.secondary)
            canvas.raw("</g>\n")
        }
        return y + 12
    }

    private func drawPayment(_ payment: OrderPayment, on canvas: inout SVGCanvas, y start: Double) -> Double {
        var y = start
        let right = Self.width - Self.margin
        for summary in payment.summaryItems ?? [] {
            y += 20
            canvas.text(summary.label ?? "", x: Self.margin, y: y, size: 13, fill: Self.secondary)
            canvas.text(summary.value.map(OrderText.money) ?? "", x: right, y: y, size: 13, fill: Self.secondary,
                        anchor: "end")
        }
        y += 24
        canvas.raw("<g data-role=\"total\">\n")
        canvas.text("Total", x: Self.margin, y: y, size: 15, fill: Self.ink, bold: true)
        canvas.text(payment.total.map(OrderText.money) ?? "", x: right, y: y, size: 15, fill: Self.ink, bold: true,
                    anchor: "end")
        canvas.raw("</g>\n")
        let methods = payment.paymentMethods ?? []
        let line = ([payment.status.map(OrderText.status)].compactMap { $0 } + methods).joined(separator: " · ")
        if !line.isEmpty {
            y += 18
            canvas.text(line, x: Self.margin, y: y, size: 12, fill: Self.secondary, maxWidth: right - Self.margin)
        }
        return y
    }

    private func date(_ text: String) -> String? {
        OrderText.instant(text).map { OrderText.date($0, timeZone: timeZone) }
    }
}
