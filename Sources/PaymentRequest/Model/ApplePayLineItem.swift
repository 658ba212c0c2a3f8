public import Foundation

/// `ApplePayLineItem`: one line of the payment sheet's summary (tax, shipping, a discount, a subscription) or the
/// total.
///
/// The JSON is exactly Apple Pay JS's. `amount` is the decimal string Safari receives; ``amountValue`` reads it as a
/// `Decimal`. Dates are JSON strings (what `JSON.stringify` makes of a JavaScript `Date`), such as
/// `2026-01-01T00:00:00.000Z`.
public struct ApplePayLineItem: Codable, Hashable, Sendable {
    /// `final` (default) or `pending`.
    public var type: LineItemType?
    /// What the charge is, as the sheet shows it; for the total, the name on the buyer's card statement.
    public var label: String
    /// The amount as a decimal string (`"10.00"`); may be empty for a pending line item.
    public var amount: String
    /// When the item is charged (default `immediate`).
    public var paymentTiming: PaymentTiming?
    /// First charge of a recurring item.
    public var recurringPaymentStartDate: String?
    /// Unit of the recurring interval.
    public var recurringPaymentIntervalUnit: RecurringPaymentDateUnit?
    /// Number of units between charges.
    public var recurringPaymentIntervalCount: Int?
    /// Last charge of a recurring item.
    public var recurringPaymentEndDate: String?
    /// When a deferred item is charged.
    public var deferredPaymentDate: String?
    /// The balance below which an automatic reload is charged, as a decimal string.
    public var automaticReloadPaymentThresholdAmount: String?

    /// Creates a line item.
    /// - Parameters:
    ///   - label: What the charge is.
    ///   - amount: The amount as a decimal string.
    ///   - type: `final` or `pending`; `nil` means final.
    ///   - paymentTiming: When it is charged; `nil` means immediately.
    public init(label: String, amount: String, type: LineItemType? = nil, paymentTiming: PaymentTiming? = nil) {
        self.label = label
        self.amount = amount
        self.type = type
        self.paymentTiming = paymentTiming
    }

    /// The amount as a `Decimal`, or `nil` when it does not follow the amount grammar.
    public var amountValue: Decimal? { AmountString.decimal(amount) }

    /// Whether the amount is not known yet.
    public var isPending: Bool { type == .pending }

    private enum CodingKeys: String, CodingKey {
        case type, label, amount, paymentTiming, recurringPaymentStartDate, recurringPaymentIntervalUnit
        case recurringPaymentIntervalCount, recurringPaymentEndDate, deferredPaymentDate
        case automaticReloadPaymentThresholdAmount
    }

    /// Decodes a line item; a missing `label` or `amount` decodes as empty so validation can report it by path.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(LineItemType.self, forKey: .type)
        label = try container.decodeIfPresent(String.self, forKey: .label) ?? ""
        amount = try container.decodeIfPresent(String.self, forKey: .amount) ?? ""
        paymentTiming = try container.decodeIfPresent(PaymentTiming.self, forKey: .paymentTiming)
        recurringPaymentStartDate = try container.decodeIfPresent(String.self, forKey: .recurringPaymentStartDate)
        recurringPaymentIntervalUnit = try container.decodeIfPresent(RecurringPaymentDateUnit.self,
                                                                     forKey: .recurringPaymentIntervalUnit)
        recurringPaymentIntervalCount = try container.decodeIfPresent(Int.self, forKey: .recurringPaymentIntervalCount)
        recurringPaymentEndDate = try container.decodeIfPresent(String.self, forKey: .recurringPaymentEndDate)
        deferredPaymentDate = try container.decodeIfPresent(String.self, forKey: .deferredPaymentDate)
        automaticReloadPaymentThresholdAmount = try container.decodeIfPresent(
            String.self, forKey: .automaticReloadPaymentThresholdAmount)
    }
}

/// `ApplePayShippingMethod`: one delivery or pickup choice on the sheet.
public struct ApplePayShippingMethod: Codable, Hashable, Sendable {
    /// Short name, such as "Standard Shipping".
    public var label: String
    /// More detail, such as "Arrives in 3-5 business days".
    public var detail: String
    /// Cost as a decimal string; never negative.
    public var amount: String
    /// The merchant's identifier for the method, sent back when the buyer picks it.
    public var identifier: String
    /// Estimated delivery or pickup dates.
    public var dateComponentsRange: ApplePayDateComponentsRange?

    /// Creates a shipping method.
    /// - Parameters:
    ///   - label: Short name.
    ///   - detail: More detail.
    ///   - amount: Cost as a decimal string.
    ///   - identifier: The merchant's identifier.
    ///   - dateComponentsRange: Estimated dates.
    public init(label: String, detail: String, amount: String, identifier: String,
                dateComponentsRange: ApplePayDateComponentsRange? = nil) {
        self.label = label
        self.detail = detail
        self.amount = amount
        self.identifier = identifier
        self.dateComponentsRange = dateComponentsRange
    }

    /// The amount as a `Decimal`, or `nil` when it does not follow the amount grammar.
    public var amountValue: Decimal? { AmountString.decimal(amount) }
}

/// `ApplePayDateComponentsRange`: the first and last day of an estimate.
public struct ApplePayDateComponentsRange: Codable, Hashable, Sendable {
    /// The earliest date.
    public var startDateComponents: ApplePayDateComponents
    /// The latest date.
    public var endDateComponents: ApplePayDateComponents

    /// Creates a range.
    /// - Parameters:
    ///   - startDateComponents: The earliest date.
    ///   - endDateComponents: The latest date.
    public init(startDateComponents: ApplePayDateComponents, endDateComponents: ApplePayDateComponents) {
        self.startDateComponents = startDateComponents
        self.endDateComponents = endDateComponents
    }
}

/// `ApplePayDateComponents`: a calendar date as year, month and day numbers (and optionally an hour).
public struct ApplePayDateComponents: Codable, Hashable, Sendable, Comparable {
    /// Year, such as 2026.
    public var years: Int?
    /// Month, 1-12.
    public var months: Int?
    /// Day of the month, 1-31.
    public var days: Int?
    /// Hour, 0-23.
    public var hours: Int?

    /// Creates date components.
    /// - Parameters:
    ///   - years: Year.
    ///   - months: Month.
    ///   - days: Day.
    ///   - hours: Hour.
    public init(years: Int? = nil, months: Int? = nil, days: Int? = nil, hours: Int? = nil) {
        self.years = years
        self.months = months
        self.days = days
        self.hours = hours
    }

    /// Compares year, month, day, then hour (missing parts count as 0).
    /// - Parameters:
    ///   - lhs: A date.
    ///   - rhs: Another date.
    /// - Returns: Whether `lhs` comes first.
    public static func < (lhs: ApplePayDateComponents, rhs: ApplePayDateComponents) -> Bool {
        let left = [lhs.years ?? 0, lhs.months ?? 0, lhs.days ?? 0, lhs.hours ?? 0]
        let right = [rhs.years ?? 0, rhs.months ?? 0, rhs.days ?? 0, rhs.hours ?? 0]
        return left.lexicographicallyPrecedes(right)
    }
}
