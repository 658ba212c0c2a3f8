import PassModel

/// One fulfillment of an order: a shipment or a pickup, told apart by `fulfillmentType`.
public enum OrderFulfillment: Sendable, Equatable {
    /// `"fulfillmentType": "shipping"`.
    case shipping(OrderShippingFulfillment)
    /// `"fulfillmentType": "pickup"`.
    case pickup(OrderPickupFulfillment)

    /// The fulfillment's identifier, unique within the order.
    public var fulfillmentIdentifier: String? {
        switch self {
        case .shipping(let shipping): shipping.fulfillmentIdentifier
        case .pickup(let pickup): pickup.fulfillmentIdentifier
        }
    }

    /// The fulfillment's status.
    public var status: String? {
        switch self {
        case .shipping(let shipping): shipping.status
        case .pickup(let pickup): pickup.status
        }
    }

    /// `shipping` or `pickup`.
    public var fulfillmentType: String {
        switch self {
        case .shipping: "shipping"
        case .pickup: "pickup"
        }
    }
}

/// Items sent to the customer by a carrier.
public typealias OrderShippingFulfillment = OrderObject<OrderShippingFulfillmentFields>

/// The typed keys of ``OrderShippingFulfillment``.
public struct OrderShippingFulfillmentFields: OrderKeyedFields {
    /// The identifier, unique within the order.
    public var fulfillmentIdentifier: String?
    /// `open`, `processing`, `onTheWay`, `shipped`, `outForDelivery`, `delivered`, `issue` or `cancelled`.
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// The carrier's name.
    public var carrier: String?
    /// The carrier's tracking number.
    public var trackingNumber: String?
    /// The carrier's tracking page (https).
    public var trackingURL: String?
    /// `shipping` (by a carrier) or `delivery` (by the merchant).
    public var shippingType: String?
    /// When the items were handed to the carrier (RFC 3339).
    public var shippedAt: String?
    /// When the items are expected (RFC 3339).
    public var estimatedDeliveryAt: String?
    /// The length of the expected delivery window from ``estimatedDeliveryAt`` (ISO 8601 duration, `PT4H`).
    public var estimatedDeliveryWindowDuration: String?
    /// When the items were delivered (RFC 3339).
    public var deliveredAt: String?
    /// Who receives the items, and where.
    public var recipient: OrderRecipient?
    /// Notes for the customer.
    public var notes: String?
    /// The items of the order in this shipment.
    public var lineItems: [OrderLineItem]?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fulfillmentIdentifier, status, statusDescription, carrier, trackingNumber, trackingURL, shippingType
        case shippedAt, estimatedDeliveryAt, estimatedDeliveryWindowDuration, deliveredAt, recipient, notes, lineItems
    }
}

/// Items the customer collects.
public typealias OrderPickupFulfillment = OrderObject<OrderPickupFulfillmentFields>

/// The typed keys of ``OrderPickupFulfillment``.
public struct OrderPickupFulfillmentFields: OrderKeyedFields {
    /// The identifier, unique within the order.
    public var fulfillmentIdentifier: String?
    /// `open`, `processing`, `readyForPickup`, `pickedUp`, `issue` or `cancelled`.
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// The pickup place's name (required).
    public var displayName: String?
    /// The pickup place's address.
    public var address: OrderAddress?
    /// The pickup place's coordinates, when the address is not precise enough.
    public var location: OrderLocation?
    /// When the pickup window opens (RFC 3339).
    public var pickupAt: String?
    /// How long the pickup window stays open (ISO 8601 duration, `PT2H`).
    public var pickupWindowDuration: String?
    /// When the customer collected the items (RFC 3339).
    public var pickedUpAt: String?
    /// A barcode to show at the counter.
    public var barcode: OrderBarcode?
    /// Instructions for the customer.
    public var notes: String?
    /// The items of the order in this pickup.
    public var lineItems: [OrderLineItem]?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fulfillmentIdentifier, status, statusDescription, displayName, address, location, pickupAt
        case pickupWindowDuration, pickedUpAt, barcode, notes, lineItems
    }
}

/// A place's coordinates (Apple's `Location`).
public typealias OrderLocation = OrderObject<OrderLocationFields>

/// The typed keys of ``OrderLocation``.
public struct OrderLocationFields: OrderKeyedFields {
    /// Degrees north, -90 to 90 (required).
    public var latitude: Double?
    /// Degrees east, -180 to 180 (required).
    public var longitude: Double?
    /// Metres above sea level.
    public var altitude: Double?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case latitude, longitude, altitude
    }
}

/// The person a shipment is for (Apple's `ShippingFulfillment.Recipient`: names and an address; contact details
/// belong to the order's ``OrderCustomer``).
public typealias OrderRecipient = OrderObject<OrderRecipientFields>

/// The typed keys of ``OrderRecipient``.
public struct OrderRecipientFields: OrderKeyedFields {
    /// The given name.
    public var givenName: String?
    /// The family name.
    public var familyName: String?
    /// The organization.
    public var organizationName: String?
    /// The shipping address.
    public var address: OrderAddress?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case givenName, familyName, organizationName, address
    }
}
