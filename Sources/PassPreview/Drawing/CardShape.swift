import PassModel

/// The outline of a card: a rounded rectangle, with the semicircular notch Wallet cuts into the top of an event
/// ticket and the perforated top edge of a coupon. Used as the card's clip path, so the cut-outs are transparent.
enum CardShape {
    /// The corner radius.
    static let cornerRadius = 12.0
    /// The radius of an event ticket's notch, centred on the top edge.
    static let notchRadius = 14.0
    /// The radius of a coupon's perforations and the distance between their centres.
    static let perforationRadius = 3.0
    static let perforationPitch = 10.0

    /// What is cut from the top edge.
    enum Cut: String {
        case none, notch, perforation
    }

    /// The cut a side of a pass has: only fronts are cut, and a poster layout (full-bleed artwork) is not.
    static func cut(for pass: Pass, side: String, layout: PreviewLayout) -> Cut {
        guard side == "front", layout == .classic else { return .none }
        switch pass.style {
        case .eventTicket?: return .notch
        case .coupon?: return .perforation
        default: return .none
        }
    }

    /// The centres of a coupon's perforations along a top edge `width` wide.
    static func perforationCenters(width: Double) -> [Double] {
        let first = cornerRadius + 2 * perforationRadius
        let count = Int(((width - 2 * first) / perforationPitch).rounded(.down)) + 1
        let offset = (width - 2 * first - Double(count - 1) * perforationPitch) / 2
        return (0..<count).map { first + offset + Double($0) * perforationPitch }
    }

    /// The SVG path data of the outline.
    static func path(width: Double, height: Double, cut: Cut) -> String {
        let n = SVGCanvas.number
        let r = cornerRadius
        var d = "M\(n(r)) 0"
        func notch(at x: Double, radius: Double) {
            // Along the top edge, then a half circle down into the card and back up.
            d += "H\(n(x - radius))A\(n(radius)) \(n(radius)) 0 0 0 \(n(x + radius)) 0"
        }
        switch cut {
        case .none: break
        case .notch: notch(at: width / 2, radius: notchRadius)
        case .perforation: for x in perforationCenters(width: width) { notch(at: x, radius: perforationRadius) }
        }
        d += "H\(n(width - r))A\(n(r)) \(n(r)) 0 0 1 \(n(width)) \(n(r))V\(n(height - r))"
        d += "A\(n(r)) \(n(r)) 0 0 1 \(n(width - r)) \(n(height))H\(n(r))A\(n(r)) \(n(r)) 0 0 1 0 \(n(height - r))"
        d += "V\(n(r))A\(n(r)) \(n(r)) 0 0 1 \(n(r)) 0Z"
        return d
    }

    /// The `<clipPath>` element with the id `<side>-card`.
    static func clipPath(id: String, width: Double, height: Double, cut: Cut) -> String {
        "<defs><clipPath id=\"\(id)-card\"><path data-cut=\"\(cut.rawValue)\" "
            + "d=\"\(path(width: width, height: height, cut: cut))\"/></clipPath></defs>\n"
    }
}
