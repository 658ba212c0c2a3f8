/// A string value from one of Apple Pay JS's enumerations (`"final"`, `"supports3DS"`, `"storePickup"`, ...).
///
/// Decoding keeps any string, so ``ApplePayPaymentRequest/validate()`` can name an unknown value and its JSON path
/// instead of failing the whole document; ``isKnown`` says whether Apple Pay accepts it.
public protocol ApplePayValue: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {
    /// Every value Apple Pay accepts, in Apple's documented order.
    static var knownValues: [Self] { get }
    /// Creates a value from its string.
    /// - Parameter rawValue: The string as it appears in JSON.
    init(rawValue: String)
}

extension ApplePayValue {
    /// Whether Apple Pay accepts this value (exact match).
    public var isKnown: Bool { Self.knownValues.contains(self) }

    /// The string as it appears in JSON.
    public var description: String { rawValue }

    /// Decodes any string.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the string.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The known values as a list for messages: `final, pending`.
    static var knownList: String { knownValues.map(\.rawValue).joined(separator: ", ") }
}

/// `ApplePayLineItemType`: whether an amount is known (`final`) or not yet (`pending`).
public struct LineItemType: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The amount is known; the default.
    public static let final = LineItemType(rawValue: "final")
    /// The amount is not known yet (the sheet shows "Amount Pending" for a pending total).
    public static let pending = LineItemType(rawValue: "pending")
    /// `final`, `pending`.
    public static let knownValues: [LineItemType] = [.final, .pending]
}

/// `ApplePayPaymentTiming`: when a line item is charged.
public struct PaymentTiming: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Charged when the transaction completes; the default.
    public static let immediate = PaymentTiming(rawValue: "immediate")
    /// Charged on a regular schedule.
    public static let recurring = PaymentTiming(rawValue: "recurring")
    /// Charged later, on the item's `deferredPaymentDate`.
    public static let deferred = PaymentTiming(rawValue: "deferred")
    /// Charged when a balance falls below `automaticReloadPaymentThresholdAmount`.
    public static let automaticReload = PaymentTiming(rawValue: "automaticReload")
    /// All four.
    public static let knownValues: [PaymentTiming] = [.immediate, .recurring, .deferred, .automaticReload]
}

/// `ApplePayRecurringPaymentDateUnit`: the calendar unit of a recurring interval.
public struct RecurringPaymentDateUnit: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Years.
    public static let year = RecurringPaymentDateUnit(rawValue: "year")
    /// Months.
    public static let month = RecurringPaymentDateUnit(rawValue: "month")
    /// Days.
    public static let day = RecurringPaymentDateUnit(rawValue: "day")
    /// Hours.
    public static let hour = RecurringPaymentDateUnit(rawValue: "hour")
    /// Minutes.
    public static let minute = RecurringPaymentDateUnit(rawValue: "minute")
    /// All five.
    public static let knownValues: [RecurringPaymentDateUnit] = [.year, .month, .day, .hour, .minute]
}

/// `ApplePayShippingType`: how the goods reach the buyer; it sets the sheet's wording.
public struct ShippingType: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Shipped to the buyer's address; the default.
    public static let shipping = ShippingType(rawValue: "shipping")
    /// Delivered by the merchant (a courier, a restaurant).
    public static let delivery = ShippingType(rawValue: "delivery")
    /// Picked up by the buyer at a store.
    public static let storePickup = ShippingType(rawValue: "storePickup")
    /// Picked up at a service location.
    public static let servicePickup = ShippingType(rawValue: "servicePickup")
    /// All four.
    public static let knownValues: [ShippingType] = [.shipping, .delivery, .storePickup, .servicePickup]
}

/// `ApplePayShippingContactEditingMode`: whether the buyer may edit the shipping contact.
public struct ShippingContactEditingMode: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Editable.
    public static let available = ShippingContactEditingMode(rawValue: "available")
    /// The old name of ``available``; still accepted, deprecated by Apple.
    public static let enabled = ShippingContactEditingMode(rawValue: "enabled")
    /// Not editable: the address is the store's.
    public static let storePickup = ShippingContactEditingMode(rawValue: "storePickup")
    /// All three (``enabled`` draws a warning).
    public static let knownValues: [ShippingContactEditingMode] = [.available, .enabled, .storePickup]
}
