public import Foundation

/// RFC 3339 date-times (`2026-12-31T23:00:00Z`, `2026-12-31T23:00:00.5+01:00`), as the issuer API reads and writes them.
public enum RFC3339 {
    /// Reads a date-time with a time zone (`Z` or an offset), with or without a fraction of a second: exactly RFC
    /// 3339's `date-time` (section 5.6), a day that exists in its month (no 30 February, no 24:00), an offset with its
    /// colon; `nil` for anything else, rather than a date rolled over into another.
    public static func date(_ text: String) -> Date? {
        guard isWellFormed(text) else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let plain = Date.ISO8601FormatStyle()
        let normalized = text.replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "z", with: "Z")
        return (try? plain.parse(normalized)) ?? (try? withFraction.parse(normalized))
    }

    /// Reads a date-time given in a URL's query: as ``date(_:)``, and also with a space where its offset's `+` was
    /// (`2026-12-31T23:00:00 01:00`): a query decoded as HTML forms and `URLSearchParams` write it reads `+` as a
    /// space, and a `+01:00` typed into a URL unencoded arrives that way.
    public static func queryDate(_ text: String) -> Date? {
        if let date = date(text) { return date }
        let bytes = Array(text.utf8)
        guard bytes.count > 6, bytes[bytes.count - 6] == UInt8(ascii: " ") else { return nil }
        return date(String(decoding: bytes[..<(bytes.count - 6)] + Array("+".utf8) + bytes[(bytes.count - 5)...], as: UTF8.self))
    }

    /// Whether `text` is `YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)` (`t` and `z` in either case) with every
    /// part in its range: months 01-12, days up to the month's last (29 February in leap years only), hours 00-23,
    /// minutes 00-59, seconds 00-59, offsets up to 23:59.
    static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...days[month - 1]).contains(day), hour < 24, minute < 60, second < 60
        else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        if expect("Zz") { return index == bytes.count }
        guard expect("+-"), let offsetHours = number(2), expect(":"), let offsetMinutes = number(2) else { return false }
        return offsetHours < 24 && offsetMinutes < 60 && index == bytes.count
    }

    /// In UTC, to the second.
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
    }

    /// In UTC with milliseconds, as events and campaigns show times.
    public static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
