public import Foundation

/// Any JSON value: used for unknown keys, `userInfo`, `semantics` and data documents.
///
/// Integers and fractional numbers are kept apart so that integers round-trip exactly:
/// `42` reads as ``integer(_:)`` and is written back as `42`, while `42.5` reads as ``number(_:)``.
/// Reading and writing go through Foundation's `JSONDecoder` and `JSONEncoder`.
public enum JSONValue: Sendable, Hashable {
    /// A JSON string.
    case string(String)
    /// A JSON number with a whole value that fits in `Int` exactly (`42`, also `42.0` or `4.2e1`).
    case integer(Int)
    /// Any other JSON number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])
}

extension JSONValue {
    /// Parses JSON bytes (UTF-8, optionally with a byte order mark) with Foundation's `JSONDecoder`.
    /// - Parameter jsonData: The JSON text.
    /// - Throws: ``PassModelError`` with code `invalidJSON`, naming the line and column at fault when
    ///   Foundation reports a position.
    public init(jsonData: Data) throws {
        do {
            self = try JSONCoding.decoder.decode(JSONValue.self, from: jsonData)
        } catch {
            throw JSONCoding.invalidJSON(jsonData, error)
        }
    }

    /// Serialises the value as JSON text with Foundation's `JSONEncoder` (slashes are not escaped).
    /// - Parameters:
    ///   - sortedKeys: Writes object keys sorted (default `true`), for stable output.
    ///   - prettyPrinted: Indents with two spaces, one key per line (default `true`).
    /// - Returns: UTF-8 JSON text.
    /// - Throws: ``PassModelError`` with code `invalidJSON` when a number is infinite or NaN.
    public func jsonData(sortedKeys: Bool = true, prettyPrinted: Bool = true) throws -> Data {
        try JSONCoding.encode(self, sortedKeys: sortedKeys, prettyPrinted: prettyPrinted)
    }

    /// The string, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, if this is ``integer(_:)`` or ``number(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The integer, if this is ``integer(_:)`` (or a ``number(_:)`` with no fractional part).
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value): return value.rounded() == value ? Int(exactly: value) : nil
        default: return nil
        }
    }

    /// The Boolean, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is ``object(_:)``.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool { self == .null }

    /// A member of an object; `nil` when absent or when this is not an object.
    /// Setting a member on a non-object turns the value into an object.
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            var members = objectValue ?? [:]
            members[key] = newValue
            self = .object(members)
        }
    }

    /// An element of an array; `nil` when out of range or when this is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A short name for the kind of value ("string", "number", "object", ...), used in messages.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer, .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// The kinds are tried from the most to the least common in `pass.json` (each miss costs a thrown
    /// error). Foundation's `JSONDecoder` never reads a number as a Boolean nor `true` as a number, and
    /// reads a whole number as `Int` only when it fits exactly; other numbers become ``number(_:)``.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            // What is left is a number no Double holds (1e400): said where it is, not as some other type.
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a number out of range (at most about 1.8e308 either way)")
        }
    }

    /// Encodes the value as the matching JSON value.
    ///
    /// Objects and arrays are written member by member through keyed and unkeyed containers, which
    /// `JSONEncoder` handles about twice as fast as a `[String: JSONValue]` or `[JSONValue]` value.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try container.encode(value, forKey: AnyCodingKey(key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// Creates a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an ``integer(_:)``.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// Creates a ``number(_:)``.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an ``object(_:)``; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
}
