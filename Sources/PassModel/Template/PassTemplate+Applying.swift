public import Foundation

/// Where each field key sits in a template's `pass.json`, computed once per template.
struct FieldIndex: Sendable {
    struct Location: Sendable {
        var style: String
        var group: String
        var index: Int
        /// Whether the field formats its value as a date (so a new value must be a W3C date).
        var isDate: Bool
        /// The same style in the typed ``Pass``.
        var stylePath: any WritableKeyPath<Pass, PassFields?> & Sendable
        /// The same group in the typed ``PassFields``.
        var groupPath: any WritableKeyPath<PassFields, [PassField]?> & Sendable
    }

    /// The typed field groups, in ``PassFields/groupNames`` order.
    static let groupPaths: [any WritableKeyPath<PassFields, [PassField]?> & Sendable] = [
        \.headerFields, \.primaryFields, \.secondaryFields, \.auxiliaryFields, \.backFields, \.additionalInfoFields,
        \.footerFields,
    ]

    static func stylePath(_ style: PassStyle) -> any WritableKeyPath<Pass, PassFields?> & Sendable {
        switch style {
        case .boardingPass: return \.boardingPass
        case .coupon: return \.coupon
        case .eventTicket: return \.eventTicket
        case .generic: return \.generic
        case .storeCard: return \.storeCard
        }
    }

    var locations: [String: [Location]] = [:]

    /// Every key holding field groups with its typed path: the five styles and `posterGeneric`.
    static let fieldContainers: [(key: String, path: any WritableKeyPath<Pass, PassFields?> & Sendable)] =
        PassStyle.allCases.map { ($0.rawValue, stylePath($0)) } + [("posterGeneric", \.posterGeneric)]

