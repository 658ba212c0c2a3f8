import PassModel

/// `order.json`: an order as Wallet shows it, with its merchant, items, payment, fulfillments and returns.
///
/// Every key Apple's Wallet Orders reference documents for the `Order` object and the objects it holds is typed here,
/// with Apple's types (amounts are decimal strings, `payment.paymentMethods` strings). Keys Apple does not document
/// are kept in ``OrderObject/unknownKeys``, written back unchanged and reported as warnings by ``OrderValidator``, as
/// ``Pass`` does for `pass.json`.
public typealias Order = OrderObject<OrderDocumentFields>

/// The typed keys of ``Order``.
public struct OrderDocumentFields: OrderKeyedFields {
    /// The version of the order schema; 1.
    public var schemaVersion: Int?
    /// The Order Type ID (`order.com.example.shop`), the same as the signing certificate's.
    public var orderTypeIdentifier: String?
    /// The order's identifier, unique within its order type; never shown.
    public var orderIdentifier: String?
    /// The kind of order: `ecommerce`.
    public var orderType: String?
    /// The order number the customer sees.
    public var orderNumber: String?
    /// When the customer placed the order (RFC 3339).
    public var createdAt: String?
    /// When the order last changed (RFC 3339); never before ``createdAt`` and increasing with every version.
    public var updatedAt: String?
    /// `open`, `completed` or `cancelled`.
    public var status: String?
    /// A short text about the status.
    public var statusDescription: String?
    /// The merchant.
    public var merchant: OrderMerchant?
    /// Where the customer manages the order on the merchant's site (https).
    public var orderManagementURL: String?
    /// The base URL of the orders web service (https).
    public var webServiceURL: String?
    /// The token devices send to the web service (`Authorization: AppleOrder <token>`).
    public var authenticationToken: String?
    /// Whether Wallet notifies the customer of changes: `enabled` (the default) or `disabledIfAppInstalled`.
    public var changeNotifications: String?
    /// The customer.
    public var customer: OrderCustomer?
    /// The items bought.
    public var lineItems: [OrderLineItem]?
    /// The payment.
    public var payment: OrderPayment?
    /// Shipping and pickup fulfillments, in the order Wallet lists them.
    public var fulfillments: [OrderFulfillment]?
    /// Returns of items of the order.
    public var returns: [OrderReturn]?
    /// A barcode for the order.
    public var barcode: OrderBarcode?
    /// The return policy and deadline.
    public var returnInfo: OrderReturnInfo?
    /// Who provides the order's data when it is not the merchant (an order-tracking service).
    public var orderProvider: OrderProvider?
    /// The merchant's apps, which Wallet offers to open or install.
    public var associatedApplications: [OrderApplication]?
    /// The App IDs of the merchant's apps (`A1B2C3D4E5.com.example.shop`).
    public var associatedApplicationIdentifiers: [String]?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion, orderTypeIdentifier, orderIdentifier, orderType, orderNumber, createdAt, updatedAt
        case status, statusDescription, merchant, orderManagementURL, webServiceURL, authenticationToken
        case changeNotifications, customer, lineItems, payment, fulfillments, returns, barcode, returnInfo
        case orderProvider, associatedApplications, associatedApplicationIdentifiers
    }
}

/// The merchant who sold the order.
public typealias OrderMerchant = OrderObject<OrderMerchantFields>

/// The typed keys of ``OrderMerchant``.
public struct OrderMerchantFields: OrderKeyedFields {
    /// The name Wallet shows.
    public var displayName: String?
    /// The Apple Pay merchant identifier (`merchant.com.example`).
    public var merchantIdentifier: String?
    /// The merchant's website (https).
    public var url: String?
    /// The logo image's path in the bundle (optional: Wallet shows the merchant's name without it).
    public var logo: String?
    /// A Messages for Business URL.
    public var businessChatURL: String?
    /// Where the customer contacts the merchant (https).
    public var contactURL: String?
    /// The merchant's email address.
    public var emailAddress: String?
    /// The merchant's phone number.
    public var phoneNumber: String?
    /// The merchant's address.
    public var address: OrderAddress?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName, merchantIdentifier, url, logo, businessChatURL, contactURL, emailAddress, phoneNumber, address
    }
}

/// The customer who placed the order.
public typealias OrderCustomer = OrderObject<OrderCustomerFields>

/// The typed keys of ``OrderCustomer``.
public struct OrderCustomerFields: OrderKeyedFields {
    /// The given name.
    public var givenName: String?
    /// The family name.
    public var familyName: String?
    /// The email address.
    public var emailAddress: String?
    /// The phone number.
    public var phoneNumber: String?
    /// The organization.
    public var organizationName: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case givenName, familyName, emailAddress, phoneNumber, organizationName
    }
}

/// A postal address (a merchant's, a pickup place's, a shipment's recipient's).
public typealias OrderAddress = OrderObject<OrderAddressFields>

/// The typed keys of ``OrderAddress``.
public struct OrderAddressFields: OrderKeyedFields {
    /// Street lines.
    public var addressLines: [String]?
    /// The neighbourhood.
    public var subLocality: String?
    /// The city.
    public var locality: String?
    /// The county or district.
    public var subAdministrativeArea: String?
    /// The state or province.
    public var administrativeArea: String?
    /// The postal code.
    public var postalCode: String?
    /// The two-letter ISO 3166 country code.
    public var countryCode: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case addressLines, subLocality, locality, subAdministrativeArea, administrativeArea, postalCode, countryCode
    }
}
