import Foundation

/// A template's `pass.json` encoded member by member with `JSONEncoder`, so encoding a pass made from the
/// template re-encodes only the members that differ from the template's.
///
/// Top-level members, unknown keys, and inside each style every field, `transitType` and unknown key, are
/// kept as separately encoded fragments (compact, sorted keys, slashes unescaped). A pass is written by
/// comparing each of its typed values with the template's, reusing the template's fragment when they are
/// equal and encoding the value alone otherwise, then joining the fragments as `{"key":value,...}` in
/// `JSONEncoder`'s sorted key order.
struct PassJSONCache: Sendable {
    /// A style's fields with each one encoded.
    struct StyleFragments: Sendable {
        var fields: PassFields
        /// Per ``PassJSONGroup/all`` entry, each field's fragment.
        var groups: [[[UInt8]]]
        var transitType: [UInt8]?
        var unknownKeys: [String: [UInt8]]
    }

    private let template: Pass
    /// Per typed member, in visiting order, the template's fragment (`nil` for styles and absent members).
    private let fragments: [[UInt8]?]
    private let styles: [PassStyle: StyleFragments]
    private let unknownKeys: [String: [UInt8]]
    private let encodedKeys: [String: [UInt8]]

    /// Encodes every member of the template once.
    init(template: Pass) throws {
        self.template = template
        var recorder = TemplateRecorder()
        try Pass.visitMembers(of: template, template: template, with: &recorder)
        fragments = recorder.fragments
        var styles: [PassStyle: StyleFragments] = [:]
        for style in PassStyle.allCases {
            guard let fields = template[style: style] else { continue }
            styles[style] = StyleFragments(
                fields: fields,
                groups: try PassJSONGroup.all.map { group in try (fields[keyPath: group.path] ?? []).map(Self.fragment) },
                transitType: try fields.transitType.map(Self.fragment),
                unknownKeys: try fields.unknownKeys.mapValues(Self.fragment)
            )
        }
        self.styles = styles
        unknownKeys = try template.unknownKeys.mapValues(Self.fragment)
        var encodedKeys: [String: [UInt8]] = [:]
        for key in template.unknownKeys.keys { encodedKeys[key] = Self.encodedKey(key) }
        for key in styles.values.flatMap(\.unknownKeys.keys) { encodedKeys[key] = Self.encodedKey(key) }
        self.encodedKeys = encodedKeys
    }

    /// `pass` as compact `pass.json` with sorted keys.
    func encode(_ pass: Pass) throws -> Data {
        var writer = PassWriter(cache: self)
        try Pass.visitMembers(of: pass, template: template, with: &writer)
        for (key, value) in pass.unknownKeys where !Pass.typedKeys.contains(key) {
            let bytes = template.unknownKeys[key] == value ? unknownKeys[key]! : try Self.fragment(value)
            writer.object.add(key, encodedKeys[key] ?? Self.encodedKey(key), bytes)
        }
        return Data(writer.object.bytes())
    }

    /// Encodes each member of the template.
    private struct TemplateRecorder: PassMemberVisitor {
        var fragments: [[UInt8]?] = []

        mutating func visit<Value: Encodable & Equatable>(_ key: String, _ value: Value?, _ templateValue: Value?) throws {
            if let value {
                fragments.append(try PassJSONCache.fragment(value))
            } else {
                fragments.append(nil)
            }
        }

        mutating func visitStyle(_ style: PassStyle, _ fields: PassFields?) {
            fragments.append(nil)
        }
    }

    /// Writes each member of a pass, reusing the template's fragment when the values are equal.
    private struct PassWriter: PassMemberVisitor {
        let cache: PassJSONCache
        var object = PassJSONObjectWriter(capacity: 24)
        var index = 0

        init(cache: PassJSONCache) {
            self.cache = cache
        }

        mutating func visit<Value: Encodable & Equatable>(_ key: String, _ value: Value?, _ templateValue: Value?) throws {
            defer { index += 1 }
            guard let value else { return }
            let bytes = value == templateValue ? cache.fragments[index]! : try PassJSONCache.fragment(value)
            object.add(key, PassMemberKeyRecorder.all[index].encoded, bytes)
        }

        mutating func visitStyle(_ style: PassStyle, _ fields: PassFields?) throws {
            defer { index += 1 }
            guard let bytes = try cache.encode(fields, style: style) else { return }
            object.add(style.rawValue, PassMemberKeyRecorder.all[index].encoded, bytes)
        }
    }

    private func encode(_ fields: PassFields?, style: PassStyle) throws -> [UInt8]? {
        guard let fields else { return nil }
        guard let cached = styles[style] else { return try Self.fragment(fields) }
        var writer = PassJSONObjectWriter(capacity: 8)
        for (groupIndex, group) in PassJSONGroup.all.enumerated() {
            guard let list = fields[keyPath: group.path] else { continue }
            let cachedList = cached.fields[keyPath: group.path] ?? []
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for (index, field) in list.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if index < cachedList.count, cachedList[index] == field {
                    bytes.append(contentsOf: cached.groups[groupIndex][index])
                } else {
                    bytes.append(contentsOf: try Self.fragment(field))
                }
            }
            bytes.append(UInt8(ascii: "]"))
            writer.add(group.key, group.encodedKey, bytes)
        }
        if let transitType = fields.transitType {
            let bytes = transitType == cached.fields.transitType ? cached.transitType! : try Self.fragment(transitType)
            writer.add("transitType", PassJSONGroup.transitTypeKey, bytes)
        }
        for (key, value) in fields.unknownKeys where !PassFields.knownKeys.contains(key) {
            let bytes = cached.fields.unknownKeys[key] == value ? cached.unknownKeys[key]! : try Self.fragment(value)
            writer.add(key, encodedKeys[key] ?? Self.encodedKey(key), bytes)
        }
        return writer.bytes()
    }

    /// A value encoded alone by `JSONEncoder`: compact, keys sorted, slashes unescaped.
    static func fragment(_ value: some Encodable) throws -> [UInt8] {
        [UInt8](try JSONCoding.encoder(sortedKeys: true, prettyPrinted: false).encode(value))
    }

    /// `"key":` with the key encoded by `JSONEncoder`.
    static func encodedKey(_ key: String) -> [UInt8] {
        // Encoding a string cannot fail.
        (try! fragment(key)) + [UInt8(ascii: ":")]
    }
}
