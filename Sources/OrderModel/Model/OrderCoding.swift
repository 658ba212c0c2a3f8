public import Foundation
import PassModel
import PaymentRequest

extension OrderCurrencyAmount: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = ["amount", "currency"]

    /// Decodes the amount from a decimal string or a JSON number, keeping its exact text.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(amount: nil, currency: try c.decode("currency"))
        let key = AnyCodingKey("amount")
        if let text = try? c.decodeIfPresent(String.self, forKey: key) {
            amount = text
        } else if let number = try c.decodeIfPresent(Decimal.self, forKey: key) {
            amount = "\(number)"
        }
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes the amount as Apple types it: a string with the currency's digits (``normalizedAmount``).
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        if let amount = normalizedAmount { try c.encode(amount, "amount") }
        try c.encode(currency, "currency")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderFulfillment: Codable {
    private static let typeKey = AnyCodingKey("fulfillmentType")

    /// Decodes a shipment or a pickup by its `fulfillmentType`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        switch try c.decodeIfPresent(String.self, forKey: Self.typeKey) {
        case "shipping":
            var shipping = try OrderShippingFulfillment(from: decoder)
            shipping.unknownKeys[Self.typeKey.stringValue] = nil
            self = .shipping(shipping)
        case "pickup":
            var pickup = try OrderPickupFulfillment(from: decoder)
            pickup.unknownKeys[Self.typeKey.stringValue] = nil
            self = .pickup(pickup)
        case nil:
            throw DecodingError.keyNotFound(Self.typeKey, .init(codingPath: c.codingPath, debugDescription: "required key is missing"))
        case let other?:
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [Self.typeKey],
                debugDescription: "unknown fulfillmentType \"\(other)\", expected shipping or pickup"))
        }
    }

    /// Encodes the shipment or pickup with its `fulfillmentType`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .shipping(let shipping): try shipping.encode(to: encoder)
        case .pickup(let pickup): try pickup.encode(to: encoder)
        }
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(fulfillmentType, forKey: Self.typeKey)
    }
}

extension OrderObject where Fields == OrderDocumentFields {
    /// Reads `order.json`.
    /// - Parameter data: Its bytes.
    /// - Throws: `PassModelError` `.invalidJSON` naming the line and column, or the key with the wrong type.
    public init(jsonData data: Data) throws {
        do {
            self = try JSONCoding.decoder.decode(Order.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = CodingPath.reason(error, in: try? JSONValue(jsonData: data))
            let location = path.isEmpty ? "" : "\(CodingPath.string(path)): "
            throw PassModelError(.invalidJSON, "order.json: \(location)\(message)")
        } catch {
            throw JSONCoding.invalidJSON(data, error)
        }
    }

    /// `order.json` bytes: pretty-printed, keys sorted, slashes unescaped, unknown keys written back.
    /// - Returns: The JSON bytes.
    public func jsonData() throws -> Data {
        try JSONCoding.encode(self, sortedKeys: true, prettyPrinted: true)
    }
}
