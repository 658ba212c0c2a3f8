import PassModel

/// The back of the card: the organisation's name, then each back field (label, then its value wrapped over as many
/// lines as it needs) with a hairline between fields, on the pass colour.
struct BackSide {
    let pass: Pass
    let fields: PassFields?
    let colors: CardColors
    let formatter: FieldFormatter

    /// The lowest point the back's text is drawn to: at scale 2 the rasterizer makes no image taller than 32,767
    /// pixels, and a back field of tens of kilobytes (terms and conditions) would leave the whole preview undrawn.
    /// Past it one line says the rest is not shown.
    static let maximumHeight = 12_000.0

    /// The characters of one field's value read for wrapping: more than the tallest back shows.
    static let maximumCharacters = 60_000

    /// Draws the content (the background is drawn by the caller) and returns its height, at least `minimumHeight`.
    func draw(on canvas: inout SVGCanvas, minimumHeight: Double) -> Double {
        let left = FrontSide.padding
        let width = FrontSide.width - 2 * left
        let title = pass.organizationName.map(formatter.localized) ?? pass.logoText.map(formatter.localized) ?? ""
        canvas.text(title, x: left, y: 32, size: 16, fill: colors.foreground.svg, bold: true, maxWidth: width)
        var y = 48.0
        let backFields = fields?.backFields ?? []
        if backFields.isEmpty {
            canvas.text("No back fields", x: left, y: y + 22, size: 12, fill: colors.label.svg)
            y += 34
        }
        var cut = false
        fields: for (index, field) in backFields.enumerated() {
            guard y + 60 < Self.maximumHeight else {
                cut = true
                break
            }
            if index > 0 {
                canvas.rect(x: left, y: y, width: width, height: 0.5, fill: colors.foreground.svg,
                            attributes: "fill-opacity=\"0.3\"")
            }
            canvas.text(formatter.label(field), x: left, y: y + 18, size: 11, fill: colors.label.svg, maxWidth: width)
            y += 22
            let value = formatter.value(field, back: true)
            for line in TextMetrics.wrap(String(value.prefix(Self.maximumCharacters)), size: 13, maxWidth: width) {
                guard y + 17 < Self.maximumHeight else {
                    cut = true
                    break fields
                }
                y += 17
                canvas.text(line, x: left, y: y, size: 13, fill: colors.foreground.svg, maxWidth: width)
            }
            y += 10
        }
        if cut {
            y += 22
            canvas.raw("<g data-role=\"back-cut\">\n")
            canvas.text("\u{2026} the rest of the back is not shown: it is longer than a preview draws", x: left, y: y, size: 12,
                        fill: colors.label.svg, maxWidth: width)
            canvas.raw("</g>\n")
            y += 10
        }
        return max(y + FrontSide.padding, minimumHeight)
    }
}

/// The red banner over a pass that fails validation: the error count, then each error's path and message.
struct ValidationBanner {
    let lines: [String]
    let width: Double

    init?(report: ValidationReport, width: Double) {
        self.init(issues: report.issues, subject: "pass", width: width)
    }

    /// A banner listing the errors among `issues`, titled "Invalid <subject>: N validation errors"; `nil` when there
    /// are none.
    init?(issues: [ValidationIssue], subject: String, width: Double) {
        let errors = issues.filter { $0.severity == .error }
        guard !errors.isEmpty else { return nil }
        var lines = ["Invalid \(subject): \(errors.count) validation error\(errors.count == 1 ? "" : "s")"]
        for (index, error) in errors.enumerated() {
            // A banner that fits the image the rasterizer can make: past its lines, how many errors are left out.
            guard lines.count < Self.maximumLines else {
                let more = errors.count - index
                lines.append("• and \(more) more error\(more == 1 ? "" : "s")")
                break
            }
            lines += TextMetrics.wrap("• \(error.path): \(String(error.message.prefix(2_000)))", size: 11, maxWidth: width - 24)
        }
        self.lines = lines
        self.width = width
    }

    /// The lines a banner lists errors on before it says how many more there are.
    static let maximumLines = 60

    var height: Double { 16 + Double(lines.count) * 16 + 6 }

    func draw(on canvas: inout SVGCanvas) {
        canvas.rect(x: 0, y: 0, width: width, height: height - 6, radius: 8, fill: "#c62828",
                    attributes: "data-role=\"validation-errors\"")
        for (index, line) in lines.enumerated() {
            canvas.text(line, x: 12, y: 24 + Double(index) * 16, size: index == 0 ? 12 : 11, fill: "#ffffff",
                        bold: index == 0, maxWidth: width - 24)
        }
    }
}
