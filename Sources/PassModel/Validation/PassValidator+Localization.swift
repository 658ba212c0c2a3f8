import Foundation

extension PassValidator {
    /// Reports `xx.lproj/pass.strings` files that do not parse, and checks that each localisation key the
    /// pass uses is translated in every language folder.
    func checkLocalization(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        checkChangeMessages(pass, files: files, context: &context)
        for (path, reason) in files.stringsErrors {
            context.error(path, reason)
        }
        for language in files.sortedLanguages {
            for repeated in files.strings[language]?.repeatedKeys ?? [] {
                context.warning("\(language).lproj/pass.strings", repeated.warning)
            }
        }
        // A key translated in every language folder gives no warning, so only the others are looked for.
        guard !files.strings.isEmpty, !files.partiallyTranslatedKeys.isEmpty else { return }
        // A language whose pass.strings does not parse has its error above; every key it has would otherwise be
        // reported missing too, also those on the lines before the fault.
        let unreadable = Set(files.stringsErrors.map { String($0.path.prefix { $0 != "." }) })
        let languages = files.sortedLanguages.filter { !unreadable.contains($0) }
        var reported: Set<String> = []
        for (path, text) in Self.localizableStrings(in: pass, where: files.partiallyTranslatedKeys.contains) {
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

    /// A `changeMessage` must contain `%@` where Wallet puts the new value. When it is a localization key, each
    /// language's translation must contain it instead (Wallet shows the translation).
    func checkChangeMessages(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        let placeholder = "must contain %@ where the new value goes"
        // The style's fields, and a poster pass's own (iOS 26 and later show them instead).
        let layouts = pass.styles.compactMap { style in pass[style: style].map { (style.rawValue, $0) } }
            + (pass.posterGeneric.map { [("posterGeneric", $0)] } ?? [])
        for (name, fields) in layouts {
            for (group, list) in fields.groups {
                for (index, field) in list.enumerated() {
                    guard let message = field.changeMessage else { continue }
                    let path = { "\(name).\(group)[\(index)].changeMessage" }
                    guard files.stringsKeys.contains(message) else {
                        if !Self.containsPlaceholder(message) { context.warning(path(), placeholder) }
                        continue
                    }
                    for language in files.languagesLackingPlaceholder[message] ?? [] {
                        context.warning("\(language).lproj/pass.strings",
                                        "\"\(message)\" (the changeMessage of \(path())) \(placeholder)")
                    }
                }
            }
        }
    }

    /// Whether `text` contains `%@`; ASCII text is searched byte by byte, other text as before with
    /// Foundation's `contains`, which compares whole characters.
    static func containsPlaceholder(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.contains("%@") }
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == UInt8(ascii: "%"), byte == UInt8(ascii: "@") { return true }
            previous = byte
        }
        return false
    }

    /// Every string Wallet looks up in `pass.strings` that passes `include`, with its JSON path (built
    /// only for the strings included: most passes have many strings and few translated keys).
    static func localizableStrings(
        in pass: Pass,
        where include: (String) -> Bool = { _ in true }
    ) -> [(path: String, text: String)] {
        var result: [(String, String)] = []
        func add(_ text: String?, _ path: @autoclosure () -> String) {
            if let text, include(text) { result.append((path(), text)) }
        }
        for case let (key, value?) in [
            ("description", pass.description), ("organizationName", pass.organizationName),
            ("logoText", pass.logoText), ("eventLogoText", pass.eventLogoText),
        ] {
            add(value, key)
        }
        for style in pass.styles {
            guard let fields = pass[style: style] else { continue }
            for (group, list) in fields.groups {
                for (index, field) in list.enumerated() {
                    let path = { (member: String) in "\(style.rawValue).\(group)[\(index)].\(member)" }
                    add(field.label, path("label"))
                    add(field.value?.stringValue, path("value"))
                    add(field.attributedValue?.stringValue, path("attributedValue"))
                    add(field.changeMessage, path("changeMessage"))
                }
            }
        }
        for (index, barcode) in (pass.barcodes ?? []).enumerated() {
            add(barcode.altText, "barcodes[\(index)].altText")
        }
        add(pass.barcode?.altText, "barcode.altText")
        for (index, location) in (pass.locations ?? []).enumerated() {
            add(location.relevantText, "locations[\(index)].relevantText")
        }
        for (index, beacon) in (pass.beacons ?? []).enumerated() {
            add(beacon.relevantText, "beacons[\(index)].relevantText")
        }
        for (index, entry) in (pass.upcomingPassInformation ?? []).enumerated() {
            add(entry.name, "upcomingPassInformation[\(index)].name")
            for (group, list) in [("additionalInfoFields", entry.additionalInfoFields), ("backFields", entry.backFields)] {
                for (fieldIndex, field) in (list ?? []).enumerated() {
                    let path = { (member: String) in "upcomingPassInformation[\(index)].\(group)[\(fieldIndex)].\(member)" }
                    add(field.label, path("label"))
                    add(field.value?.stringValue, path("value"))
                    add(field.attributedValue?.stringValue, path("attributedValue"))
                }
            }
        }
        return result
    }
}
