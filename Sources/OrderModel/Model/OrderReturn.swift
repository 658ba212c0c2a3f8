/// Items of the order sent back by the customer (Apple's `Return`).
public typealias OrderReturn = OrderObject<OrderReturnFields>

/// The typed keys of ``OrderReturn``.
public struct OrderReturnFields: OrderKeyedFields {
    /// The identifier, unique within the order (required; never shown).
    public var returnIdentifier: String?
    /// `open`, `onTheWay`, `processing`, `issue`, `completed` or `cancelled` (required).
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// The return number the customer sees.
    public var returnNumber: String?
    /// When the return was started (RFC 3339).
    public var initiatedAt: String?
    /// The date by which the items must be dropped off (RFC 3339).
    public var dropOffBy: String?
    /// When the merchant received the items (RFC 3339).
    public var returnedAt: String?
    /// The carrier's name.
    public var carrier: String?
    /// A printable label in the bundle (PDF, JPEG or PNG).
    public var returnLabel: String?
    /// Where the customer manages the return (https).
    public var returnManagementURL: String?
    /// Notes for the customer.
    public var notes: String?
    /// The items returned.
    public var lineItems: [OrderLineItem]?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case returnIdentifier, status, statusDescription, returnNumber, initiatedAt, dropOffBy, returnedAt, carrier
        case returnLabel, returnManagementURL, notes, lineItems
    }
}

/// The order's return policy (Apple's `ReturnInfo`).
public typealias OrderReturnInfo = OrderObject<OrderReturnInfoFields>

/// The typed keys of ``OrderReturnInfo``.
public struct OrderReturnInfoFields: OrderKeyedFields {
    /// The return policy's page (https; required).
    public var returnPolicyURL: String?
    /// A short description of the policy, such as the return window.
    public var returnPolicyDescription: String?
    /// The last moment items may be returned (RFC 3339).
    public var returnDeadline: String?
    /// Whether Wallet counts down to ``returnDeadline`` (every item returnable until then).
    public var displayCountdown: Bool?
    /// Where the customer starts a return (https).
    public var returnManagementURL: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case returnPolicyURL, returnPolicyDescription, returnDeadline, displayCountdown, returnManagementURL
    }
}
