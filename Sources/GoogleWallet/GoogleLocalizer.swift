import Foundation
import PassModel

/// A template's `.lproj` strings as Google's `LocalizedString`s: the default language's text as `defaultValue`,
/// every other language's as `translatedValues`.
struct GoogleLocalizer: Sendable {
    /// Language → strings table.
    let tables: [String: [String: String]]
    /// The language of `defaultValue`: English when the template has it, else its first language, else `en`.
    let defaultLanguage: String

    init(files: [String: Data]) {
        var tables: [String: [String: String]] = [:]
        for (path, data) in files where path.hasSuffix(".lproj/pass.strings") {
            let language = String(path.dropLast(".lproj/pass.strings".count))
            guard !language.contains("/"), let strings = try? StringsFile(data: data, fileName: path) else { continue }
            tables[language] = strings.entries
        }
        self.tables = tables
        defaultLanguage = tables["en"] != nil ? "en" : (tables.keys.sorted().first ?? "en")
    }

    /// The text in the default language.
    func text(_ raw: String) -> String { tables[defaultLanguage]?[raw] ?? raw }

    /// Google's `LocalizedString` for a text that may be a strings key.
    func localized(_ raw: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "defaultValue": .object(["language": .string(defaultLanguage), "value": .string(text(raw))]),
        ]
        let translations = translations(raw)
        if !translations.isEmpty { members["translatedValues"] = .array(translations) }
        return .object(members)
    }

    /// Whether a text is translated into another language than the default one.
    func isTranslated(_ raw: String) -> Bool { !translations(raw).isEmpty }

    private func translations(_ raw: String) -> [JSONValue] {
        tables.keys.sorted().compactMap { language -> JSONValue? in
            guard language != defaultLanguage, let value = tables[language]?[raw] else { return nil }
            return .object(["language": .string(language), "value": .string(value)])
        }
    }

    /// A field's value as it reads on the pass: dates and times in the field's own offset, numbers and amounts,
    /// texts translated.
    func display(_ field: PassField) -> String {
        guard let value = field.value else { return "" }
        if let text = value.stringValue {
            if field.dateStyle != nil || field.timeStyle != nil, let date = W3CDate.date(from: text) {
                return format(date: date, written: text, field: field)
            }
            return self.text(text)
        }
        guard let number = value.json.doubleValue else { return value.description }
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: defaultLanguage)
        if let currency = field.currencyCode {
            formatter.numberStyle = .currency
            formatter.currencyCode = currency
        } else if field.numberStyle?.rawValue == "PKNumberStylePercent" {
            formatter.numberStyle = .percent
        } else {
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 6
        }
        return formatter.string(from: NSNumber(value: number)) ?? value.description
    }

    private func format(date: Date, written: String, field: PassField) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: defaultLanguage)
        formatter.dateStyle = style(field.dateStyle)
        formatter.timeStyle = style(field.timeStyle)
        formatter.timeZone = Self.offset(of: written) ?? TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    private func style(_ style: PassDateStyle?) -> DateFormatter.Style {
        switch style?.rawValue {
        case "PKDateStyleShort": return .short
        case "PKDateStyleMedium": return .medium
        case "PKDateStyleLong": return .long
        case "PKDateStyleFull": return .full
        default: return .none
        }
    }

    /// The offset a W3C date was written with (`-08:00`, `Z`), so a time reads as it does at the venue.
    static func offset(of written: String) -> TimeZone? {
        if written.hasSuffix("Z") { return TimeZone(secondsFromGMT: 0) }
        guard written.count >= 6 else { return nil }
        let tail = written.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", tail.dropFirst(3).first == ":",
              let hours = Int(tail.dropFirst().prefix(2)), let minutes = Int(tail.suffix(2)) else { return nil }
        let seconds = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds)
    }

    /// A W3C date as Google's local date-time without offset (`2026-12-05T08:00:00`), as flights' local times are.
    static func localDateTime(_ written: String) -> String? {
        guard let date = W3CDate.date(from: written), let zone = offset(of: written) ?? TimeZone(secondsFromGMT: 0) else {
            return nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// A W3C date as ISO 8601 with its offset (`2026-12-05T19:30:00-08:00`), as Google's date-times are.
    static func isoDateTime(_ written: String) -> String? {
        guard let date = W3CDate.date(from: written) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = offset(of: written) ?? TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date)
    }
}
