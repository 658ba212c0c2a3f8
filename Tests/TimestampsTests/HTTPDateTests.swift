import Foundation
import Testing
import Timestamps

@Suite("HTTP dates and Gregorian days")
struct HTTPDateTests {
    /// RFC 9110's example moment, 1994-11-06 08:49:37 UTC.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func writesIMFFixdateInGMT() {
        #expect(HTTPDate.format(example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_825_599.75)) == "Tue, 29 Feb 2000 11:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func readsTheThreeFormsRecipientsAccept(_ text: String) {
        #expect(HTTPDate.parse(text) == example)
    }

    @Test(arguments: ["", "soon", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 6 Nov 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"])
    func refusesAnythingElse(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func daysRoundTripAcrossEras() {
        #expect(GregorianDay.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(GregorianDay.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(GregorianDay.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = GregorianDay.date(daysSinceEpoch: days)
            #expect(GregorianDay.daysSinceEpoch(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(GregorianDay.date(daysSinceEpoch: 11_016) == (2000, 2, 29))
    }
}
