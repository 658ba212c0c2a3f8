import Foundation

extension PassValidator {
    /// Reports `xx.lproj/pass.strings` files that do not parse, and checks that each localisation key the
    /// pass uses is translated in every language folder.
    func checkLocalization(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        for (path, reason) in files.stringsErrors {
            context.error(path, reason)
        }
        guard !files.strings.isEmpty else { return }
        let languages = files.languages.sorted()
        var reported: Set<String> = []
        for (path, text) in Self.localizableStrings(in: pass) where files.stringsKeys.contains(text) {
            for language in languages {
                guard files.strings[language]?.entries[text] == nil, reported.insert("\(language)\u{0}\(text)").inserted
                else { continue }
                let file = "\(language).lproj/pass.strings"
                if files.strings[language] == nil {
                    context.warning(file, "missing file: key \"\(text)\" (used by \(path)) is not translated")
                } else {
                    context.warning(file, "missing key \"\(text)\" (used by \(path))")
                }
            }
        }
    }

    /// Every string Wallet looks up in `pass.strings`, with its JSON path.
    static func localizableStrings(in pass: Pass) -> [(path: String, text: String)] {
        var result: [(String, String)] = []
        for case let (key, value?) in [
            ("description", pass.description), ("organizationName", pass.organizationName),
            ("logoText", pass.logoText), ("eventLogoText", pass.eventLogoText),
        ] {
            result.append((key, value))
        }
        for style in pass.styles {
            guard let fields = pass[style: style] else { continue }
            for (group, list) in fields.groups {
                for (index, field) in list.enumerated() {
                    let path = "\(style.rawValue).\(group)[\(index)]"
                    if let label = field.label { result.append(("\(path).label", label)) }
                    if let value = field.value?.stringValue { result.append(("\(path).value", value)) }
                    if let value = field.attributedValue?.stringValue { result.append(("\(path).attributedValue", value)) }
                    if let message = field.changeMessage { result.append(("\(path).changeMessage", message)) }
                }
            }
        }
        for (index, barcode) in (pass.barcodes ?? []).enumerated() {
            if let text = barcode.altText { result.append(("barcodes[\(index)].altText", text)) }
        }
        if let text = pass.barcode?.altText { result.append(("barcode.altText", text)) }
        for (index, location) in (pass.locations ?? []).enumerated() {
            if let text = location.relevantText { result.append(("locations[\(index)].relevantText", text)) }
        }
        for (index, beacon) in (pass.beacons ?? []).enumerated() {
            if let text = beacon.relevantText { result.append(("beacons[\(index)].relevantText", text)) }
        }
        return result
    }
}
