import Foundation
import HummingbirdCore
import PassModel
@testable import PassWebService
@testable import TesseraHTTP
import Testing

@Suite("CSV cells and form-encoded query parameters")
struct CSVAndFormQueryTests {
    @Test("a value with CRLF, CR or LF is quoted, and a formula after a line break or combining mark is defused")
    func lineBreaksAreQuoted() {
        #expect(ItemListResponse.csvLine(["Row 1\r\n=HYPERLINK(\"http://x\")", "b"])
                == "\"Row 1\r\n=HYPERLINK(\"\"http://x\"\")\",b\r\n")
        #expect(ItemListResponse.csvLine(["a\rb", "a\nb"]) == "\"a\rb\",\"a\nb\"\r\n")
        // A cell that starts with a line break (CRLF is one Character) gets its quote mark, and is quoted.
        #expect(ItemListResponse.csvLine(["\r\n=1+1"]) == "\"'\r\n=1+1\"\r\n")
        #expect(ItemListResponse.csvLine(["\n=1+1"]) == "\"'\n=1+1\"\r\n")
        // `=` followed by a combining acute accent is one Character, but a spreadsheet reads the `=`.
        #expect(ItemListResponse.csvLine(["=\u{301}1+1"]) == "'=\u{301}1+1\r\n")
        #expect(ItemListResponse.csvLine(["-2.5", "-1+1", "plain"]) == "-2.5,'-1+1,plain\r\n")
    }

    @Test("+ is a space, names and values are percent-decoded, a malformed escape is kept as sent")
    func formDecoding() {
        let query = URI("/api/v1/passes?field.caf%C3%A9=Row+A&section=B%2BC&empty=&bare&bad=%ZZ+x").formQueryParameters
        #expect(query["field.café"] == "Row A")
        #expect(query["section"] == "B+C")
        #expect(query["empty"] == "" && query.has("bare"))
        #expect(query["bad"] == "%ZZ x")
        #expect(URI("/api/v1/passes").formQueryParameters.isEmpty)
    }

    @Test("a query's date-time may carry its offset's + as a space, as form encoding leaves it")
    func queryDates() {
        let expected = RFC3339.date("2026-12-31T23:00:00+01:00")
        #expect(expected != nil)
        #expect(RFC3339.queryDate("2026-12-31T23:00:00 01:00") == expected)
        #expect(RFC3339.queryDate("2026-12-31T23:00:00.5 01:00") == RFC3339.date("2026-12-31T23:00:00.5+01:00"))
        #expect(RFC3339.queryDate("2026-12-31T23:00:00Z") == RFC3339.date("2026-12-31T23:00:00Z"))
        #expect(RFC3339.queryDate("2026-12-31 23:00:00Z") == nil)
        #expect(RFC3339.queryDate("2026-12-31T23:00:00 1:00") == nil)
        #expect(RFC3339.date("2026-12-31T23:00:00 01:00") == nil, "bodies keep RFC 3339 exactly")
    }
}

@Suite("Field filters of a search compare numbers exactly")
struct FieldFilterValueTests {
    @Test("whole numbers past 2^53 are told apart; hex, inf and nan are not numbers; decimals still match")
    func numbers() {
        #expect(!PassIssuer.sameValue(.integer(12_345_678_901_234_567), "12345678901234568"))
        #expect(PassIssuer.sameValue(.integer(12_345_678_901_234_567), "12345678901234567"))
        #expect(!PassIssuer.sameValue(.integer(16), "0x10"))
        #expect(!PassIssuer.sameValue(.number(.infinity), "inf"))
        #expect(PassIssuer.sameValue(.integer(12), "12.0"))
        #expect(PassIssuer.sameValue(.number(25.5), "25.5"))
        #expect(PassIssuer.sameValue(.string("0x10"), "0x10"))
    }
}
