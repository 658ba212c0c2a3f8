import Foundation
import PaymentRequest

/// Amounts and rates in configuration and request JSON are decimal strings (`"12.50"`, `"0.0825"`), never JSON
/// numbers, so no value passes through `Double`.
enum DecimalCoding {
    /// Reads a decimal string such as `"12.50"`.
    /// - Parameters:
    ///   - container: The keyed container.
    ///   - key: The key.
    /// - Returns: The exact value.
    /// - Throws: `DecodingError` naming the key when the value is not a decimal string.
    static func decode<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Decimal {
        let text = try container.decode(String.self, forKey: key)
        guard let value = AmountString.decimal(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "must be a decimal string such as \"12.50\", found \"\(text)\"")
        }
        return value
    }

    /// Reads an optional decimal string.
    /// - Parameters:
    ///   - container: The keyed container.
    ///   - key: The key.
    /// - Returns: The value, or `nil` when the key is absent or null.
    static func decodeIfPresent<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Decimal? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        return try decode(container, key)
    }

    /// Writes a decimal as a plain string (`"0.0825"`).
    /// - Parameter value: The value.
    /// - Returns: Its locale-free description.
    static func string(_ value: Decimal) -> String { value.description }
}
