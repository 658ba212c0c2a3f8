import Markup

extension BarcodeMatrix {
    /// The barcode as SVG: a white background and one `<path>` of dark rectangles, one per horizontal run of dark
    /// modules (identical consecutive rows share one taller rectangle), with `shape-rendering="crispEdges"` so
    /// renderers do not blur module edges. No raster image is embedded.
    ///
    /// Coordinates are pixels: the `viewBox` is the quiet-zone-inclusive symbol at `scale` pixels per module, plus a
    /// band below it for `altText` when one is given.
    /// - Parameters:
    ///   - scale: Pixels per module, 1-100 (default: the format's `defaultScale`).
    ///   - altText: Text centred under the barcode, as Wallet shows a pass's `altText`.
    /// - Returns: A standalone SVG document.
    /// - Throws: `BarcodeError` for a scale out of range.
    public func svg(scale: Int? = nil, altText: String? = nil) throws -> String {
        let scale = scale ?? format.defaultScale
        try Self.checkScale(scale)
        let symbolWidth = fullWidth * scale
        let symbolHeight = fullHeight * scale
        let text = altText.map(MarkupText.xml).flatMap { $0.isEmpty ? nil : $0 }
        let fontSize = Self.fontSize(symbolWidth: symbolWidth)
        let imageHeight = svgSize(scale: scale, altText: altText).height

        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(symbolWidth)" height="\(imageHeight)" \
        viewBox="0 0 \(symbolWidth) \(imageHeight)" shape-rendering="crispEdges">

        """
        svg += "<rect x=\"0\" y=\"0\" width=\"\(symbolWidth)\" height=\"\(imageHeight)\" fill=\"#ffffff\"/>\n"
        svg += "<path fill=\"#000000\" d=\"\(pathData(scale: scale))\"/>\n"
        if let text {
            svg += "<text x=\"\(symbolWidth / 2)\" y=\"\(symbolHeight + fontSize * 4 / 3)\" text-anchor=\"middle\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"\(fontSize)\" fill=\"#000000\" "
                + "shape-rendering=\"auto\">\(text)</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// `M x y h w v h h -w z` for every dark run, rows with identical neighbours merged into one band.
    func pathData(scale: Int) -> String {
        var path: [UInt8] = []
        path.reserveCapacity(modules.count / 2)
        var y = 0
        while y < height {
            var bandEnd = y + 1
            while bandEnd < height && rowsEqual(y, bandEnd) { bandEnd += 1 }
            let top = (quietZone + y) * scale
            let bandHeight = (bandEnd - y) * scale
            forEachDarkRun(inRow: y) { start, length in
                let runWidth = length * scale
                path.append(UInt8(ascii: "M"))
                Self.appendDecimal((quietZone + start) * scale, to: &path)
                path.append(UInt8(ascii: " "))
                Self.appendDecimal(top, to: &path)
                path.append(UInt8(ascii: "h"))
                Self.appendDecimal(runWidth, to: &path)
                path.append(UInt8(ascii: "v"))
                Self.appendDecimal(bandHeight, to: &path)
                path.append(contentsOf: [UInt8(ascii: "h"), UInt8(ascii: "-")])
                Self.appendDecimal(runWidth, to: &path)
                path.append(UInt8(ascii: "z"))
            }
            y = bandEnd
        }
        return String(decoding: path, as: UTF8.self)
    }

    /// Appends a non-negative integer's ASCII digits.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor * 10 <= value { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

extension BarcodeMatrix {
    /// The size ``svg(scale:altText:)`` gives the image: the symbol with its quiet zone, plus a line of text below
    /// it when there is an `altText`.
    /// - Parameters:
    ///   - scale: Pixels per module (default: the format's).
    ///   - altText: The text drawn below the symbol.
    /// - Returns: Width and height in SVG user units (pixels).
    public func svgSize(scale: Int? = nil, altText: String? = nil) -> (width: Int, height: Int) {
        let scale = scale ?? format.defaultScale
        let width = fullWidth * scale
        let hasText = !(altText.map(MarkupText.xml)?.isEmpty ?? true)
        return (width, fullHeight * scale + (hasText ? Self.fontSize(symbolWidth: width) * 2 : 0))
    }

    static func fontSize(symbolWidth: Int) -> Int { max(10, min(24, symbolWidth / 16)) }
}
