import Foundation
import PassModel
import PassStore

/// A pass's data document: checked, merged with a change, bounded, and read; and the field keys of a template's pass.
extension PassIssuer {
    /// The most a pass's stored data document may hold, its own images in base64 included. Each request is limited
    /// (8 MiB by default), and changes merge into the data, so images added one change after another would otherwise
    /// grow it without end, read whole by every rebuild, listing page and campaign batch.
    public static let maximumDataSize = 16 << 20

    /// Refuses data that grows past ``maximumDataSize`` (422 naming `data`). A pass already past it (stored before
    /// the bound) may still be changed by what does not make it larger: an image removed, a void.
    static func checkDataSize(_ data: Data, was previous: Data) throws {
        guard data.count > maximumDataSize, data.count > previous.count else { return }
        throw IssuerError.invalidData("""
            data: the pass's data would be \(data.count) bytes with this change, more than \(maximumDataSize) \
            (16 MiB): remove images it no longer needs (an image set to null) before adding others
            """)
    }

    /// A partial data document merged into a pass's data, as a change merges it: top-level keys replace (a `null`
    /// value removes the key), `fields` values merge by field key and `images` by file name (`null` removes one).
    static func merging(_ patch: [String: JSONValue], into document: [String: JSONValue]) -> [String: JSONValue] {
        // JSONValue is ExpressibleByNilLiteral: `dictionary[key] = nil` would store `.null`, so removals are spelled
        // out with removeValue.
        var document = document
        for (key, value) in patch {
            if key == "fields" || key == "images", case .object(let given) = value {
                var merged = document[key]?.objectValue ?? [:]
                for (name, entry) in given {
                    if entry.isNull {
                        // The pass's own value or image is removed, so the template's is used again.
                        merged.removeValue(forKey: name)
                    } else {
                        merged[name] = entry
                    }
                }
                // An empty object where there was none (`{"fields": {"promo": null}}` on a pass that sets no field)
                // adds nothing: the data stays as it was, so no new version and no push.
                if merged.isEmpty && (key == "images" || document[key] == nil) {
                    document.removeValue(forKey: key)
                } else {
                    document[key] = .object(merged)
                }
            } else {
                // A top-level `null` is kept: applied to the template, it removes the template's key from the pass.
                document[key] = value
            }
        }
        return document
    }

    /// Refuses keys with control characters anywhere in a data document, and text with control characters other than
    /// tab and line breaks (NUL, BEL, ESC, ...): they would land in the signed pass.json or order.json. Barcode
    /// messages keep theirs but NUL, which PostgreSQL's text cannot store (GS1 data separates elements with GS, U+001D).
    static func checkData(_ members: [String: JSONValue], path: String, checkingText: Bool = true) throws {
        for (key, value) in members {
            let escaped = LogRedactor.escapeControlCharacters(key)
            if key.isEmpty || key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw IssuerError.invalidData("\(path).\(escaped): a key must be non-empty text without control characters")
            }
            let barcode = path == "data" && ["barcodeMessage", "barcode", "barcodes"].contains(key)
            try check(value, path: "\(path).\(escaped)", checkingText: checkingText && !barcode)
        }
    }

    private static func check(_ value: JSONValue, path: String, checkingText: Bool) throws {
        switch value {
        case .string(let text) where !checkingText && text.unicodeScalars.contains("\u{0}"):
            throw IssuerError.invalidData("\(path): text cannot hold U+0000 (NUL)")
        case .string(let text) where checkingText:
            if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !"\t\n\r".unicodeScalars.contains($0) }) {
                throw IssuerError.invalidData("\(path): text without control characters (tab and line breaks are allowed)")
            }
        case .object(let inner):
            try checkData(inner, path: path, checkingText: checkingText)
        case .array(let items):
            for (index, item) in items.enumerated() { try check(item, path: "\(path)[\(index)]", checkingText: checkingText) }
        default:
            break
        }
    }

    /// Every field of `pass`, whichever its style.
    static func fields(of pass: Pass) -> [PassField] {
        [pass.boardingPass, pass.coupon, pass.eventTicket, pass.generic, pass.storeCard].compactMap { $0 }.flatMap(\.allFields)
    }

    static func fieldKeys(of pass: Pass) -> [String] {
        fields(of: pass).compactMap(\.key)
    }

    /// The keys of `pass`'s fields whose value is a number: a number in the template, or a field with a number style
    /// or a currency (which Wallet applies to numbers only).
    static func numericFieldKeys(of pass: Pass) -> [String] {
        fields(of: pass).compactMap { field in
            switch field.value {
            case .integer, .number: return field.key
            default: return field.numberStyle != nil || field.currencyCode != nil ? field.key : nil
            }
        }
    }

    static func document(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONValue(jsonData: data) else {
            throw PassStoreError.invalidData("pass data is not a JSON object")
        }
        return members
    }
}
