import Foundation
import PassModel
import Testing

/// `PassTemplate.passJSON(for:)` reuses the template's encoded members; it must give the same JSON as
/// encoding the whole pass with `JSONEncoder`.
@Suite("Template-cached pass.json encoding")
struct PassJSONEncodingTests {
    /// `JSONEncoder` with the fast path's formatting: compact, keys sorted, slashes unescaped.
    static let compactEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Checks that the cached encoding of `pass` is the same JSON value as its full encoding.
    static func expectSameJSON(_ template: PassTemplate, _ pass: Pass, _ comment: String) throws {
        let fast = try template.passJSON(for: pass)
        let full = try pass.jsonData()
        let fastObject = try JSONSerialization.jsonObject(with: fast) as? NSDictionary
        let fullObject = try JSONSerialization.jsonObject(with: full) as? NSDictionary
        #expect(fastObject != nil && fastObject == fullObject, "\(comment)")
        #expect(try JSONValue(jsonData: fast) == JSONValue(jsonData: full), "\(comment)")
        #expect(try Pass(jsonData: fast) == Pass(jsonData: full), "\(comment)")
        #if os(Linux)
        // Linux's JSONEncoder sorts keys in `String` order, as the fast path does, so even the bytes agree.
        #expect(fast == (try compactEncoder.encode(pass)), "\(comment)")
        #endif
    }

    @Test func equalsFullEncodingForEveryTemplateAndDocument() throws {
        var compared = 0
        let templates = try TypedApplyingTests.templates()
        for template in templates {
            for data in TypedApplyingTests.documents(for: template) {
                guard let pass = try? template.pass(applying: data) else { continue }
                try Self.expectSameJSON(template, pass, "\(template.name): \(data)")
                compared += 1
            }
            // A pass that shares nothing with the template is encoded in full.
            for other in templates {
                try Self.expectSameJSON(template, other.pass, "\(template.name) encoding \(other.name)")
            }
        }
        #expect(compared > 150)
    }

    @Test func reEncodesChangedFieldsGroupsAndUnknownKeys() throws {
        let json = """
            {"formatVersion": 1, "description": "d", "serialNumber": "1", "custom": {"a": [1, "x/y"]},
             "eventTicket": {"primaryFields": [{"key": "a", "value": "A", "extra": true}],
                             "backFields": [{"key": "b", "value": 2.5}, {"key": "c", "value": "C"}], "styleExtra": 1}}
            """
        let template = try PassTemplate(name: "unknown-keys", passJSON: Data(json.utf8))
        var passes: [Pass] = [template.pass]
        var pass = template.pass
        pass.eventTicket?.backFields?[1].value = .string("new")
        passes.append(pass)
        pass.eventTicket?.backFields?.append(PassField(key: "d", value: .integer(4)))
        pass.eventTicket?.headerFields = [PassField(key: "h", value: .number(-0.5))]
        passes.append(pass)
        pass.eventTicket?.unknownKeys["styleExtra"] = .string("changed")
        pass.eventTicket?.unknownKeys["newStyleKey"] = .null
        pass.eventTicket?.transitType = .air
        passes.append(pass)
        pass.unknownKeys["custom"] = .array([.integer(2)])
        pass.unknownKeys["Another"] = .bool(true)
        pass.unknownKeys["serialNumber"] = .string("ignored: the typed key wins")
        passes.append(pass)
        pass.eventTicket = nil
        pass.generic = PassFields(primaryFields: [PassField(key: "g", value: .string("G"))])
        passes.append(pass)
        for (index, pass) in passes.enumerated() {
            try Self.expectSameJSON(template, pass, "pass \(index)")
        }
    }

    @Test func reportsUnencodableNumbersLikeTheFullEncoding() throws {
        let template = try PassTemplate(name: "numbers", passJSON: Data(#"{"formatVersion": 1, "maxDistance": 5}"#.utf8))
        var pass = template.pass
        pass.maxDistance = .nan
        let fast = #expect(throws: PassModelError.self) { try template.passJSON(for: pass) }
        let full = #expect(throws: PassModelError.self) { try pass.jsonData() }
        #expect(fast == full)
    }
}

/// The arithmetic date path, the colour and placeholder shortcuts the validator takes.
@Suite("Validator shortcuts")
struct ValidatorShortcutTests {
    @Test func w3cDatesMatchTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        for (year, month, day) in [(1583, 1, 1), (1600, 2, 29), (1970, 1, 1), (2024, 2, 29), (2026, 12, 31), (9999, 12, 31)] {
            let text = String(format: "%04d-%02d-%02dT10:30:15-05:00", year, month, day)
            let components = DateComponents(year: year, month: month, day: day, hour: 15, minute: 30, second: 15)
            #expect(W3CDate.date(from: text) == calendar.date(from: components), "\(text)")
        }
        #expect(W3CDate.date(from: "2026-05-07T10:30:60Z") == W3CDate.date(from: "2026-05-07T10:31:00Z"))
        for invalid in ["2023-02-29T10:00Z", "2100-02-29T10:00Z", "2026-04-31T10:00Z", "2026-12-31T23:59:60Z"] {
            #expect(W3CDate.problem(with: invalid)?.hasSuffix("is not a calendar date") == true, "\(invalid)")
        }
        // Before 1583 the calendar decides (Foundation's Gregorian calendar is Julian before October 1582).
        #expect(W3CDate.date(from: "1582-10-04T00:00Z") != nil)
    }

    @Test func coloursAreCheckedAsBefore() {
        let valid = ["rgb(0,0,0)", "rgb( 255 , 10,\t3 )", "rgb(01,002,0003)", " rgb(1, 2, 3) ", "rgb(+1, 2, 3)"]
        let invalid = ["rgb(256,0,0)", "rgb(1,2)", "rgb(1,,2)", "rgb(1 2,3,4)", "RGB(1,2,3)", "rgb(1,2,3", "rgb(١,2,3)"]
        for color in valid + invalid {
            var pass = Pass(description: "d", organizationName: "o", passTypeIdentifier: "pass.x", serialNumber: "1",
                            teamIdentifier: "ABCDE12345")
            pass.backgroundColor = color
            let issues = PassValidator().validate(pass: pass, files: [:]).issues(at: "backgroundColor")
            #expect(issues.isEmpty == valid.contains(color), "\(color): \(issues)")
        }
    }

    @Test func changeMessagesNeedThePlaceholder() {
        for (message, hasPlaceholder) in [("now %@", true), ("now %d", false), ("é %@", true), ("%\u{301}@", false)] {
            var pass = Pass(description: "d", organizationName: "o", passTypeIdentifier: "pass.x", serialNumber: "1",
                            teamIdentifier: "ABCDE12345")
            var field = PassField(key: "k", value: .string("v"))
            field.changeMessage = message
            pass.generic = PassFields(primaryFields: [field])
            let issues = PassValidator().validate(pass: pass, files: [:]).issues(at: "generic.primaryFields[0].changeMessage")
            #expect(issues.isEmpty == hasPlaceholder, "\(message)")
        }
    }
}
