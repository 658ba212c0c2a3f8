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

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fulfillmentIdentifier, status, statusDescription, carrier, trackingNumber, trackingURL, shippingType
        case shippedAt, estimatedDeliveryAt, estimatedDeliveryWindowDuration, deliveredAt, recipient, notes
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

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case fulfillmentIdentifier, status, statusDescription, displayName, address, pickupAt, pickupWindowDuration
        case pickedUpAt, barcode, notes
    }
}

/// The person a shipment is for.
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
    /// The email address.
    public var emailAddress: String?
    /// The phone number.
    public var phoneNumber: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case givenName, familyName, organizationName, address, emailAddress, phoneNumber
    }
}

/// Items of the order sent back by the customer.
public typealias OrderReturn = OrderObject<OrderReturnFields>

/// The typed keys of ``OrderReturn``.
public struct OrderReturnFields: OrderKeyedFields {
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

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case returnIdentifier, status, statusDescription, initiatedAt, carrier, trackingNumber, trackingURL
        case returnManagementURL
    }
}
