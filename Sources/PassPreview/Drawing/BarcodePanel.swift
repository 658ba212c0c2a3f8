import Barcodes
import Foundation
import PassModel

/// The pass's first barcode, rendered once by the Barcodes module, drawn on a white rounded panel with its `altText`.
/// A barcode that cannot be made is drawn as a panel stating why, so the preview stays truthful.
struct BarcodePanel: Sendable {
    /// The symbol's SVG content (white background and one path of dark modules) and its size in modules.
    let symbol: (content: String, modules: (width: Int, height: Int))?
    let format: Barcode.Format?
    let altText: String?
    let problem: String?

    init?(pass: Pass) {
        guard let passBarcode = pass.barcodes?.first ?? pass.barcode else { return nil }
        altText = passBarcode.altText
        do {
            let barcode = try Barcode(passBarcode)
            let matrix = try BarcodeRenderer.render(barcode)
            let svg = try matrix.svg(scale: 1)
            format = barcode.format
            symbol = (Self.innerContent(of: svg), (matrix.fullWidth, matrix.fullHeight))
            problem = nil
        } catch let error as BarcodeError {
            (format, symbol, problem) = (nil, nil, "barcode: \(error.description)")
        } catch {
            (format, symbol, problem) = (nil, nil, "barcode: \(error)")
        }
    }

    /// The elements between the root `<svg ...>` tag and `</svg>`.
    static func innerContent(of svg: String) -> String {
        guard let root = svg.range(of: "<svg "), let open = svg[root.upperBound...].firstIndex(of: ">"),
              let close = svg.range(of: "</svg>", options: .backwards) else { return "" }
        return String(svg[svg.index(after: open)..<close.lowerBound])
    }

    /// The symbol's drawn size in points: square codes about 130 points, PDF417 and the one-dimensional formats up to 260 wide, at a
    /// whole or half point per module so that 2x previews keep crisp modules.
    var symbolSize: (width: Double, height: Double) {
        guard let symbol, let format else { return (260, 40) }
        let (columns, rows) = (Double(symbol.modules.width), Double(symbol.modules.height))
        switch format {
        case .qr, .aztec:
            let module = max(0.5, (130 / columns * 2).rounded(.down) / 2)
            return (columns * module, rows * module)
        case .pdf417:
            let module = Self.linearModule(columns: columns)
            return (columns * module, min(100, rows * module))
        case .code128, .code39, .codabar, .ean13, .i2of5:
            let module = Self.linearModule(columns: columns)
            return (columns * module, 56)
        }
    }

    /// A module's width for a symbol `columns` modules wide: whole or half points within 260 points; a symbol too wide
    /// even at half a point (a long Code 128) gets narrower modules, so it fits the card instead of being cut off.
    static func linearModule(columns: Double) -> Double {
        let fitted = (260 / columns * 2).rounded(.down) / 2
        return fitted >= 0.5 ? fitted : min(0.5, 296 / columns)
    }

    /// Height of the whole panel (padding, symbol, alt text).
    var height: Double { 12 + symbolSize.height + (altText?.isEmpty == false || problem != nil ? 20 : 0) + 10 }

    /// Draws the panel centred on `centerX`, its top at `y`.
    func draw(on canvas: inout SVGCanvas, centerX: Double, y: Double) {
        let size = symbolSize
        let width = size.width + 24
        canvas.rect(x: centerX - width / 2, y: y, width: width, height: height, radius: 8, fill: "#ffffff",
                    attributes: "data-role=\"barcode\"")
        if let symbol {
            canvas.raw("<svg x=\"\(canvas.n(centerX - size.width / 2))\" y=\"\(canvas.n(y + 12))\" "
                + "width=\"\(canvas.n(size.width))\" height=\"\(canvas.n(size.height))\" "
                + "viewBox=\"0 0 \(symbol.modules.width) \(symbol.modules.height)\" preserveAspectRatio=\"none\" "
                + "shape-rendering=\"crispEdges\">\(symbol.content)</svg>\n")
        }
        let caption = problem ?? altText ?? ""
        canvas.text(caption, x: centerX, y: y + 12 + size.height + 15, size: 11,
                    fill: problem == nil ? "#000000" : "#c62828", anchor: "middle", maxWidth: width - 12)
    }
}
