import Foundation
import PassModel
import Testing

/// Wallet shows a field's `attributedValue` in place of its `value`: a pass's own value must not be hidden behind the
/// template's.
@Suite("A pass's field value and the template's attributedValue")
struct AttributedValueTests {
    static let template = """
        {"formatVersion": 1, "passTypeIdentifier": "pass.com.example.test", "serialNumber": "TEMPLATE",
         "teamIdentifier": "A1B2C3D4E5", "organizationName": "Example", "description": "Ticket",
         "generic": {"primaryFields": [{"key": "name", "label": "Name", "value": "Holder"}],
                     "backFields": [{"key": "link", "label": "Ticket",
                                     "value": "https://example.com/t/TEMPLATE",
                                     "attributedValue": "<a href='https://example.com/t/TEMPLATE'>Open</a>"},
                                    {"key": "terms", "label": "Terms", "value": "Terms",
                                     "attributedValue": "<a href='https://example.com/terms'>Terms</a>"}]}}
        """

    static func backFields(_ json: Data) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let generic = try #require(object["generic"] as? [String: Any])
        return try #require(generic["backFields"] as? [[String: Any]])
    }

    @Test("A value from the data replaces the field's attributedValue too; fields the data leaves keep theirs",
          arguments: [JSONValue.string("https://example.com/t/A1"), JSONValue.number(42)])
    func dataValueWins(value: JSONValue) throws {
        let template = try PassTemplate(name: "linked", passJSON: Data(Self.template.utf8))
        let data = PassData(overrides: ["serialNumber": "A1"], fields: ["link": value])
        let typed = try template.pass(applying: data)
        let encoded = try JSONEncoder().encode(typed)
        for json in [try template.passJSON(applying: data), encoded] {
            let fields = try Self.backFields(json)
            let link = try #require(fields.first { $0["key"] as? String == "link" })
            #expect(link["attributedValue"] == nil, "\(link)")
            #expect(link["value"] != nil)
            let terms = try #require(fields.first { $0["key"] as? String == "terms" })
            #expect(terms["attributedValue"] as? String == "<a href='https://example.com/terms'>Terms</a>")
        }
    }
}
