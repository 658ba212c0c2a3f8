/// A coding key built from any string or array index; used for unknown keys and error paths.
package struct AnyCodingKey: CodingKey, Hashable {
    /// The key's name.
    package let stringValue: String
    /// The array index, for an element.
    package let intValue: Int?

    /// A key named `string`.
    package init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    package init?(stringValue: String) { self.init(stringValue) }

    /// The key of an array element.
    package init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    package init?(intValue: Int) { self.init(index: intValue) }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Decodes an optional value for a literal key.
    package func decode<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(type, forKey: AnyCodingKey(key))
    }

    /// Decodes an optional integer, naming the key when the number is not a whole number that fits in `Int`.
    ///
    /// Foundation's `JSONDecoder` reports such a number as invalid JSON without a path; this turns it
    /// into a type mismatch at the key, as for any other value of the wrong type.
    package func decode(_ key: String, as type: Int.Type = Int.self) throws -> Int? {
        let codingKey = AnyCodingKey(key)
        do {
            return try decodeIfPresent(Int.self, forKey: codingKey)
        } catch let error as DecodingError {
            throw error
        } catch {
            let found = (try? decodeIfPresent(Double.self, forKey: codingKey)).flatMap { $0 }
            throw Self.notAnInteger(at: codingPath + [codingKey], found: found)
        }
    }

    /// Decodes an optional array of integers, naming the element that is not a whole number fitting in `Int`.
    func decode(_ key: String, as type: [Int].Type = [Int].self) throws -> [Int]? {
        let codingKey = AnyCodingKey(key)
        do {
            return try decodeIfPresent([Int].self, forKey: codingKey)
        } catch let error as DecodingError {
            throw error
        } catch {
            let elements = try decodeIfPresent([JSONValue].self, forKey: codingKey) ?? []
            let index = elements.firstIndex { if case .number = $0 { return true } else { return false } } ?? 0
            let found = elements.indices.contains(index) ? elements[index].doubleValue : nil
            throw Self.notAnInteger(at: codingPath + [codingKey, AnyCodingKey(index: index)], found: found)
        }
    }

    private static func notAnInteger(at path: [any CodingKey], found: Double?) -> DecodingError {
        let description = found.map { "expected an integer, found \($0)" } ?? "expected an integer, found number"
        return DecodingError.typeMismatch(Int.self, .init(codingPath: path, debugDescription: description))
    }

    /// Every key not in `known`, decoded as ``JSONValue``.
    package func unknownKeys(excluding known: Set<String>) throws -> [String: JSONValue] {
        var unknown: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            unknown[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return unknown
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    /// Encodes an optional value for a literal key, skipping `nil`.
    package mutating func encode<T: Encodable>(_ value: T?, _ key: String) throws {
        if let value { try encode(value, forKey: AnyCodingKey(key)) }
    }

    /// Writes unknown keys back, without overwriting a modelled key of the same name.
    package mutating func encode(unknownKeys: [String: JSONValue], excluding known: Set<String>) throws {
        for (key, value) in unknownKeys where !known.contains(key) {
            try encode(value, forKey: AnyCodingKey(key))
        }
    }
}

package enum CodingPath {
    /// Formats a coding path as a JSON path: `eventTicket.primaryFields[0].changeMessage`.
    package static func string(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }

    /// A readable reason for a decoding failure, without the path.
    ///
    /// Messages PassModel writes itself start with "expected" and are kept; Foundation's ("Expected to
    /// decode String but found number instead.") are rewritten as "expected a string, found number",
    /// reading the kind of the value found from `root`, the tree that was decoded.
    package static func reason(_ error: DecodingError, in root: JSONValue?) -> (path: [any CodingKey], message: String) {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            if context.debugDescription.hasPrefix("expected ") {
                return (context.codingPath, context.debugDescription)
            }
            guard let found = root?.value(at: context.codingPath[...]) else {
                return (context.codingPath, context.debugDescription)
            }
            return (context.codingPath, "expected \(kindName(of: type)), found \(found.kindName)")
        case .dataCorrupted(let context):
            return (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key], "required key is missing")
        @unknown default:
            return ([], "\(error)")
        }
    }

    /// "a string", "an integer", "an object", ... for a type a decoder expected.
    static func kindName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let name = "\(type)"
            if name.hasPrefix("Dictionary<") { return "an object" }
            if name.hasPrefix("Array<") { return "an array" }
            return name
        }
    }
}

extension JSONValue {
    /// The value at a coding path (object members by name, array elements by index), if there is one.
    func value(at path: ArraySlice<any CodingKey>) -> JSONValue? {
        guard let first = path.first else { return self }
        switch self {
        case .object(let members):
            return members[first.stringValue]?.value(at: path.dropFirst())
        case .array(let elements):
            guard let index = first.intValue, elements.indices.contains(index) else { return nil }
            return elements[index].value(at: path.dropFirst())
        default:
            return nil
        }
    }
}
