public import Foundation

/// A data document applied to a ``PassTemplate``: values for one pass.
///
/// As JSON, a data document is an object. Its `fields` member maps field keys to new values; every
/// other member replaces the top-level `pass.json` key of the same name:
///
/// ```json
/// {
///   "serialNumber": "E-1042",
///   "barcodeMessage": "E-1042:7f3a",
///   "relevantDate": "2026-05-07T19:30-05:00",
///   "fields": { "seat": "14C", "gate": 7, "doors": "2026-05-07T18:30-05:00" }
/// }
/// ```
///
/// `barcodeMessage` is a convenience: rather than replacing the whole `barcodes` array, it sets the
/// `message` of every barcode (and of the legacy `barcode`) of the template. `barcodeAltText` sets the
/// text shown under every barcode (`null` or `""` removes it). When `barcodeMessage` is given without
/// `barcodeAltText`, a barcode whose `altText` equalled the template's message shows the new message, and any
/// other `altText` is removed: it was written for the template's own message, so it would print a placeholder
/// under a barcode that encodes something else. An override whose value is `null` removes that key from the pass.
public struct PassData: Sendable, Equatable {
    /// Top-level keys replacing the template's `pass.json` keys (`serialNumber`, `barcodes`,
    /// `relevantDate`, `webServiceURL`, `authenticationToken`, colours, ...), plus `barcodeMessage`.
    public var overrides: [String: JSONValue]
    /// Field key → new value (a string, number or W3C date string), set in whichever field group of the
    /// template's style holds that key.
    public var fields: [String: JSONValue]

    /// The override key that sets the message of every barcode.
    public static let barcodeMessageKey = "barcodeMessage"
    /// The override key that sets the `altText` of every barcode.
    public static let barcodeAltTextKey = "barcodeAltText"
    /// The override keys that are not `pass.json` keys but change the barcodes.
    public static let barcodeKeys: Set<String> = [barcodeMessageKey, barcodeAltTextKey]

    /// Creates a data document.
    /// - Parameters:
    ///   - overrides: Top-level keys to replace.
    ///   - fields: Field values by field key.
    public init(overrides: [String: JSONValue] = [:], fields: [String: JSONValue] = [:]) {
        self.overrides = overrides
        self.fields = fields
    }

    /// Parses a data document.
    /// - Parameter jsonData: A JSON object; its `fields` member (an object) gives field values and every
    ///   other member is an override.
    /// - Throws: ``PassModelError`` `invalidJSON` for malformed JSON; `invalidData` when the document or
    ///   its `fields` member is not an object, or a key appears twice in one object.
    public init(jsonData: Data) throws {
        let json = try JSONValue(jsonData: jsonData)
        // A key written twice would lose one of its values without a word (JSON readers keep one).
        if let duplicate = JSONDuplicateKeys.find(in: jsonData).first {
            throw PassModelError(.invalidData, "\"\(duplicate.path)\" \(duplicate.message)")
        }
        guard case .object(var members) = json else {
            throw PassModelError(.invalidData, "data document must be a JSON object, found \(json.kindName)")
        }
        var fields: [String: JSONValue] = [:]
        if let value = members.removeValue(forKey: "fields") {
            guard case .object(let map) = value else {
                throw PassModelError(
                    .invalidData,
                    "\"fields\" in the data document must be an object of field key to value, found \(value.kindName)"
                )
            }
            fields = map
        }
        self.init(overrides: members, fields: fields)
    }

    /// The document as JSON: the overrides plus a `fields` object when there are field values.
    public var json: JSONValue {
        var members = overrides
        if !fields.isEmpty { members["fields"] = .object(fields) }
        return .object(members)
    }
}
