// The Codable conformances of fulfillments and returns: `fulfillmentType` picks the kind; every other key is kept in
// `unknownKeys` and written back.
import PassModel

extension OrderFulfillment: Codable {
    /// Decodes a shipment or a pickup by its `fulfillmentType`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type: String? = try c.decode("fulfillmentType")
        switch type {
        case "shipping": self = .shipping(try OrderShippingFulfillment(from: decoder))
        case "pickup": self = .pickup(try OrderPickupFulfillment(from: decoder))
        case nil:
            throw DecodingError.keyNotFound(AnyCodingKey("fulfillmentType"), .init(codingPath: c.codingPath,
                debugDescription: "required key is missing"))
        case let other?:
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [AnyCodingKey("fulfillmentType")],
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
    }
}

extension OrderShippingFulfillment: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "fulfillmentIdentifier", "status", "statusDescription", "carrier", "trackingNumber", "trackingURL",
        "shippingType", "shippedAt", "estimatedDeliveryAt", "estimatedDeliveryWindowDuration", "deliveredAt",
        "recipient", "notes", "fulfillmentType",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        fulfillmentIdentifier = try c.decode("fulfillmentIdentifier")
        status = try c.decode("status")
        statusDescription = try c.decode("statusDescription")
        carrier = try c.decode("carrier")
        trackingNumber = try c.decode("trackingNumber")
        trackingURL = try c.decode("trackingURL")
        shippingType = try c.decode("shippingType")
        shippedAt = try c.decode("shippedAt")
        estimatedDeliveryAt = try c.decode("estimatedDeliveryAt")
        estimatedDeliveryWindowDuration = try c.decode("estimatedDeliveryWindowDuration")
        deliveredAt = try c.decode("deliveredAt")
        recipient = try c.decode("recipient")
        notes = try c.decode("notes")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode("shipping", "fulfillmentType")
        try c.encode(fulfillmentIdentifier, "fulfillmentIdentifier")
        try c.encode(status, "status")
        try c.encode(statusDescription, "statusDescription")
        try c.encode(carrier, "carrier")
        try c.encode(trackingNumber, "trackingNumber")
        try c.encode(trackingURL, "trackingURL")
        try c.encode(shippingType, "shippingType")
        try c.encode(shippedAt, "shippedAt")
        try c.encode(estimatedDeliveryAt, "estimatedDeliveryAt")
        try c.encode(estimatedDeliveryWindowDuration, "estimatedDeliveryWindowDuration")
        try c.encode(deliveredAt, "deliveredAt")
        try c.encode(recipient, "recipient")
        try c.encode(notes, "notes")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderPickupFulfillment: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "fulfillmentIdentifier", "status", "statusDescription", "displayName", "address", "pickupAt",
        "pickupWindowDuration", "pickedUpAt", "barcode", "notes", "fulfillmentType",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        fulfillmentIdentifier = try c.decode("fulfillmentIdentifier")
        status = try c.decode("status")
        statusDescription = try c.decode("statusDescription")
        displayName = try c.decode("displayName")
        address = try c.decode("address")
        pickupAt = try c.decode("pickupAt")
        pickupWindowDuration = try c.decode("pickupWindowDuration")
        pickedUpAt = try c.decode("pickedUpAt")
        barcode = try c.decode("barcode")
        notes = try c.decode("notes")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode("pickup", "fulfillmentType")
        try c.encode(fulfillmentIdentifier, "fulfillmentIdentifier")
        try c.encode(status, "status")
        try c.encode(statusDescription, "statusDescription")
        try c.encode(displayName, "displayName")
        try c.encode(address, "address")
        try c.encode(pickupAt, "pickupAt")
        try c.encode(pickupWindowDuration, "pickupWindowDuration")
        try c.encode(pickedUpAt, "pickedUpAt")
        try c.encode(barcode, "barcode")
        try c.encode(notes, "notes")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderRecipient: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "givenName", "familyName", "organizationName", "address", "emailAddress", "phoneNumber",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        givenName = try c.decode("givenName")
        familyName = try c.decode("familyName")
        organizationName = try c.decode("organizationName")
        address = try c.decode("address")
        emailAddress = try c.decode("emailAddress")
        phoneNumber = try c.decode("phoneNumber")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(givenName, "givenName")
        try c.encode(familyName, "familyName")
        try c.encode(organizationName, "organizationName")
        try c.encode(address, "address")
        try c.encode(emailAddress, "emailAddress")
        try c.encode(phoneNumber, "phoneNumber")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderReturn: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "returnIdentifier", "status", "statusDescription", "initiatedAt", "carrier", "trackingNumber", "trackingURL",
        "returnManagementURL",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        returnIdentifier = try c.decode("returnIdentifier")
        status = try c.decode("status")
        statusDescription = try c.decode("statusDescription")
        initiatedAt = try c.decode("initiatedAt")
        carrier = try c.decode("carrier")
        trackingNumber = try c.decode("trackingNumber")
        trackingURL = try c.decode("trackingURL")
        returnManagementURL = try c.decode("returnManagementURL")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(returnIdentifier, "returnIdentifier")
        try c.encode(status, "status")
        try c.encode(statusDescription, "statusDescription")
        try c.encode(initiatedAt, "initiatedAt")
        try c.encode(carrier, "carrier")
        try c.encode(trackingNumber, "trackingNumber")
        try c.encode(trackingURL, "trackingURL")
        try c.encode(returnManagementURL, "returnManagementURL")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}
