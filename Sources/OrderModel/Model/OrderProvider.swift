/// Who provides an order's data when it is not the merchant, such as an order-tracking service (Apple's
/// `OrderProvider`).
public typealias OrderProvider = OrderObject<OrderProviderFields>

/// The typed keys of ``OrderProvider``; all four are required.
public struct OrderProviderFields: OrderKeyedFields {
    /// The provider's name.
    public var displayName: String?
    /// The provider's website (https).
    public var url: String?
    /// The provider's logo for a dark appearance: an image in the bundle.
    public var trackingLogoNameDarkColorScheme: String?
    /// The provider's logo for a light appearance: an image in the bundle.
    public var trackingLogoNameLightColorScheme: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName, url, trackingLogoNameDarkColorScheme, trackingLogoNameLightColorScheme
    }
}

/// An app of the merchant's that Wallet offers with the order (Apple's `Application`).
public typealias OrderApplication = OrderObject<OrderApplicationFields>

/// The typed keys of ``OrderApplication``.
public struct OrderApplicationFields: OrderKeyedFields {
    /// The app's App Store identifier (a number; required).
    public var storeIdentifier: Int?
    /// A custom product page of the app.
    public var customProductPageIdentifier: String?
    /// A URL the app opens with.
    public var launchURL: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case storeIdentifier, customProductPageIdentifier, launchURL
    }
}
