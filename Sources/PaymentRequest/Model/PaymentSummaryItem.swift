public import Foundation

/// The native form of a request's amounts: PassKit's `paymentSummaryItems`, the line items followed by the total as
/// the last item (whose label PassKit shows as "Pay <label>").
public struct PaymentSummaryItem: Hashable, Sendable, Codable {
    /// `PKPaymentSummaryItemType`.
    public enum ItemType: String, Hashable, Sendable, Codable {
        /// `.final`: the amount is known.
        case final
        /// `.pending`: the amount is not known yet.
        case pending
    }

    /// The label.
    public var label: String
    /// The amount (`NSDecimalNumber` in PassKit); zero for a pending item without an amount.
    public var amount: Decimal
    /// Final or pending.
    public var type: ItemType
    /// When it is charged (`PKRecurringPaymentSummaryItem` and friends carry the details).
    public var paymentTiming: PaymentTiming

    /// Creates an item.
    /// - Parameters:
    ///   - label: The label.
    ///   - amount: The amount.
    ///   - type: Final or pending.
    ///   - paymentTiming: When it is charged.
    public init(label: String, amount: Decimal, type: ItemType, paymentTiming: PaymentTiming = .immediate) {
        self.label = label
        self.amount = amount
        self.type = type
        self.paymentTiming = paymentTiming
    }

    init(_ item: ApplePayLineItem) {
        self.init(label: item.label, amount: item.amountValue ?? 0, type: item.isPending ? .pending : .final,
                  paymentTiming: item.paymentTiming ?? .immediate)
    }
}

extension ApplePayPaymentRequest {
    /// PassKit's `paymentSummaryItems` for the same request: every line item, then the total last.
    public var paymentSummaryItems: [PaymentSummaryItem] {
        (lineItems ?? []).map(PaymentSummaryItem.init) + [PaymentSummaryItem(total)]
    }
}
