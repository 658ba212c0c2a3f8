import PassModel

/// The front of the card: logo and logo text, header fields, the style's primary area (strip, thumbnail or
/// origin → destination), secondary and auxiliary rows, the footer image and the barcode panel.
struct FrontSide {
    static let width = 320.0
    static let padding = 12.0

    let pass: Pass
    let fields: PassFields
    let colors: CardColors
    let resources: PreviewResources
    let formatter: FieldFormatter
    let barcode: BarcodePanel?

    /// Draws the card's content (the background is drawn by the caller) and returns its height.
    func draw(on canvas: inout SVGCanvas) -> Double {
        var y = drawTopBar(on: &canvas)
        let style = pass.style
        let strip = [.coupon, .storeCard, .eventTicket].contains(style) ? resources[image: "strip"] : nil
        let thumbnail = [.generic, .eventTicket].contains(style) && strip == nil ? resources[image: "thumbnail"] : nil
        var textRight = Self.width - Self.padding
        var thumbnailBottom = 0.0
        if let thumbnail {
            let size = fit(thumbnail, maxWidth: 90, maxHeight: 90)
            canvas.image(thumbnail.uri, x: Self.width - Self.padding - size.width, y: y + 4, width: size.width,
                         height: size.height)
            textRight -= size.width + 10
            thumbnailBottom = y + 4 + size.height
        }
        let primaries = (fields.primaryFields ?? []).map { FieldText($0, formatter: formatter) }
        if style == .boardingPass {
            y = drawRoute(primaries, on: &canvas, y: y)
        } else if let strip {
            y = drawStrip(strip, primaries: primaries, on: &canvas, y: y)
        } else if !primaries.isEmpty {
            y = drawRow(primaries, on: &canvas, y: y, right: textRight, labelSize: 11, valueSize: 26)
        }
        var rows = [fields.secondaryFields ?? []]
        let auxiliary = fields.auxiliaryFields ?? []
        if style == .eventTicket {
            rows += [auxiliary.filter { ($0.row ?? 0) == 0 }, auxiliary.filter { $0.row == 1 }]
        } else if style == .coupon {
            // A coupon shows its secondary and auxiliary fields together, in one row under the strip.
            rows[0] += auxiliary
        } else {
            rows.append(auxiliary)
        }
        for row in rows where !row.isEmpty {
            let right = y < thumbnailBottom ? textRight : Self.width - Self.padding
            y = drawRow(row.map { FieldText($0, formatter: formatter) }, on: &canvas, y: y, right: right,
                        labelSize: 10, valueSize: 15)
        }
        y = max(y, thumbnailBottom + 8)
        if style == .boardingPass, let footer = resources[image: "footer"] {
            let size = fit(footer, maxWidth: Self.width - 2 * Self.padding, maxHeight: 15)
            canvas.image(footer.uri, x: (Self.width - size.width) / 2, y: y + 6, width: size.width, height: size.height)
            y += size.height + 12
        }
        guard let barcode else { return max(y + Self.padding, 300) }
        let height = max(y + 10 + barcode.height + 14, 410)
        barcode.draw(on: &canvas, centerX: Self.width / 2, y: height - barcode.height - 14)
        return height
    }

    /// Logo (at most 160×40), logo text beside it, header fields flush right; returns the bar's bottom.
    func drawTopBar(on canvas: inout SVGCanvas) -> Double {
        var headerLeft = Self.width - Self.padding
        let headers = (fields.headerFields ?? []).map { FieldText($0, formatter: formatter) }
        for header in headers.reversed() {
            let columnWidth = max(TextMetrics.width(header.label, size: 10), TextMetrics.width(header.value, size: 17))
            let width = min(columnWidth, 120)
            canvas.text(header.label, x: headerLeft, y: 20, size: 10, fill: colors.label.svg, anchor: "end", maxWidth: width)
            canvas.text(header.value, x: headerLeft, y: 41, size: 17, fill: colors.foreground.svg, anchor: "end",
                        maxWidth: width)
            headerLeft -= width + 14
        }
        var x = Self.padding
        if let logo = resources[image: "logo"] {
            let size = fit(logo, maxWidth: 160, maxHeight: 40)
            canvas.image(logo.uri, x: x, y: 6 + (40 - size.height) / 2, width: size.width, height: size.height,
                         aspect: "xMinYMid meet")
            x += size.width + 8
        }
        if let logoText = pass.logoText.map(formatter.localized) {
            canvas.text(logoText, x: x, y: 33, size: 16, fill: colors.foreground.svg, bold: true,
                        maxWidth: max(20, headerLeft - x))
        }
        return 56
    }

