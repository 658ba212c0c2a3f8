public import Foundation

/// Where each field key sits in a template's `pass.json`, computed once per template.
struct FieldIndex: Sendable {
    struct Location: Sendable {
        var style: String
        var group: String
        var index: Int
        /// Whether the field formats its value as a date (so a new value must be a W3C date).
        var isDate: Bool
    }

    var locations: [String: [Location]] = [:]

    init(root: [String: JSONValue]) {
        for style in PassStyle.allCases {
            guard case .object(let groups)? = root[style.rawValue] else { continue }
            for group in PassFields.groupNames {
                guard case .array(let fields)? = groups[group] else { continue }
                for (index, field) in fields.enumerated() {
                    guard case .object(let members) = field, case .string(let key)? = members["key"] else { continue }
                    let isDate = ["dateStyle", "timeStyle"].contains { name in
                        if case .string(let style)? = members[name] { return style != PassDateStyle.none.rawValue }
                        return false
                    }
                    locations[key, default: []].append(
                        Location(style: style.rawValue, group: group, index: index, isDate: isDate)
                    )
                }
            }
        }
    }
}

extension PassTemplate {
    /// Applies a data document and returns the `pass.json` bytes to put in the bundle.
    ///
    /// Works on the JSON tree parsed when the template was loaded and encodes it once with `JSONEncoder`
    /// (pretty-printed, sorted keys, slashes unescaped), so it is cheap enough to call for every pass. Without data (or with an empty
    /// document) the template's own bytes are returned unchanged.
    /// - Parameter data: The data document, or `nil`.
    /// - Returns: The merged `pass.json`.
    /// - Throws: ``PassModelError``: `unknownField` naming a field key the template lacks; `invalidData`
    ///   naming an override or field whose value has the wrong type.
    public func passJSON(applying data: PassData?) throws -> Data {
        guard let data, !data.overrides.isEmpty || !data.fields.isEmpty else { return passJSON }
        return try JSONValue.object(merged(with: data)).jsonData()
    }

    /// Applies a data document and decodes the result.
    /// - Parameter data: The data document, or `nil`.
    /// - Returns: The merged pass.
    /// - Throws: ``PassModelError`` as for ``passJSON(applying:)``.
    public func pass(applying data: PassData?) throws -> Pass {
        guard let data, !data.overrides.isEmpty || !data.fields.isEmpty else { return pass }
        return try Pass(json: .object(merged(with: data)))
    }

    /// The template's tree with the overrides and field values applied.
    func merged(with data: PassData) throws -> [String: JSONValue] {
        var root = self.root
        var overrides = data.overrides
        let barcodeMessage = overrides.removeValue(forKey: PassData.barcodeMessageKey)
        var index = fieldIndex
        if !overrides.isEmpty {
            try typeCheck(overrides)
            for (key, value) in overrides {
                root[key] = value == .null ? nil : value
            }
            if PassStyle.allCases.contains(where: { overrides[$0.rawValue] != nil }) {
                index = FieldIndex(root: root)
            }
        }
        if let barcodeMessage {
            try apply(barcodeMessage: barcodeMessage, to: &root)
        }
        if !data.fields.isEmpty {
            try apply(fields: data.fields, index: index, to: &root)
        }
        return root
    }

    /// Top-level keys typed as a plain string or Boolean: overrides of these are checked without decoding.
    private static let scalarKeys: [String: Bool] = {
        var keys: [String: Bool] = [:]
        for key in [
            "description", "organizationName", "passTypeIdentifier", "serialNumber", "teamIdentifier", "appLaunchURL",
            "expirationDate", "relevantDate", "backgroundColor", "foregroundColor", "labelColor", "stripColor",
            "groupingIdentifier", "logoText", "webServiceURL", "authenticationToken", "eventLogoText",
            "footerBackgroundColor",
        ] {
            keys[key] = false
        }
        for key in ["voided", "suppressStripShine", "sharingProhibited", "useAutomaticColors", "suppressHeaderDarkening"] {
            keys[key] = true
        }
        return keys
    }()

