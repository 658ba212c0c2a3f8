import Foundation
import PassModel
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test func parsesEveryKind() throws {
        let text = #"{"s":"a\"b\\c\n\u00e9\ud83d\ude00","i":-42,"d":37.6189722,"e":2.5e-1,"t":true,"f":false,"n":null,"a":[1,[]],"o":{}}"#
        let value = try JSONValue(jsonData: Data(text.utf8))
        #expect(value["s"] == .string("a\"b\\c\né😀"))
        #expect(value["i"] == .integer(-42))
        #expect(value["d"] == .number(37.6189722))
        #expect(value["e"] == .number(0.25))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["a"] == [1, []])
        #expect(value["o"] == .object([:]))
    }

    @Test func integersRoundTripExactly() throws {
        let text = #"{"big":9007199254740993,"id":1234567890123}"#
        let value = try JSONValue(jsonData: Data(text.utf8))
        #expect(value["big"] == .integer(9_007_199_254_740_993))
        let written = String(decoding: try value.jsonData(sortedKeys: true, prettyPrinted: false), as: UTF8.self)
        #expect(written == text)
    }

    @Test func writesSortedPrettyJSON() throws {
        let value: JSONValue = ["b": 1, "a": ["x/y", 2.5], "c": [:]]
        let text = String(decoding: try value.jsonData(), as: UTF8.self)
        // Foundation's pretty format: "key" : value, two-space indent, empty containers opened and closed on two lines.
        #expect(text == "{\n  \"a\" : [\n    \"x/y\",\n    2.5\n  ],\n  \"b\" : 1,\n  \"c\" : {\n\n  }\n}")
    }

    @Test func escapesControlCharacters() throws {
        let value: JSONValue = ["k": "tab\there\u{01}"]
        let text = String(decoding: try value.jsonData(prettyPrinted: false), as: UTF8.self)
        #expect(text == #"{"k":"tab\there\u0001"}"#)
        #expect(try JSONValue(jsonData: Data(text.utf8)) == value)
    }

    @Test(arguments: [
        ("{\"a\":1,,}", "line 1, column 8"),
        ("{\n  \"a\" 1\n}", "line 2, column 7: Invalid value"),
        ("[01]", "leading zero"),
        ("", "line 1, column 1: Unexpected end of file"),
        ("{\n\"a\":", "line 2, column 5: Unexpected end of file"),
        ("{\"a\":1} x", "line 1, column 9"),
        ("\"\\x\"", "Invalid escape"),
    ])
    func reportsErrorsWithPosition(text: String, fragment: String) {
        #expect {
            try JSONValue(jsonData: Data(text.utf8))
        } throws: { error in
            (error as? PassModelError)?.code == .invalidJSON && "\(error)".contains(fragment)
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: PassModelError.self) {
            try JSONValue(jsonData: Data([0x22, 0xFF, 0x22]))
        }
    }

    @Test func wholeNumbersAreIntegers() throws {
        // Foundation reads a number with a whole value as Int; only other numbers stay Double.
        let value = try JSONValue(jsonData: Data(#"[1e3, 2.0, 9007199254740993, 1e20, -0.5]"#.utf8))
        #expect(value == [.integer(1000), .integer(2), .integer(9_007_199_254_740_993), .number(1e20), .number(-0.5)])
        let text = String(decoding: try JSONValue.array([.number(2), .number(0.1), .integer(3)]).jsonData(), as: UTF8.self)
        #expect(text == "[\n  2,\n  0.1,\n  3\n]")
    }

    @Test func booleansAndNumbersStayApart() throws {
        let text = Data("[true, 1, 0, false, 1.0]".utf8)
        let expected: JSONValue = [.bool(true), .integer(1), .integer(0), .bool(false), .integer(1)]
        #expect(try JSONValue(jsonData: text) == expected)
        #expect(try JSONDecoder().decode(JSONValue.self, from: text) == expected)
        #expect(String(decoding: try expected.jsonData(prettyPrinted: false), as: UTF8.self) == "[true,1,0,false,1]")
    }

    @Test func nonFiniteNumbersAreNotWritten() {
        #expect { try JSONValue.object(["x": [.number(.nan)]]).jsonData() } throws: { error in
            (error as? PassModelError)?.code == .invalidJSON && "\(error)".contains("x[0]")
        }
    }

    @Test func codableThroughFoundation() throws {
        let value: JSONValue = ["n": 3, "d": 0.5, "s": "x", "b": true, "z": nil, "a": [1, "2"]]
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == value)
    }
}
