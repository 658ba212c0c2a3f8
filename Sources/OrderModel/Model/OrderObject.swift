import Foundation
public import PassModel

/// The typed keys of one object of `order.json`: a struct of optional properties whose `Codable` conformance Swift
/// synthesizes from its ``CodingKeys``.
public protocol OrderKeyedFields: Codable, Sendable, Equatable {
    /// The keys the struct reads and writes, every one of them.
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// No keys set.
    init()
}

/// One object of `order.json` (the order, its merchant, a line item, a fulfillment, ...): its typed keys and every
/// other key, kept as is and written back, as `Pass` keeps the keys of `pass.json` it does not know.
///
/// The typed keys read as properties of the object itself (`order.merchant?.displayName`) through dynamic member
/// lookup, so each kind of object is just the struct of its keys: ``Order`` is `OrderObject<OrderDocumentFields>`.
@dynamicMemberLookup
public struct OrderObject<Fields: OrderKeyedFields>: Sendable, Equatable {
    /// The typed keys.
    public var fields: Fields
    /// Keys this model does not type, kept as is and written back.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An object with no keys set.
    public init() {
        fields = Fields()
    }

    /// An object with these typed keys.
    /// - Parameter fields: The typed keys.
    public init(_ fields: Fields) {
        self.fields = fields
    }

    /// A typed key, read and written as a property of the object.
    /// - Parameter key: The property of ``fields``.
    public subscript<Value>(dynamicMember key: WritableKeyPath<Fields, Value>) -> Value {
        get { fields[keyPath: key] }
        set { fields[keyPath: key] = newValue }
    }

    /// The names of the typed keys.
    public static var typedKeys: Set<String> { Set(Fields.CodingKeys.allCases.map(\.stringValue)) }
}

extension OrderObject: Codable {
    /// Decodes the typed keys, keeping every other key in ``unknownKeys``.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        unknownKeys = try decoder.container(keyedBy: AnyCodingKey.self).unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes the typed keys that are set, then ``unknownKeys``.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}
