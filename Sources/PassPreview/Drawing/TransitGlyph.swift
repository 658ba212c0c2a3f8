import PassModel

/// The symbol Wallet draws between a boarding pass's origin and destination, by `transitType`, as SVG paths in a
/// 24×24 box.
enum TransitGlyph {
    static func path(for transitType: PassTransitType?) -> String {
        switch transitType {
        case .air?:
            // An aeroplane seen from above, nose pointing right.
            return "M2 10.5h7L5 3h2.5l6.5 7.5H20a2 1.5 0 0 1 0 3h-6l-6.5 7.5H5l4-7.5H2l-1-1.5z"
        case .train?:
            return "M6 3h12a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM6 6v5h12V6zM7 13.5a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM14 13.5a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM7 19h3l-2 3H5zM14 19h3l2 3h-3z"
        case .bus?:
            return "M5 2h14a2 2 0 0 1 2 2v14a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a2 2 0 0 1 2-2zM5 5v6h14V5zM5.5 15a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM15.5 15a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM5 19h3v3H5zM16 19h3v3h-3z"
        case .boat?:
            return "M11 2h2v3h4v6l4 1.5-3 7.5H6L3 12.5 7 11V5h4zM9 7v3.3l3-1.1 3 1.1V7zM2 21c2 0 3-1 5-1s3 1 5 1 3-1 5-1 3 1 5 1v1.5c-2 0-3-1-5-1s-3 1-5 1-3-1-5-1-3 1-5 1z"
        default:
            // An arrow for PKTransitTypeGeneric or a missing type.
            return "M2 10.5h15L11.5 5h3.5l7 7-7 7h-3.5l5.5-5.5H2z"
        }
    }

    /// Draws the glyph centred on (`x`, `y`), `size` points square.
    static func draw(_ transitType: PassTransitType?, on canvas: inout SVGCanvas, x: Double, y: Double, size: Double,
                     fill: String) {
        let scale = size / 24
        canvas.raw("<path transform=\"translate(\(canvas.n(x - size / 2)) \(canvas.n(y - size / 2))) scale(\(canvas.n(scale)))\" "
            + "fill=\"\(fill)\" data-role=\"transit\" d=\"\(path(for: transitType))\"/>\n")
    }
}
