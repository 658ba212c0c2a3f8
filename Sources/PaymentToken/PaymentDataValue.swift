public import Foundation

/// A JSON value from decrypted payment data, kept so that keys Apple adds later survive decoding.
public enum PaymentDataValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written.
    case number(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([PaymentDataValue])
    /// An object.
    case object([String: PaymentDataValue])

    /// Decodes any JSON value.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode([PaymentDataValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: PaymentDataValue].self))
        }
    }

    /// Encodes the value.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is one (or a string of digits, as some issuers send amounts).
    public var decimalValue: Decimal? {
        switch self {
        case .number(let value): return value
        case .string(let value): return Decimal(string: value)
        default: return nil
        }
    }

    /// The members, when this is an object.
    public var objectValue: [String: PaymentDataValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [PaymentDataValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}
