public import Foundation

extension RequestChecker {
    /// The total: label, amount grammar and range, type, and that it equals the final line items' sum.
    mutating func checkTotal(_ total: ApplePayLineItem, lineItems: [ApplePayLineItem]?, path: String) {
        if total.label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            error("\(path).label",
                  "must not be empty: it is the name on the buyer's card statement, shown as \"Pay <label>\"")
        } else {
            checkLabelLength(total.label, path: "\(path).label", prefix: "Pay ")
        }
        checkType(total.type, path: "\(path).type")
        if let value = checkAmount(total.amount, path: "\(path).amount", allowNegative: false),
           value > ApplePayLimits.maximumTotal {
            error("\(path).amount", "must not be more than 100000000")
        }
        guard let lineItems, !lineItems.isEmpty else { return }

        if lineItems.contains(where: \.isPending) && total.type != .pending {
            warning("\(path).type", "should be \"pending\" because a line item is pending; "
                + "the sheet then shows \"Amount Pending\"")
        }
        guard total.type != .pending, let totalValue = AmountString.decimal(total.amount) else { return }
        var sum = Decimal(0)
        for item in lineItems where !item.isPending {
            guard let value = item.amountValue else { return }  // already reported
            sum += value
        }
        if sum != totalValue {
            error("\(path).amount", "is \(total.amount) but the final line items add up to \(format(sum))")
        }
    }

    mutating func checkType(_ type: LineItemType?, path: String) {
        if let type, !type.isKnown {
            error(path, "\"\(type)\" is not a line item type (\(LineItemType.knownList))")
        }
    }

    mutating func checkLineItems(_ items: [ApplePayLineItem]?, path: String) {
        guard let items else { return }
        if items.isEmpty {
            error(path, "must not be empty when present; leave it out instead")
        }
        for (index, item) in items.enumerated() {
            checkLineItem(item, path: "\(path)[\(index)]", labelRequired: false)
        }
    }

    /// One line item: label, type, amount, timing and its recurring, deferred and reload members.
    mutating func checkLineItem(_ item: ApplePayLineItem, path: String, labelRequired: Bool) {
        if item.label.isEmpty {
            if labelRequired {
                error("\(path).label", "is required")
            } else {
                warning("\(path).label", "is empty; the sheet shows a charge without a name")
            }
        } else {
            checkLabelLength(item.label, path: "\(path).label")
        }
        checkType(item.type, path: "\(path).type")
        checkAmount(item.amount, path: "\(path).amount", allowNegative: true, allowEmpty: item.isPending)
        if let timing = item.paymentTiming, !timing.isKnown {
            error("\(path).paymentTiming", "\"\(timing)\" is not a payment timing (\(PaymentTiming.knownList))")
        }
        if let unit = item.recurringPaymentIntervalUnit, !unit.isKnown {
            error("\(path).recurringPaymentIntervalUnit",
                  "\"\(unit)\" is not a recurring payment date unit (\(RecurringPaymentDateUnit.knownList))")
        }
        if let count = item.recurringPaymentIntervalCount, count < 1 {
            error("\(path).recurringPaymentIntervalCount", "must be at least 1")
        }
        let start = checkDate(item.recurringPaymentStartDate, path: "\(path).recurringPaymentStartDate")
        let end = checkDate(item.recurringPaymentEndDate, path: "\(path).recurringPaymentEndDate")
        if let start, let end, end < start {
            warning("\(path).recurringPaymentEndDate", "is before recurringPaymentStartDate")
        }
        checkDate(item.deferredPaymentDate, path: "\(path).deferredPaymentDate")
        if let threshold = item.automaticReloadPaymentThresholdAmount {
            checkAmount(threshold, path: "\(path).automaticReloadPaymentThresholdAmount", allowNegative: false)
        }
    }

    /// A JSON date: what `JSON.stringify` writes for a JavaScript `Date` (ISO 8601), or a plain `YYYY-MM-DD`.
    @discardableResult
    mutating func checkDate(_ string: String?, path: String) -> Date? {
        guard let string else { return nil }
        if let date = JSONDate.parse(string) { return date }
        error(path, "\"\(string)\" is not an ISO 8601 date such as \"2026-01-31T00:00:00Z\"")
        return nil
    }
}

/// Reading and writing the dates Apple Pay JS receives as JSON strings.
public enum JSONDate {
    /// Parses `2026-01-31`, `2026-01-31T10:00:00Z`, `2026-01-31T10:00:00.000Z` or with a `+01:00` offset.
    /// - Parameter string: The JSON string.
    /// - Returns: The date, or `nil`.
    public static func parse(_ string: String) -> Date? {
        for style in styles {
            if let date = try? style.parse(string) { return date }
        }
        return nil
    }

    /// Writes a date as `JSON.stringify` does for a JavaScript `Date`: `2026-01-31T10:00:00.000Z`.
    /// - Parameter date: The date.
    /// - Returns: The string.
    public static func string(_ date: Date) -> String {
        date.formatted(fractional)
    }

    // Format styles are values, cheap to use from any thread (a formatter object per call cost more than the rest of a
    // checkout session's answer).
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let styles: [Date.ISO8601FormatStyle] = [
        fractional, Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle().year().month().day(),
    ]
}
