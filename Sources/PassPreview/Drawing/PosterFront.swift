import Foundation
import PassModel

/// The front of a poster event ticket (iOS 18 and later) or a poster generic pass (iOS 27 and later): the artwork
/// full-bleed across the top (`artwork.png`, else `background.png`), darkened under the header unless
/// `suppressHeaderDarkening`, the primary logo (else the logo) with `eventLogoText` (else `logoText`), then over the
/// artwork's foot the event (name, date, venue from `semantics`) or the poster's primary fields, and below it the
/// footer in `footerBackgroundColor`: the seat or the poster's footer fields, and the barcode.
struct PosterFront {
    let pass: Pass
    let isEvent: Bool
    let colors: CardColors
    let resources: PreviewResources
    let formatter: FieldFormatter
    let barcode: BarcodePanel?
    let language: String?

    func draw(on canvas: inout SVGCanvas) -> Double {
        let width = FrontSide.width, padding = FrontSide.padding
        let semantics = SemanticValues(pass.semantics)
        // The validator sets no field limits on posterGeneric, so every field is drawn.
        let fields = isEvent ? PassFields() : pass.posterGeneric ?? PassFields()
        canvas.raw("<g data-layout=\"\(isEvent ? "posterEventTicket" : "posterGeneric")\">\n")
        canvas.raw("<defs><linearGradient id=\"poster-header\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
            + "<stop offset=\"0\" stop-color=\"#000000\" stop-opacity=\"0.55\"/>"
            + "<stop offset=\"1\" stop-color=\"#000000\" stop-opacity=\"0\"/></linearGradient>"
            + "<linearGradient id=\"poster-foot\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
            + "<stop offset=\"0\" stop-color=\"\(colors.background.svg)\" stop-opacity=\"0\"/>"
            + "<stop offset=\"1\" stop-color=\"\(colors.background.svg)\" stop-opacity=\"0.9\"/></linearGradient></defs>\n")
        var artworkHeight = 400.0
        if let artwork = resources[image: "artwork"] ?? resources[image: "background"] {
            artworkHeight = min(420, max(240, artwork.height * width / artwork.width))
            canvas.image(artwork.uri, x: 0, y: 0, width: width, height: artworkHeight, aspect: "xMidYMid slice",
                         attributes: "data-role=\"artwork\"")
        }
        if pass.suppressHeaderDarkening != true {
            canvas.rect(x: 0, y: 0, width: width, height: 90, fill: "url(#poster-header)",
                        attributes: "data-role=\"header-darkening\"")
        }
        drawHeader(fields, on: &canvas)

        // The foot of the artwork: the event, or the poster's primary fields, over a wash of the pass colour.
        canvas.rect(x: 0, y: artworkHeight - 130, width: width, height: 130, fill: "url(#poster-foot)")
        let maxWidth = width - 2 * padding
        var lines: [(text: String, size: Double, bold: Bool, label: Bool)] = []
        if isEvent {
            lines.append((semantics.string("eventName") ?? "", 26, true, false))
            let date = formatter.format(semantic: semantics.string("eventStartDate"), date: .medium, time: .short)
            lines.append((date ?? "", 14, false, false))
            lines.append(([semantics.string("venueName"), semantics.string("venueRoom")].compactMap { $0 }
                .joined(separator: " · "), 13, false, true))
        } else {
            for (index, field) in (fields.primaryFields ?? []).enumerated() {
                let text = FieldText(field, formatter: formatter)
                if index > 0, !text.label.isEmpty { lines.append((text.label, 11, false, true)) }
                lines.append((text.value, index == 0 ? 26 : 16, index == 0, false))
            }
        }
        var y = artworkHeight - 14 - lines.map { $0.size + 6 }.reduce(0, +)
        for line in lines {
            y += line.size + 6
            let size = TextMetrics.fittingSize(line.text, maxWidth: maxWidth, size: line.size, minimum: 10, bold: line.bold)
            canvas.text(line.text, x: padding, y: y, size: size,
                        fill: line.label ? colors.label.svg : colors.foreground.svg, bold: line.bold, maxWidth: maxWidth)
        }

        // The footer: its own colour, the seat or footer fields, the barcode.
        let footerColor = PassColor(pass.footerBackgroundColor) ?? colors.background
        var footer: [FieldText] = []
        if isEvent {
            let seat = semantics.firstSeat
            for (word, key) in [("Section", "seatSection"), ("Row", "seatRow"), ("Seat", "seatNumber")] {
                if let value = seat[key] { footer.append(FieldText(label: WalletLabels.text(word, language: language), value: value)) }
            }
            if footer.isEmpty, let level = semantics.string("admissionLevel") { footer.append(FieldText(label: "", value: level)) }
        } else {
            footer = (fields.footerFields ?? []).map { FieldText($0, formatter: formatter) }
        }
        let footerTop = artworkHeight
        let rowsHeight = footer.isEmpty ? 0.0 : 44
        let barcodeHeight = barcode.map { $0.height + 20 } ?? 0
        let height = footerTop + 12 + rowsHeight + barcodeHeight + 8
        canvas.rect(x: 0, y: footerTop, width: width, height: height - footerTop, fill: footerColor.svg,
                    attributes: "data-role=\"footer\"")
        if !footer.isEmpty {
            let front = FrontSide(pass: pass, fields: PassFields(), colors: colors, resources: resources,
                                  formatter: formatter, barcode: nil)
            _ = front.drawRow(footer, on: &canvas, y: footerTop + 6, right: width - padding, labelSize: 10, valueSize: 15)
        }
        canvas.raw("</g>\n")
        barcode?.draw(on: &canvas, centerX: width / 2, y: footerTop + 12 + rowsHeight)
        return height
    }

    /// The primary logo (else the logo) and the event logo text top left; a poster generic pass's header fields
    /// top right.
    private func drawHeader(_ fields: PassFields, on canvas: inout SVGCanvas) {
        let padding = FrontSide.padding
        var headerLeft = FrontSide.width - padding
        for header in (fields.headerFields ?? []).map({ FieldText($0, formatter: formatter) }).reversed() {
            let columnWidth = min(110, max(TextMetrics.width(header.label, size: 10), TextMetrics.width(header.value, size: 15)))
            canvas.text(header.label, x: headerLeft, y: 22, size: 10, fill: colors.label.svg, anchor: "end", maxWidth: columnWidth)
            canvas.text(header.value, x: headerLeft, y: 40, size: 15, fill: colors.foreground.svg, anchor: "end",
                        maxWidth: columnWidth)
            headerLeft -= columnWidth + 12
        }
        var x = padding
        if let logo = resources[image: "primaryLogo"] ?? resources[image: "logo"] {
            let scale = min(1, 126 / logo.width, 30 / logo.height)
            canvas.image(logo.uri, x: x, y: 12, width: logo.width * scale, height: logo.height * scale,
                         aspect: "xMinYMid meet", attributes: "data-role=\"primary-logo\"")
            x += logo.width * scale + 8
        }
        let text = (isEvent ? pass.eventLogoText ?? pass.logoText : pass.logoText).map(formatter.localized)
        if let text {
            canvas.text(text, x: x, y: 33, size: 15, fill: colors.foreground.svg, bold: true,
                        maxWidth: max(20, headerLeft - x))
        }
    }
}
