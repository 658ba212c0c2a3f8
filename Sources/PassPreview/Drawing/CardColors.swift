import PassModel

/// The colours a card is drawn with: the pass's own, or Wallet-like defaults that keep text readable.
struct CardColors: Sendable {
    let background: PassColor
    let foreground: PassColor
    let label: PassColor
    let strip: PassColor

    init(pass: Pass) {
        background = PassColor(pass.backgroundColor) ?? PassColor(red: 255, green: 255, blue: 255)
        let contrast = background.isDark ? PassColor(red: 255, green: 255, blue: 255) : PassColor(red: 0, green: 0, blue: 0)
        foreground = PassColor(pass.foregroundColor) ?? contrast
        label = PassColor(pass.labelColor) ?? foreground
        strip = PassColor(pass.stripColor) ?? foreground
    }
}

/// How one field is drawn: its localized label, its formatted value, and where the text is anchored.
struct FieldText {
    let label: String
    let value: String
    let alignment: PassTextAlignment?

    /// Text Wallet writes itself (semantic layouts), with natural alignment.
    init(label: String, value: String) {
        self.label = label
        self.value = value
        alignment = nil
    }

    init(_ field: PassField, formatter: FieldFormatter) {
        label = formatter.label(field)
        value = formatter.value(field)
        alignment = field.textAlignment
    }

    /// The SVG `text-anchor` and x for a field in a column from `left` to `right`; natural alignment puts the last
    /// of several fields flush right, as Wallet does.
    func anchor(left: Double, right: Double, isLast: Bool, isOnly: Bool) -> (anchor: String, x: Double) {
        switch alignment {
        case .center?: return ("middle", (left + right) / 2)
        case .right?: return ("end", right)
        case .left?: return ("start", left)
        default: return isLast && !isOnly ? ("end", right) : ("start", left)
        }
    }
}
