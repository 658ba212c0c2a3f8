import Checkout
import Foundation

/// Sessions and orders are stored whole, as JSON documents of their `Codable` form, next to the few columns the
/// stores query on. Dates keep their full precision (seconds as a JSON number) and amounts their exact decimal digits,
/// so a document reads back equal to what was written.
enum CheckoutDocument {
    /// Encodes a value as a JSON string.
    /// - Parameters:
    ///   - value: A session or an order.
    ///   - what: Its name in an error, such as `session s-1`.
    /// - Returns: Its JSON text.
    /// - Throws: ``CheckoutPersistenceError/invalidData(_:)`` when it cannot be encoded.
    static func encode<Value: Encodable>(_ value: Value, _ what: @autoclosure () -> String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw CheckoutPersistenceError.invalidData("cannot encode \(what()): \(error)")
        }
    }

    /// Decodes a stored JSON string.
    /// - Parameters:
    ///   - type: A session or an order.
    ///   - text: The stored JSON text.
    ///   - what: Its name in an error, such as `session s-1`.
    /// - Returns: The value.
    /// - Throws: ``CheckoutPersistenceError/invalidData(_:)`` when the document is not a valid value.
    static func decode<Value: Decodable>(_ type: Value.Type, _ text: String, _ what: @autoclosure () -> String) throws
        -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw CheckoutPersistenceError.invalidData("the stored document of \(what()) cannot be read: \(error)")
        }
    }

    /// Decodes a stored session.
    /// - Parameters:
    ///   - text: Its JSON text.
    ///   - id: Its identifier, for errors.
    /// - Returns: The session.
    static func session(_ text: String, id: String) throws -> CheckoutSession {
        try decode(CheckoutSession.self, text, "session \(id)")
    }

    /// Decodes a stored order.
    /// - Parameters:
    ///   - text: Its JSON text.
    ///   - id: Its identifier, for errors.
    /// - Returns: The order.
    static func order(_ text: String, id: String) throws -> CheckoutOrder {
        try decode(CheckoutOrder.self, text, "order \(id)")
    }
}

/// Thrown inside a transaction to roll it back when a step finds it must not go on (the method then returns
/// `false`); never leaves the store.
struct CheckoutRollback: Error {}
