public import Foundation
import Timestamps

/// Reads the W3C date-time strings that `pass.json` uses: `2026-05-07T10:30-05:00`,
/// `2026-05-07T10:30:00Z`, `2026-05-07T10:30:00.250+01:00`.
///
/// A date and a time with hours and minutes are required; seconds and fractions are optional; the
/// time zone is required and written `Z` or `±HH:MM` (with the colon).
public enum W3CDate {
    /// Parses a W3C date-time string.
    /// - Parameter string: The string from `pass.json`.
    /// - Returns: The moment it names, or `nil` if it is not a valid W3C date-time with a zone.
    public static func date(from string: String) -> Date? {
        try? parse(string)
    }

    /// Explains why a string is not a valid W3C date-time.
    /// - Parameter string: The string from `pass.json`.
    /// - Returns: A plain reason, or `nil` when the string is valid.
    public static func problem(with string: String) -> String? {
        do {
            _ = try parse(string)
            return nil
        } catch {
            return error.reason
        }
    }

    struct Failure: Error {
        let reason: String
    }

    static func parse(_ string: String) throws(Failure) -> Date {
        let chars = Array(string.utf8)
        var index = 0
        func number(_ digits: Int, _ what: String) throws(Failure) -> Int {
            guard index + digits <= chars.count else { throw Failure(reason: "\(what) is missing") }
            var value = 0
            for offset in 0..<digits {
                let byte = chars[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { throw Failure(reason: "\(what) must be \(digits) digits") }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ byte: UInt8, _ reason: String) throws(Failure) {
            guard index < chars.count, chars[index] == byte else { throw Failure(reason: reason) }
            index += 1
        }
        let expected = "expected a W3C date such as 2026-05-07T10:30-05:00"
        let year = try number(4, "year")
        try expect(UInt8(ascii: "-"), expected)
        let month = try number(2, "month")
        try expect(UInt8(ascii: "-"), expected)
        let day = try number(2, "day")
        guard index < chars.count else { throw Failure(reason: "time and time zone are missing (\(expected))") }
        try expect(UInt8(ascii: "T"), "date and time must be separated by 'T' (\(expected))")
        let hour = try number(2, "hour")
        try expect(UInt8(ascii: ":"), expected)
        let minute = try number(2, "minute")
        var second = 0
        var fraction = 0.0
        if index < chars.count, chars[index] == UInt8(ascii: ":") {
            index += 1
            second = try number(2, "seconds")
            if index < chars.count, chars[index] == UInt8(ascii: ".") {
                index += 1
                var scale = 0.1
                let start = index
                while index < chars.count, chars[index] >= 0x30, chars[index] <= 0x39 {
                    fraction += Double(chars[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { throw Failure(reason: "fraction of a second needs digits") }
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60 else {
            throw Failure(reason: "date or time is out of range")
        }
        guard index < chars.count else {
            throw Failure(reason: "time zone is missing; add Z or an offset such as -05:00")
        }
        var offsetSeconds = 0
        switch chars[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = chars[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            let offsetHours = try number(2, "time zone hours")
            guard index < chars.count, chars[index] == UInt8(ascii: ":") else {
                throw Failure(reason: "time zone offset must be written ±HH:MM, with a colon")
            }
            index += 1
            let offsetMinutes = try number(2, "time zone minutes")
            guard offsetHours <= 23, offsetMinutes <= 59 else { throw Failure(reason: "time zone offset is out of range") }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            throw Failure(reason: "time zone must be Z or an offset such as -05:00")
        }
        guard index == chars.count else { throw Failure(reason: "unexpected text after the time zone") }

        if let utc = try gregorianDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second) {
            return utc.addingTimeInterval(fraction - Double(offsetSeconds))
        }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let utc = calendar.date(from: components),
            calendar.component(.day, from: utc) == day
        else { throw Failure(reason: "\(year)-\(month)-\(day) is not a calendar date") }
        return utc.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    /// The UTC moment of a date and time in the Gregorian calendar, computed without `Calendar`, or `nil`
    /// when `Calendar` must decide: years before 1583 (where Foundation's calendar is Julian) or after 9999.
    ///
    /// Throws the same failure as the `Calendar` check for a day the month does not have, or for
    /// 23:59:60 (which `Calendar` moves to the next day).
    static func gregorianDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws(Failure)
        -> Date?
    {
        guard (1583...9999).contains(year) else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLength: Int
        switch month {
        case 2: monthLength = isLeap ? 29 : 28
        case 4, 6, 9, 11: monthLength = 30
        default: monthLength = 31
        }
        guard day <= monthLength, !(hour == 23 && minute == 59 && second == 60) else {
            throw Failure(reason: "\(year)-\(month)-\(day) is not a calendar date")
        }
        let days = Int(GregorianDay.daysSinceEpoch(year: year, month: month, day: day))
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
