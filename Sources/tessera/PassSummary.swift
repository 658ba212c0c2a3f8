import PassModel

/// A plain-text summary of a pass for `tessera pass inspect`.
struct PassSummary {
    var pass: Pass

    var text: String {
        var lines: [String] = []
        lines.append("\(pass.description ?? "(no description)") — \(pass.organizationName ?? "(no organization)")")
        lines.append("Style:        \(pass.style?.rawValue ?? "(none or several)")")
        lines.append("Serial:       \(pass.serialNumber ?? "-")")
        lines.append("Pass Type ID: \(pass.passTypeIdentifier ?? "-")   Team: \(pass.teamIdentifier ?? "-")")
        if let relevantDate = pass.relevantDate { lines.append("Relevant:     \(relevantDate)") }
        for relevant in pass.relevantDates ?? [] {
            if let date = relevant.date {
                lines.append("Relevant:     \(date)")
            } else {
                lines.append("Relevant:     \(relevant.startDate ?? "?") to \(relevant.endDate ?? "?")")
            }
        }
        if let schemes = pass.preferredStyleSchemes, !schemes.isEmpty {
            lines.append("Styles:       \(schemes.joined(separator: ", ")) (preferred, in order)")
        }
        if let expirationDate = pass.expirationDate { lines.append("Expires:      \(expirationDate)") }
        if pass.voided == true { lines.append("VOIDED") }
        if let url = pass.webServiceURL { lines.append("Web service:  \(url)") }
        let colours = [("background", pass.backgroundColor), ("foreground", pass.foregroundColor), ("label", pass.labelColor)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        if !colours.isEmpty { lines.append("Colours:      \(colours.joined(separator: ", "))") }
        if let fields = pass.fieldsOfStyle {
            for group in fields.groups where !group.fields.isEmpty {
                lines.append("\(group.name):")
                for field in group.fields {
                    let label = field.label.map { "\($0): " } ?? ""
                    lines.append("  [\(field.key ?? "?")] \(label)\(field.value.map { "\($0)" } ?? "")")
                }
            }
        }
        for barcode in pass.barcodes ?? pass.barcode.map({ [$0] }) ?? [] {
            let format = barcode.format.map { "\($0)" } ?? "?"
            lines.append("Barcode:      \(format) \"\(barcode.message ?? "")\"" + (barcode.altText.map { " (\($0))" } ?? ""))
        }
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }
}
