/// Days of the proleptic Gregorian calendar counted from 1970-01-01, with Howard Hinnant's days-from-civil
/// algorithms: the day arithmetic behind HTTP dates and `pass.json`'s W3C dates, without `Calendar`.
public enum GregorianDay {
    /// The number of days from 1970-01-01 to a date (negative before it).
    /// - Parameters:
    ///   - year: The year (proleptic Gregorian; 0 is 1 BC).
    ///   - month: 1 to 12.
    ///   - day: 1 to 31; not checked against the month's length.
    /// - Returns: Days since 1970-01-01.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date a number of days after 1970-01-01 falls on.
    /// - Parameter days: Days since 1970-01-01 (negative before it).
    /// - Returns: The year, month (1 to 12) and day of the month.
    public static func date(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}
