import Foundation
import PassModel

/// Turns a field's value into the text Wallet shows: dates by `dateStyle`/`timeStyle` (in the device's time zone, or
/// the value's own with `ignoresTimeZone`; relative with `isRelative` when within a week), numbers by `numberStyle`
/// or as an amount of `currencyCode`, strings looked up in the language's `pass.strings`.
struct FieldFormatter: Sendable {
    let locale: Locale
    let configuration: PassPreviewRenderer.Configuration
    let strings: [String: String]

    init(language: String?, configuration: PassPreviewRenderer.Configuration, strings: [String: String]) {
        locale = Locale(identifier: language ?? "en")
        self.configuration = configuration
        self.strings = strings
    }

    /// The localized string for `key`, or `key` itself.
    func localized(_ key: String) -> String { strings[key] ?? key }

    /// The field's label, localized (empty when there is none).
    func label(_ field: PassField) -> String { field.label.map(localized) ?? "" }

    /// The field's value as shown; back fields prefer `attributedValue` with its HTML tags removed.
    func value(_ field: PassField, back: Bool = false) -> String {
        if back, case .string(let html)? = field.attributedValue { return Self.strippingTags(localized(html)) }
        switch field.value {
        case .string(let string)?:
            if field.dateStyle != nil || field.timeStyle != nil || field.isRelative == true,
               let date = W3CDate.date(from: string) {
                return format(date: date, written: string, field: field)
            }
            return localized(string)
        case .integer(let integer)?: return format(number: Double(integer), isInteger: true, field: field)
        case .number(let number)?: return format(number: number, isInteger: false, field: field)
        case nil: return ""
        }
    }

    func format(date: Date, written: String, field: PassField) -> String {
        if field.isRelative == true, abs(date.timeIntervalSince(configuration.now)) < 7 * 86_400 {
            // The anchor is the date shown; `format` is given the moment it is seen from.
            var relative = Date.AnchoredRelativeFormatStyle(anchor: date, presentation: .named, unitsStyle: .wide)
            relative.locale = locale
            return relative.format(configuration.now)
        }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = Self.style(field.dateStyle)
        formatter.timeStyle = Self.style(field.timeStyle)
        if formatter.dateStyle == .none && formatter.timeStyle == .none { formatter.dateStyle = .medium }
        formatter.timeZone = field.ignoresTimeZone == true
            ? Self.writtenTimeZone(written) ?? configuration.timeZone : configuration.timeZone
        return formatter.string(from: date)
    }

    /// A W3C date from `semantics`, in the given time zone (an airport's), else the device's.
    /// - Returns: The formatted date, or `nil` when `written` is not a W3C date.
    func format(semantic written: String?, date: DateFormatter.Style, time: DateFormatter.Style,
                timeZone: TimeZone? = nil) -> String? {
        guard let written, let moment = W3CDate.date(from: written) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = date
        formatter.timeStyle = time
        formatter.timeZone = timeZone ?? configuration.timeZone
        return formatter.string(from: moment)
    }

    func format(number: Double, isInteger: Bool, field: PassField) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        if let currency = field.currencyCode, !currency.isEmpty {
            formatter.numberStyle = .currency
            formatter.currencyCode = currency
        } else {
            switch field.numberStyle {
            case .decimal?: formatter.numberStyle = .decimal
            case .percent?: formatter.numberStyle = .percent
            case .scientific?: formatter.numberStyle = .scientific
            case .spellOut?: formatter.numberStyle = .spellOut
            default:
                return isInteger ? String(Int(number)) : Self.plain(number)
            }
        }
        return formatter.string(from: NSNumber(value: number)) ?? Self.plain(number)
    }

    static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    static func style(_ style: PassDateStyle?) -> DateFormatter.Style {
        switch style {
        case .short?: .short
        case .medium?: .medium
        case .long?: .long
        case .full?: .full
        default: .none
        }
    }

    /// The offset written at the end of a W3C date (`Z`, `+01:00`, `-0800`), as a time zone.
    static func writtenTimeZone(_ written: String) -> TimeZone? {
        if written.hasSuffix("Z") { return TimeZone(secondsFromGMT: 0) }
        guard let timeStart = written.firstIndex(of: "T"),
              let sign = written[timeStart...].lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = written[written.index(after: sign)...].filter(\.isNumber)
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)) else { return nil }
        let seconds = (hours * 3600 + minutes * 60) * (written[sign] == "-" ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds)
    }

    /// `attributedValue` text without its `<a href>` (or any other) tags.
    static func strippingTags(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        return text
    }
}