    /// Boarding pass: origin left, destination right, the transit glyph between them.
    func drawRoute(_ primaries: [FieldText], on canvas: inout SVGCanvas, y: Double) -> Double {
        let left = Self.padding, right = Self.width - Self.padding
        let half = (right - left) / 2 - 24
        for (index, field) in primaries.prefix(2).enumerated() {
            let anchor = index == 0 ? "start" : "end"
            let x = index == 0 ? left : right
            let size = TextMetrics.fittingSize(field.value, maxWidth: half, size: 38, minimum: 14)
            canvas.text(field.label, x: x, y: y + 12, size: 11, fill: colors.label.svg, anchor: anchor, maxWidth: half)
            canvas.text(field.value, x: x, y: y + 52, size: size, fill: colors.foreground.svg, anchor: anchor, maxWidth: half)
        }
        TransitGlyph.draw(fields.transitType, on: &canvas, x: Self.width / 2, y: y + 38, size: 30, fill: colors.label.svg)
        return y + 68
    }

    /// Strip styles: the strip image across the card, the primary value large over its lower left.
    func drawStrip(_ strip: PreviewResources.Image, primaries: [FieldText], on canvas: inout SVGCanvas, y: Double) -> Double {
        let height = min(123, strip.height * Self.width / strip.width)
        canvas.image(strip.uri, x: 0, y: y, width: Self.width, height: height, aspect: "xMidYMid slice")
        if let primary = primaries.first {
            let maxWidth = Self.width - 2 * Self.padding
            let size = TextMetrics.fittingSize(primary.value, maxWidth: maxWidth, size: 34, minimum: 14, bold: true)
            canvas.text(primary.value, x: Self.padding, y: y + 14 + size, size: size, fill: colors.strip.svg,
                        bold: true, maxWidth: maxWidth)
            canvas.text(primary.label, x: Self.padding, y: y + 32 + size, size: 12, fill: colors.strip.svg,
                        maxWidth: maxWidth)
        }
        return y + height + 8
    }

    /// One row of fields in columns as wide as their text needs (shared out when the row is crowded), labels
    /// above values, values shrunk to fit their column; every label of the row at one size (the largest at which
    /// each fits its column), as Wallet draws them; returns the row's bottom.
    func drawRow(_ row: [FieldText], on canvas: inout SVGCanvas, y: Double, right: Double, labelSize: Double,
                 valueSize: Double) -> Double {
        let gap = 10.0
        let available = right - Self.padding - gap * Double(row.count - 1)
        let natural = row.map { max(TextMetrics.width($0.label, size: labelSize), TextMetrics.width($0.value, size: valueSize), 24) }
        let total = natural.reduce(0, +)
        // Spare room is shared equally; a crowded row shrinks every column in proportion to its text.
        let widths = total <= available
            ? natural.map { $0 + (available - total) / Double(row.count) }
            : natural.map { $0 * available / total }
        let labelFit = zip(row, widths).map { field, width in
            TextMetrics.fittingSize(field.label, maxWidth: width, size: labelSize, minimum: 7)
        }.min() ?? labelSize
        var left = Self.padding
        for (index, field) in row.enumerated() {
            let width = widths[index]
            let place = field.anchor(left: left, right: left + width, isLast: index == row.count - 1, isOnly: row.count == 1)
            let size = TextMetrics.fittingSize(field.value, maxWidth: width, size: valueSize, minimum: 8)
            canvas.text(field.label, x: place.x, y: y + labelSize + 3, size: labelFit, fill: colors.label.svg,
                        anchor: place.anchor, maxWidth: width)
            canvas.text(field.value, x: place.x, y: y + labelSize + 5 + valueSize, size: size,
                        fill: colors.foreground.svg, anchor: place.anchor, maxWidth: width)
            left += width + gap
        }
        return y + labelSize + valueSize + 17
    }

    func fit(_ image: PreviewResources.Image, maxWidth: Double, maxHeight: Double) -> (width: Double, height: Double) {
        let scale = min(1, maxWidth / image.width, maxHeight / image.height)
        return (image.width * scale, image.height * scale)
    }
}
