import Foundation
import OrderModel
import PaymentRequest

/// How the order preview words the values of `order.json`: statuses, money, dates and addresses.
enum OrderText {
    /// A status value as a phrase: `onTheWay` → "On the way", `readyForPickup` → "Ready for pickup".
    static func status(_ value: String) -> String {
        var words: [String] = []
        var word = ""
        for character in value {
            if character.isUppercase, !word.isEmpty {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        let phrase = words.map { $0.lowercased() }.joined(separator: " ")
        return phrase.prefix(1).uppercased() + phrase.dropFirst()
    }

    /// An amount with exactly its currency's digits (`USD 25.00`, `JPY 1200`, `KWD 3.500`); an amount that is not
    /// decimal text, or a currency ISO 4217 does not list, is shown as written.
    static func money(_ value: OrderCurrencyAmount) -> String {
        let code = value.currency ?? ""
        guard let decimal = value.decimal, let currency = Currency(code: code) else {
            return [code, value.amount ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        }
        var source = decimal
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, currency.minorUnits, .plain)
        return "\(currency.code) \(AmountString.format(rounded, fractionDigits: currency.minorUnits))"
    }

    /// An RFC 3339 date-time, with or without fractional seconds.
    static func instant(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// A date as Wallet writes it in English: "May 11, 2026 at 5:00 PM".
    static func date(_ date: Date, timeZone: TimeZone) -> String {
        formatter(timeZone: timeZone, dateStyle: .medium).string(from: date)
    }

    /// A pickup window: its start, and its end when `duration` is an ISO 8601 duration of hours and minutes
    /// (`PT2H30M`): "May 11, 2026 at 5:00 PM – 7:30 PM".
    static func window(start: Date, duration: String?, timeZone: TimeZone) -> String {
        let from = date(start, timeZone: timeZone)
        guard let seconds = duration.flatMap(Self.seconds), seconds > 0 else { return "from \(from)" }
        let end = start.addingTimeInterval(seconds)
        let sameDay = Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: start).day
            == Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: end).day && seconds < 86_400
        let until = sameDay ? formatter(timeZone: timeZone, dateStyle: .none).string(from: end)
            : date(end, timeZone: timeZone)
        return "\(from) – \(until)"
    }

    /// The lines of an address: street lines, then locality, area and postal code, then the country code.
    static func address(_ address: OrderAddress) -> [String] {
        let city = [address.locality, address.administrativeArea, address.postalCode].compactMap { $0 }
            .joined(separator: " ")
        return (address.addressLines ?? []) + [city, address.countryCode ?? ""].filter { !$0.isEmpty }
    }

    /// Seconds in `PTnHnMnS` (days as `PnD` too); `nil` for anything else.
    static func seconds(_ duration: String) -> TimeInterval? {
        guard duration.hasPrefix("P") else { return nil }
        var total = 0.0
        var number = ""
        var inTime = false
        for character in duration.dropFirst() {
            if character == "T" { inTime = true; continue }
            if character.isNumber || character == "." { number.append(character); continue }
            guard let value = Double(number) else { return nil }
            number = ""
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        return number.isEmpty ? total : nil
    }

    private static func formatter(timeZone: TimeZone, dateStyle: DateFormatter.Style) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateStyle = dateStyle
        formatter.timeStyle = .short
        return formatter
    }
}
