import Foundation
import PassWebService
import Testing

/// The issuer API's date-times (`scheduledAt`, `from`, `to`, `updatedSince`): RFC 3339's `date-time` exactly, and a
/// date that does not exist is refused rather than rolled over into the next month.
@Suite("RFC 3339 date-times")
struct RFC3339Tests {
    @Test("date-times with Z or an offset, with or without a fraction, in either letter case")
    func accepted() throws {
        let cases: [(String, TimeInterval)] = [
            ("2026-12-31T23:00:00Z", 1_798_758_000),
            ("2026-12-31t23:00:00z", 1_798_758_000),
            ("2027-01-01T00:30:00+01:30", 1_798_758_000),
            ("2026-12-31T22:00:00-01:00", 1_798_758_000),
            ("2026-12-31T23:00:00.500Z", 1_798_758_000.5),
            ("2028-02-29T12:00:00Z", 1_835_438_400),
        ]
        for (text, seconds) in cases {
            let date = try #require(RFC3339.date(text), "\(text)")
            #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001, "\(text): \(date.timeIntervalSince1970)")
        }
    }

    @Test("dates that do not exist, out-of-range times and other shapes are refused")
    func refused() {
        for text in [
            "2026-02-30T00:00:00Z", "2026-11-31T00:00:00Z", "2027-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-12-00T00:00:00Z", "2026-11-30T24:00:00Z",
            "2026-11-30T23:60:00Z", "2026-11-30T23:59:60Z", "2026-11-30T23:00:00+0530", "2026-11-30T23:00:00+24:00",
            "2026-11-30T23:00:00", "2026-11-30 23:00:00Z", "10000-01-01T00:00:00Z", "2026-11-30T23:00:00.Z",
            "2026-11-30T23:00Z", "2026-11-30", "", "2026-11-30T23:00:00Zjunk", "２０２６-11-30T23:00:00Z",
        ] {
            #expect(RFC3339.date(text) == nil, "\(text)")
        }
    }
}
