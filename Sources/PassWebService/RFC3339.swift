public import Foundation

/// RFC 3339 date-times (`2026-12-31T23:00:00Z`, `2026-12-31T23:00:00.5+01:00`), as the issuer API reads and writes them.
public enum RFC3339 {
    /// Reads a date-time with a time zone (`Z` or an offset), with or without a fraction of a second.
    public static func date(_ text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let plain = Date.ISO8601FormatStyle()
        let normalized = text.replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "z", with: "Z")
        return (try? plain.parse(normalized)) ?? (try? withFraction.parse(normalized))
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
