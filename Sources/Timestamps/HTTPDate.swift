public import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) written, and the three forms a
/// recipient accepts read: `Last-Modified` and `If-Modified-Since` on the device endpoints, `Retry-After` from APNs.
public enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats a date as IMF-fixdate, to the second (fractions dropped), in GMT.
    /// - Parameter date: The moment.
    /// - Returns: Such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - dayNumber * 86_400)
        let (year, month, day) = GregorianDay.date(daysSinceEpoch: dayNumber)
        let weekday = days[Int(((dayNumber % 7) + 7) % 7)]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Parses the three forms RFC 9110 §5.6.7 says a recipient accepts: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`).
    /// - Parameter text: The header value.
    /// - Returns: The moment, or `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        if parts.count == 4, parts[3] == "GMT", parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())) {
            return parseRFC850(date: parts[1], time: parts[2])
        }
        if parts.count == 5, days.contains(String(parts[0])) {
            // asctime: the day is space-padded ("Nov  6"), which split() has already absorbed.
            guard parts[2].count <= 2, let day = Int(parts[2]), let monthIndex = months.firstIndex(of: String(parts[1])),
                  parts[4].count == 4, let year = Int(parts[4])
            else { return nil }
            return make(year: year, month: monthIndex + 1, day: day, time: parts[3])
        }
        guard parts.count == 6, parts[5] == "GMT", parts[0].count == 4, parts[0].hasSuffix(","),
              let day = Int(parts[1]), parts[1].count == 2,
              let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        return make(year: year, month: monthIndex + 1, day: day, time: parts[4])
    }

    /// `06-Nov-94` and `08:49:37`; a two-digit year is taken in 1970-2069.
    private static func parseRFC850(date: Substring, time: Substring) -> Date? {
        let pieces = date.split(separator: "-")
        guard pieces.count == 3, pieces[0].count == 2, let day = Int(pieces[0]),
              let monthIndex = months.firstIndex(of: String(pieces[1])), pieces[2].count == 2, let short = Int(pieces[2])
        else { return nil }
        return make(year: short < 70 ? 2000 + short : 1900 + short, month: monthIndex + 1, day: day, time: time)
    }

    private static func make(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let clock = time.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = GregorianDay.daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)))
    }
}