    /// Decodes the overridden typed keys as a pass, so a value of the wrong type is caught with its key.
    /// Strings and Booleans for scalar keys, `null`, and keys the model does not type need no decoding.
    private func typeCheck(_ overrides: [String: JSONValue]) throws {
        let needsDecoding = overrides.filter { key, value in
            switch (Self.scalarKeys[key], value) {
            case (_, .null), (false?, .string), (true?, .bool): return false
            default: return Pass.typedKeys.contains(key)
            }
        }
        guard !needsDecoding.isEmpty else { return }
        let tree = JSONValue.object(needsDecoding)
        do {
            _ = try JSONCoding.decoder.decode(Pass.self, from: tree.jsonData(sortedKeys: false, prettyPrinted: false))
        } catch let error as DecodingError {
            let (path, message) = CodingPath.reason(error, in: tree)
            let key = path.first?.stringValue ?? "?"
            let detail = path.count > 1 ? " (at \(CodingPath.string(path)))" : ""
            throw PassModelError(.invalidData, "data override \"\(key)\"\(detail): \(message)")
        }
    }

    private func apply(barcodeMessage: JSONValue, to root: inout [String: JSONValue]) throws {
        guard case .string = barcodeMessage else {
            throw PassModelError(
                .invalidData,
                "data override \"\(PassData.barcodeMessageKey)\": expected a string, found \(barcodeMessage.kindName)"
            )
        }
        var found = false
        if case .array(var barcodes)? = root.removeValue(forKey: "barcodes") {
            for position in barcodes.indices {
                guard case .object(var barcode) = barcodes[position] else { continue }
                barcodes[position] = .null
                barcode["message"] = barcodeMessage
                barcodes[position] = .object(barcode)
                found = true
            }
            root["barcodes"] = .array(barcodes)
        }
        if case .object(var barcode)? = root.removeValue(forKey: "barcode") {
            barcode["message"] = barcodeMessage
            root["barcode"] = .object(barcode)
            found = true
        }
        guard found else {
            throw PassModelError(
                .invalidData,
                "data override \"\(PassData.barcodeMessageKey)\": template \"\(name)\" has no barcodes to set it on"
            )
        }
    }

    private func apply(fields: [String: JSONValue], index: FieldIndex, to root: inout [String: JSONValue]) throws {
        let unknown = fields.keys.filter { index.locations[$0] == nil }.sorted()
        if !unknown.isEmpty {
            let known = index.locations.keys.sorted().joined(separator: ", ")
            let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            let verb = unknown.count == 1 ? "does" : "do"
            throw PassModelError(
                .unknownField,
                "data field\(unknown.count == 1 ? "" : "s") \(names) \(verb) not exist in template \"\(name)\"; "
                    + "known keys: \(known.isEmpty ? "(none)" : known)"
            )
        }
        // style -> group -> [(index, value)]
        var updates: [String: [String: [(Int, JSONValue)]]] = [:]
        for (key, value) in fields {
            switch value {
            case .string, .integer, .number: break
            default:
                throw PassModelError(
                    .invalidData,
                    "data field \"\(key)\": expected a string, number or date string, found \(value.kindName)"
                )
            }
            for location in index.locations[key]! {
                if location.isDate {
                    guard case .string(let text) = value else {
                        throw PassModelError(.invalidData, "data field \"\(key)\": expected a W3C date string, found a number")
                    }
                    if let problem = W3CDate.problem(with: text) {
                        throw PassModelError(.invalidData, "data field \"\(key)\": \(problem), found \"\(text)\"")
                    }
                }
                updates[location.style, default: [:]][location.group, default: []].append((location.index, value))
            }
        }
        for (style, groups) in updates {
            guard case .object(var styleObject)? = root.removeValue(forKey: style) else { continue }
            for (group, changes) in groups {
                guard case .array(var list)? = styleObject.removeValue(forKey: group) else { continue }
                for (position, value) in changes {
                    guard case .object(var field) = list[position] else { continue }
                    list[position] = .null  // release the element so the field dictionary is mutated in place
                    field["value"] = value
                    list[position] = .object(field)
                }
                styleObject[group] = .array(list)
            }
            root[style] = .object(styleObject)
        }
    }
}
