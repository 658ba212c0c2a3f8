public import PassModel

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
public struct OrderShippingFulfillment: Sendable, Equatable {
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
    /// Keys this model does not type (such as `lineItems`), kept as is.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An empty shipment.
    public init() {}
}

/// Items the customer collects.
public struct OrderPickupFulfillment: Sendable, Equatable {
    /// The identifier, unique within the order.
    public var fulfillmentIdentifier: String?
    /// `open`, `processing`, `readyForPickup`, `pickedUp`, `issue` or `cancelled`.
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// The pickup place's name.
    public var displayName: String?
    /// The pickup place's address.
    public var address: OrderAddress?
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
    /// Keys this model does not type (such as `location`, `lineItems`), kept as is.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An empty pickup.
    public init() {}
}

/// The person a shipment is for.
public struct OrderRecipient: Sendable, Equatable {
    /// The given name.
    public var givenName: String?
    /// The family name.
    public var familyName: String?
    /// The organization.
    public var organizationName: String?
    /// The shipping address.
    public var address: OrderAddress?
    /// The email address.
    public var emailAddress: String?
    /// The phone number.
    public var phoneNumber: String?
    /// Keys this model does not type.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An empty recipient.
    public init() {}
}

/// Items of the order sent back by the customer.
public struct OrderReturn: Sendable, Equatable {
    /// The identifier, unique within the order.
    public var returnIdentifier: String?
    /// The return's status (`open`, `processing`, `onTheWay`, `delivered`, `issue`, `cancelled`, ...).
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// When the return was started (RFC 3339).
    public var initiatedAt: String?
    /// The carrier's name.
    public var carrier: String?
    /// The carrier's tracking number.
    public var trackingNumber: String?
    /// The carrier's tracking page (https).
    public var trackingURL: String?
    /// Where the customer manages the return (https).
    public var returnManagementURL: String?
    /// Keys this model does not type (such as `lineItems`, `returnLabel`), kept as is.
    public var unknownKeys: [String: JSONValue] = [:]

    /// An empty return.
    public init() {}
}
