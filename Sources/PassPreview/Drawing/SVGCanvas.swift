import Barcodes
import Foundation
import Markup

/// Appends SVG elements to a string: rectangles, text in DejaVu Sans (XML-escaped), embedded images.
struct SVGCanvas {
    static let fontFamily = "DejaVu Sans, sans-serif"

    var text = ""

    /// The XML declaration and the opening `<svg>` element of a `width`×`height` point document.
    mutating func openDocument(width: Double, height: Double) {
        raw("""
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" \
            width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))">

            """)
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, radius: Double = 0, fill: String,
                       attributes: String = "") {
        text += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\""
        if radius > 0 { text += " rx=\"\(n(radius))\"" }
        text += " fill=\"\(fill)\"\(attributes.isEmpty ? "" : " " + attributes)/>\n"
    }

    /// One line of text at baseline `y`; `anchor` is `start`, `middle` or `end`. Text wider than `maxWidth` is made
    /// smaller, down to three quarters of `size`, then cut with an ellipsis as Wallet cuts it: the PNG's rasterizer
    /// (librsvg) ignores SVG's `textLength`, so squeezing alone let long text run off the card there.
    mutating func text(_ string: String, x: Double, y: Double, size: Double, fill: String, bold: Bool = false,
                       anchor: String = "start", maxWidth: Double? = nil) {
        guard !string.isEmpty else { return }
        var string = string
        var size = size
        if let maxWidth, maxWidth > 0 {
            let width = TextMetrics.width(string, size: size, bold: bold)
            if width > maxWidth {
                size = max(size * 0.75, size * maxWidth / width)
                string = TextMetrics.cut(string, size: size, bold: bold, maxWidth: maxWidth)
            }
        }
        text += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"\(Self.fontFamily)\" font-size=\"\(n(size))\""
        if bold { text += " font-weight=\"bold\"" }
        if anchor != "start" { text += " text-anchor=\"\(anchor)\"" }
        if let maxWidth, TextMetrics.width(string, size: size, bold: bold) > maxWidth {
            text += " textLength=\"\(n(maxWidth))\" lengthAdjust=\"spacingAndGlyphs\""
        }
        text += " fill=\"\(fill)\">\(MarkupText.xml(string))</text>\n"
    }

    mutating func image(_ uri: String, x: Double, y: Double, width: Double, height: Double,
                        aspect: String = "xMidYMid meet", attributes: String = "") {
        text += "<image x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "preserveAspectRatio=\"\(aspect)\"\(attributes.isEmpty ? "" : " " + attributes) xlink:href=\"\(uri)\"/>\n"
    }

    mutating func raw(_ element: String) { text += element }

    /// A coordinate with at most two decimals and no trailing zeros.
    func n(_ value: Double) -> String { Self.number(value) }

    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }
}

/// Approximate advance widths of DejaVu Sans, enough to fit and wrap text before the rasterizer measures it.
enum TextMetrics {
    static func width(_ string: some StringProtocol, size: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for character in string { ems += self.ems(character) }
        return ems * size * (bold ? 1.1 : 1)
    }

    /// One character's advance, in ems.
    static func ems(_ character: Character) -> Double {
        if character == " " { return 0.32 }
        if character == "i" || character == "l" || character == "." || character == "," || character == ":" { return 0.3 }
        if character.isUppercase || character == "%" || character == "W" || character == "m" || character == "w" { return 0.72 }
        if character.isNumber { return 0.64 }
        return 0.6
    }

    /// `string` cut with an ellipsis, as Wallet cuts it, to the longest start that fits `maxWidth` with it (the
    /// ellipsis alone when not even one character does); `string` itself when it fits. One pass over the characters:
    /// text comes from the data, which may hold a field value of megabytes.
    static func cut(_ string: String, size: Double, bold: Bool = false, maxWidth: Double) -> String {
        let scale = size * (bold ? 1.1 : 1)
        let ellipsis = ems("\u{2026}") * scale
        var used = 0.0
        var fits = string.startIndex
        var index = string.startIndex
        while index < string.endIndex {
            used += ems(string[index]) * scale
            if used > maxWidth { break }
            index = string.index(after: index)
            if used + ellipsis <= maxWidth { fits = index }
        }
        return index == string.endIndex ? string : String(string[..<fits]) + "\u{2026}"
    }

    /// The largest size from `size` down to `minimum` at which `string` fits `maxWidth`.
    static func fittingSize(_ string: String, maxWidth: Double, size: Double, minimum: Double, bold: Bool = false) -> Double {
        let natural = width(string, size: size, bold: bold)
        guard natural > maxWidth, natural > 0 else { return size }
        return max(minimum, (size * maxWidth / natural).rounded(.down))
    }

    /// Greedy word wrap to lines no wider than `maxWidth`; words longer than a line are split.
    static func wrap(_ string: String, size: Double, maxWidth: Double) -> [String] {
        var lines: [String] = []
        for paragraph in string.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                let candidate = line.isEmpty ? word : line + " " + word
                if width(candidate, size: size) <= maxWidth { line = candidate; continue }
                if !line.isEmpty { lines.append(line); line = "" }
                // A word longer than a line, in pieces that fit (at least one character each), in one pass.
                var piece = word.startIndex, used = 0.0
                var index = word.startIndex
                while index < word.endIndex {
                    let advance = ems(word[index]) * size
                    if used + advance > maxWidth, index > piece {
                        lines.append(String(word[piece..<index]))
                        piece = index
                        used = 0
                    }
                    used += advance
                    index = word.index(after: index)
                }
                word = String(word[piece...])
                line = word
            }
            lines.append(line)
        }
        return lines
    }
}

/// A pass colour (`rgb(r, g, b)` or `#rrggbb`) as SVG wants it.
struct PassColor: Sendable, Equatable {
    var red: Int, green: Int, blue: Int

    init(red: Int, green: Int, blue: Int) { (self.red, self.green, self.blue) = (red, green, blue) }

    init?(_ string: String?) {
        guard let string = string?.trimmingCharacters(in: .whitespaces) else { return nil }
        if string.hasPrefix("#"), string.count == 7, let value = Int(string.dropFirst(), radix: 16) {
            self.init(red: value >> 16 & 0xFF, green: value >> 8 & 0xFF, blue: value & 0xFF)
            return
        }
        guard string.lowercased().hasPrefix("rgb("), string.hasSuffix(")") else { return nil }
        let parts = string.dropFirst(4).dropLast().split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let r = parts[0], let g = parts[1], let b = parts[2],
              [r, g, b].allSatisfy({ (0...255).contains($0) }) else { return nil }
        self.init(red: r, green: g, blue: b)
    }

    var svg: String { "rgb(\(red),\(green),\(blue))" }
    var isDark: Bool { 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue) < 140 }
}