    init(root: [String: JSONValue]) {
        for (style, stylePath) in Self.fieldContainers {
            guard case .object(let groups)? = root[style] else { continue }
            for (group, groupPath) in zip(PassFields.groupNames, Self.groupPaths) {
                guard case .array(let fields)? = groups[group] else { continue }
                for (index, field) in fields.enumerated() {
                    guard case .object(let members) = field, case .string(let key)? = members["key"] else { continue }
                    let isDate = ["dateStyle", "timeStyle"].contains { name in
                        if case .string(let style)? = members[name] { return style != PassDateStyle.none.rawValue }
                        return false
                    }
                    locations[key, default: []].append(
                        Location(
                            style: style, group: group, index: index, isDate: isDate,
                            stylePath: stylePath, groupPath: groupPath
                        )
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

    /// Applies a data document to the typed ``pass``: the cheap way to make a pass to validate and encode.
    ///
    /// Field values, `barcodeMessage` and overrides of scalar keys (strings such as `serialNumber` or
    /// `authenticationToken`, Booleans such as `voided`, `formatVersion`, or `null` for any of them) are
    /// set on a copy of the decoded template without any JSON coding. Any other override (an array, an
    /// object, a style, an unknown key, a value of the wrong type) is merged into the JSON tree and the
    /// result decoded. Either way the result and the errors are those of decoding ``passJSON(applying:)``.
    /// - Parameter data: The data document, or `nil`.
    /// - Returns: The merged pass.
    /// - Throws: ``PassModelError`` as for ``passJSON(applying:)``.
    public func pass(applying data: PassData?) throws -> Pass {
        guard let data, !data.overrides.isEmpty || !data.fields.isEmpty else { return pass }
        if let pass = try typedPass(applying: data) { return pass }
        return try Pass(json: .object(merged(with: data)))
    }

    /// The template's tree with the overrides and field values applied.
    func merged(with data: PassData) throws -> [String: JSONValue] {
        var root = self.root
        var overrides = data.overrides
        for key in PassData.barcodeKeys { overrides.removeValue(forKey: key) }
        var index = fieldIndex
        if !overrides.isEmpty {
            try typeCheck(overrides)
            for (key, value) in overrides {
                // Not `root[key] = value == .null ? nil : value`: JSONValue is ExpressibleByNilLiteral, so
                // that `nil` would be `.null` and write `"key": null` instead of removing the key.
                if value == .null {
                    root.removeValue(forKey: key)
                } else {
                    root[key] = value
                }
            }
            if FieldIndex.fieldContainers.contains(where: { overrides[$0.key] != nil }) {
                index = FieldIndex(root: root)
            }
        }
        if let barcodeText = try BarcodeText(overrides: data.overrides) {
            try apply(barcodeText, to: &root)
        }
        if !data.fields.isEmpty {
            try apply(fields: data.fields, index: index, to: &root)
        }
        return root
    }

    /// Decodes the overridden typed keys as a pass, so a value of the wrong type is caught with its key.
    /// Strings and Booleans for scalar keys, `null`, and keys the model does not type need no decoding.
    private func typeCheck(_ overrides: [String: JSONValue]) throws {
        let needsDecoding = overrides.filter { key, value in
            if value == .null || ScalarOverride.byKey[key]?.accepts(value) == true { return false }
            return Pass.typedKeys.contains(key)
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

    func apply(_ text: BarcodeText, to root: inout [String: JSONValue]) throws {
        func update(_ barcode: inout [String: JSONValue]) {
            let (message, altText) = text.applied(message: barcode["message"]?.stringValue,
                                                  altText: barcode["altText"]?.stringValue)
            if let message { barcode["message"] = .string(message) }
            if let altText {
                barcode["altText"] = .string(altText)
            } else if barcode["altText"]?.stringValue != nil {
                barcode.removeValue(forKey: "altText")
            }
        }
        var found = false
        if case .array(var barcodes)? = root.removeValue(forKey: "barcodes") {
            for position in barcodes.indices {
                guard case .object(var barcode) = barcodes[position] else { continue }
                barcodes[position] = .null
                update(&barcode)
                barcodes[position] = .object(barcode)
                found = true
            }
            root["barcodes"] = .array(barcodes)
        }
        if case .object(var barcode)? = root.removeValue(forKey: "barcode") {
            update(&barcode)
            root["barcode"] = .object(barcode)
            found = true
        }
        guard found else { throw noBarcodesError(text) }
    }

    static func barcodeMessageTypeError(_ value: JSONValue) -> PassModelError {
        PassModelError(
            .invalidData,
            "data override \"\(PassData.barcodeMessageKey)\": expected a string, found \(value.kindName)"
        )
    }

    func noBarcodesError(_ text: BarcodeText) -> PassModelError {
        let key = text.message != nil ? PassData.barcodeMessageKey : PassData.barcodeAltTextKey
        return PassModelError(.invalidData, "data override \"\(key)\": template \"\(name)\" has no barcodes to set it on")
    }

    func apply(fields: [String: JSONValue], index: FieldIndex, to root: inout [String: JSONValue]) throws {
        try checkKnown(fields: fields, index: index)
        // style -> group -> [(index, value)]
        var updates: [String: [String: [(Int, JSONValue)]]] = [:]
        for (key, value) in fields {
            for location in try Self.checkField(key: key, value: value, index: index) {
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
                    // Wallet shows `attributedValue` in place of `value`: the template's would hide the pass's own.
                    field.removeValue(forKey: "attributedValue")
                    list[position] = .object(field)
                }
                styleObject[group] = .array(list)
            }
            root[style] = .object(styleObject)
        }
    }

    /// Throws `unknownField` naming every field key the template lacks, with the keys it has.
    func checkKnown(fields: [String: JSONValue], index: FieldIndex) throws {
        let unknown = fields.keys.filter { index.locations[$0] == nil }.sorted()
        guard !unknown.isEmpty else { return }
        let known = index.locations.keys.sorted().joined(separator: ", ")
        let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
        let verb = unknown.count == 1 ? "does" : "do"
        throw PassModelError(
            .unknownField,
            "data field\(unknown.count == 1 ? "" : "s") \(names) \(verb) not exist in template \"\(name)\"; "
                + "known keys: \(known.isEmpty ? "(none)" : known)"
        )
    }

    /// Checks a known field's new value (a string or number; a W3C date string for a date field) and
    /// returns where the field sits.
    static func checkField(key: String, value: JSONValue, index: FieldIndex) throws -> [FieldIndex.Location] {
        switch value {
        case .string, .integer, .number: break
        default:
            throw PassModelError(
                .invalidData,
                "data field \"\(key)\": expected a string, number or date string, found \(value.kindName)"
            )
        }
        let locations = index.locations[key] ?? []
        for location in locations where location.isDate {
            guard case .string(let text) = value else {
                throw PassModelError(.invalidData, "data field \"\(key)\": expected a W3C date string, found a number")
            }
            if let problem = W3CDate.problem(with: text) {
                throw PassModelError(.invalidData, "data field \"\(key)\": \(problem), found \"\(text)\"")
            }
        }
        return locations
    }
}
