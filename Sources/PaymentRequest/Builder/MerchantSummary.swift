public import Foundation

/// Who the buyer is paying, as it must appear on the card statement.
///
/// The total's label is the statement name and the sheet shows it as "Pay <name>". When a platform takes the
/// payment for another seller, the label is "<end merchant> (via <platform>)", so the sheet reads
/// "Pay Corner Bakery (via Marketplace)" and the buyer recognises the charge.
public struct MerchantName: Hashable, Sendable {
    /// The seller of record: the name on the buyer's card statement.
    public var statementName: String
    /// The platform taking the payment for the seller, when there is one.
    public var platform: String?

    /// A merchant selling for itself.
    /// - Parameter statementName: The name on the buyer's statement.
    public init(_ statementName: String) {
        self.statementName = statementName
        self.platform = nil
    }

    /// A seller paid through a platform or marketplace.
    /// - Parameters:
    ///   - endMerchant: The seller of record.
    ///   - platform: The platform taking the payment.
    /// - Returns: A name labelled "<end merchant> (via <platform>)".
    public static func via(endMerchant: String, platform: String) -> MerchantName {
        var name = MerchantName(endMerchant)
        name.platform = platform
        return name
    }

    /// The total's label: `Bakery` or `Bakery (via Marketplace)`.
    public var totalLabel: String {
        platform.map { "\(statementName) (via \($0))" } ?? statementName
    }
}

/// A named charge or credit in the merchant's summary: tax, a fee, a donation, a discount.
public struct Charge: Hashable, Sendable {
    /// What the sheet shows, such as "Estimated Tax".
    public var label: String
    /// The amount; discounts may be given positive or negative, they always appear as negative line items.
    public var amount: Decimal

    /// Creates a charge.
    /// - Parameters:
    ///   - label: What the sheet shows.
    ///   - amount: The amount.
    public init(_ label: String, _ amount: Decimal) {
        self.label = label
        self.amount = amount
    }
}

/// A subscription charge: shown as a `recurring` line item; its first payment is taken now, so it counts in the
/// total.
public struct RecurringCharge: Hashable, Sendable {
    /// What the sheet shows, such as "Monthly plan".
    public var label: String
    /// The amount of each payment.
    public var amount: Decimal
    /// The interval's unit.
    public var intervalUnit: RecurringPaymentDateUnit
    /// Units per interval (every 3 months: `.month`, 3).
    public var intervalCount: Int
    /// First payment.
    public var startDate: Date?
    /// Last payment.
    public var endDate: Date?

    /// Creates a recurring charge.
    /// - Parameters:
    ///   - label: What the sheet shows.
    ///   - amount: Each payment.
    ///   - intervalUnit: The interval's unit.
    ///   - intervalCount: Units per interval.
    ///   - startDate: First payment.
    ///   - endDate: Last payment.
    public init(_ label: String, _ amount: Decimal, every intervalCount: Int = 1, _ intervalUnit: RecurringPaymentDateUnit,
                startDate: Date? = nil, endDate: Date? = nil) {
        self.label = label
        self.amount = amount
        self.intervalUnit = intervalUnit
        self.intervalCount = intervalCount
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// The merchant's side of a checkout: what is charged and why, never the products themselves.
///
/// Line items explain the total (subtotal, discounts, shipping, tax, fees, donations, recurring payments, costs not
/// known yet); there is deliberately no way to add a product as a line item.
public struct MerchantSummary: Hashable, Sendable {
    /// The goods' subtotal.
    public var subtotal: Decimal
    /// The subtotal's label.
    public var subtotalLabel: String = "Subtotal"
    /// Tax, when charged separately.
    public var tax: Charge?
    /// Discounts (shown as negative line items).
    public var discounts: [Charge] = []
    /// Fees, such as a service fee.
    public var fees: [Charge] = []
    /// Donations the buyer added.
    public var donations: [Charge] = []
    /// Subscription charges.
    public var recurringCharges: [RecurringCharge] = []
    /// Costs not known yet (a tip, a final weight); their labels are shown with the amount pending.
    public var pendingCosts: [String] = []

    /// Creates a summary.
    /// - Parameters:
    ///   - subtotal: The goods' subtotal.
    ///   - tax: Tax, when charged separately.
    public init(subtotal: Decimal, tax: Charge? = nil) {
        self.subtotal = subtotal
        self.tax = tax
    }
}
