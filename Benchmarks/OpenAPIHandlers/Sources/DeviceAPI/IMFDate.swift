import Foundation

/// HTTP dates in IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form Wallet sends and the server writes.
///
/// The main package's `Timestamps` module is not one of its products, so this benchmark keeps its own copy of the
/// two conversions the measured routes need, with the same arithmetic (the obsolete RFC 850 and asctime forms the
/// server also accepts are left out: the load scripts never send them).
enum IMFDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date to the second (fractions dropped), in GMT.
    static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - dayNumber * 86_400)
        let (year, month, day) = civil(daysSinceEpoch: dayNumber)
        let weekday = weekdays[Int(((dayNumber % 7) + 7) % 7)]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// The moment an IMF-fixdate names, or `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", parts[0].count == 4, parts[0].hasSuffix(","),
              weekdays.contains(String(parts[0].dropLast())), parts[1].count == 2, let day = Int(parts[1]),
              let monthIndex = months.firstIndex(of: String(parts[2])), parts[3].count == 4, let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]), let minute = Int(clock[1]),
              let second = Int(clock[2]), (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
              (1...31).contains(day)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)))
    }

    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's days-from-civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let shifted = Int64(month <= 2 ? year - 1 : year)
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day number (civil-from-days).
    private static func civil(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}
