/// The value of a field: a (possibly localisable) string, a W3C date string, or a number.
public enum PassFieldValue: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A string; dates are strings too (see ``W3CDate``).
    case string(String)
    /// A whole number, kept exact.
    case integer(Int)
    /// Any other number.
    case number(Double)

    /// Decodes a string or number; anything else is a type mismatch.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            let value = try JSONValue(from: decoder)
            throw DecodingError.typeMismatch(
                PassFieldValue.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a string or a number, found \(value.kindName)"
                )
            )
        }
    }

    /// Converts a JSON string or number; `nil` for other kinds.
    /// - Parameter json: The JSON value.
    public init?(json: JSONValue) {
        switch json {
        case .string(let string): self = .string(string)
        case .integer(let integer): self = .integer(integer)
        case .number(let number): self = .number(number)
        default: return nil
        }
    }

    /// Encodes the string or number.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// The value as JSON.
    public var json: JSONValue {
        switch self {
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .number(let number): return .number(number)
        }
    }

    /// The string, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// Whether the value is a number.
    public var isNumber: Bool { stringValue == nil }

    /// The string, or the number's text.
    public var description: String {
        switch self {
        case .string(let string): return string
        case .integer(let integer): return String(integer)
        case .number(let number): return number.description
        }
    }
}
