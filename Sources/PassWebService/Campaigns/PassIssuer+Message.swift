import Foundation
public import PassModel

extension PassIssuer {
    /// The data document key whose text Wallet shows on the lock screen when a version changes it: the pass gets a
    /// back field (key `campaignMessage`, no label) holding the text, with the `changeMessage` `%@`, so a device that
    /// updates to a version with another text notifies its holder with the text itself. Campaigns set it from their
    /// `message`; a `PATCH` may set it too. An empty text leaves the field out.
    public static let messageKey = "campaignMessage"

    /// Adds the message back field to the pass's style in `overrides` (the style as the data overrides it, or the
    /// template's), replacing an earlier message field.
    static func applyMessage(_ value: JSONValue, to overrides: inout [String: JSONValue], template pass: Pass) throws {
        guard case .string(let text) = value else {
            throw IssuerError.invalidData("data.\(messageKey): must be text, found \(value.kindName)")
        }
        guard !text.isEmpty, let style = pass.style else { return }
        var fields: [String: JSONValue]
        if case .object(let given)? = overrides[style.rawValue] {
            fields = given
        } else if let templateFields = pass[style: style] {
            fields = try JSONValue(jsonData: JSONEncoder().encode(templateFields)).objectValue ?? [:]
        } else {
            return
        }
        var back = fields["backFields"]?.arrayValue ?? []
        back.removeAll { $0.objectValue?["key"]?.stringValue == messageKey }
        back.append(.object([
            "key": .string(messageKey), "value": .string(text), "changeMessage": .string("%@"),
        ]))
        fields["backFields"] = .array(back)
        overrides[style.rawValue] = .object(fields)
    }
}
