import Foundation
import PassModel

/// The front of a semantic boarding pass (iOS 26 and later), drawn from `semantics`: airline and flight, the date,
/// departure and destination airport codes with their cities, departure and arrival times in each airport's time
/// zone, gate, terminal, boarding time, group and seat, the passenger, then the footer image and the barcode.
struct SemanticBoardingFront {
    let pass: Pass
    let colors: CardColors
    let resources: PreviewResources
    let formatter: FieldFormatter
    let barcode: BarcodePanel?
    let language: String?

    func draw(on canvas: inout SVGCanvas) -> Double {
        let semantics = SemanticValues(pass.semantics)
        let padding = FrontSide.padding, width = FrontSide.width
        canvas.raw("<g data-layout=\"semanticBoardingPass\">\n")
        var x = padding
        if let logo = resources[image: "logo"] {
            let scale = min(1, 100 / logo.width, 30 / logo.height)
            canvas.image(logo.uri, x: x, y: 10, width: logo.width * scale, height: logo.height * scale,
                         aspect: "xMinYMid meet")
            x += logo.width * scale + 8
        }
        let flight = semantics.string("flightCode")
            ?? [semantics.string("airlineCode"), semantics.string("flightNumber")].compactMap { $0 }.joined(separator: " ")
        canvas.text(flight, x: x, y: 31, size: 16, fill: colors.foreground.svg, bold: true, maxWidth: 150)
        let departureZone = semantics.string("departureAirportTimeZone").flatMap(TimeZone.init(identifier:))
        let arrivalZone = semantics.string("destinationAirportTimeZone").flatMap(TimeZone.init(identifier:))
        let departure = semantics.string("originalDepartureDate")
        if let day = formatter.format(semantic: departure, date: .medium, time: .none, timeZone: departureZone) {
            canvas.text(day, x: width - padding, y: 31, size: 13, fill: colors.label.svg, anchor: "end", maxWidth: 120)
        }

        // Airport codes large at either side, the plane between them, the cities under the codes.
        let half = width / 2 - padding - 24
        let ends = [("departure", "start", padding, departureZone, departure, "Departs"),
                    ("destination", "end", width - padding, arrivalZone, semantics.string("originalArrivalDate"), "Arrives")]
        for (prefix, anchor, edge, zone, date, word) in ends {
            canvas.text(semantics.string("\(prefix)AirportCode") ?? "", x: edge, y: 100, size: 40,
                        fill: colors.foreground.svg, bold: true, anchor: anchor, maxWidth: half)
            canvas.text(semantics.string("\(prefix)CityName") ?? semantics.string("\(prefix)AirportName") ?? "",
                        x: edge, y: 118, size: 12, fill: colors.label.svg, anchor: anchor, maxWidth: half)
            canvas.text(WalletLabels.text(word, language: language), x: edge, y: 142, size: 10,
                        fill: colors.label.svg, anchor: anchor, maxWidth: half)
            let time = formatter.format(semantic: date, date: .none, time: .short, timeZone: zone) ?? ""
            canvas.text(time, x: edge, y: 162, size: 17, fill: colors.foreground.svg, anchor: anchor, maxWidth: half)
        }
        TransitGlyph.draw(.air, on: &canvas, x: width / 2, y: 86, size: 28, fill: colors.label.svg)

        let seat = semantics.firstSeat
        let details: [(String, String?)] = [
            ("Gate", semantics.string("departureGate")), ("Terminal", semantics.string("departureTerminal")),
            ("Boards", formatter.format(semantic: semantics.string("originalBoardingDate"), date: .none, time: .short,
                                        timeZone: departureZone)),
            ("Group", semantics.string("boardingGroup") ?? semantics.string("boardingZone")),
            ("Seat", seat["seatNumber"] ?? [seat["seatRow"], seat["seatLetter"]].compactMap { $0 }.joined()),
        ]
        let row = details.compactMap { word, value -> FieldText? in
            guard let value, !value.isEmpty else { return nil }
            return FieldText(label: WalletLabels.text(word, language: language), value: value)
        }
        let front = FrontSide(pass: pass, fields: PassFields(), colors: colors, resources: resources,
                              formatter: formatter, barcode: barcode)
        var y = 176.0
        if !row.isEmpty { y = front.drawRow(row, on: &canvas, y: y, right: width - padding, labelSize: 10, valueSize: 15) }
        if let passenger = semantics.passengerName {
            y = front.drawRow([FieldText(label: WalletLabels.text("Passenger", language: language), value: passenger)],
                              on: &canvas, y: y, right: width - padding, labelSize: 10, valueSize: 15)
        }
        if let footer = resources[image: "footer"] {
            let size = front.fit(footer, maxWidth: width - 2 * padding, maxHeight: 15)
            canvas.image(footer.uri, x: (width - size.width) / 2, y: y + 6, width: size.width, height: size.height)
            y += size.height + 12
        }
        canvas.raw("</g>\n")
        guard let barcode else { return max(y + padding, 300) }
        let height = max(y + 10 + barcode.height + 14, 410)
        barcode.draw(on: &canvas, centerX: width / 2, y: height - barcode.height - 14)
        return height
    }
}
