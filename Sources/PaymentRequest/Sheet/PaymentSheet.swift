import Foundation

/// What the payment sheet shows for a request, ready to render as text (``text()``) or HTML (``html()``) so a
/// merchant can review a request without a device.
///
/// Amounts are written as `USD 10.00` (code and amount, no locale); a pending total reads "Amount Pending".
public struct PaymentSheet: Hashable, Sendable {
    /// One summary line.
    public struct Line: Hashable, Sendable {
        /// The label as given.
        public var label: String
        /// `USD 10.00`, `USD 9.99 every month`, or `Pending`.
        public var amount: String
        /// Whether the label is longer than one sheet line (``ApplePayLimits/labelCharacterLimit``).
        public var isTooLong: Bool
    }

    /// One shipping or pickup choice.
    public struct ShippingChoice: Hashable, Sendable {
        /// The method's label.
        public var label: String
        /// Its detail line.
        public var detail: String
        /// Its cost, `USD 5.00`.
        public var amount: String
        /// `Mar 4 – Mar 6, 2026`, when the method has a date range.
        public var dates: String?
        /// Whether the sheet selects it (the first method).
        public var isSelected: Bool
    }

    /// "Pay <total label>": the line the buyer recognises on the statement.
    public var merchantLine: String
    /// The currency code.
    public var currencyCode: String
    /// The line items, in order.
    public var lineItems: [Line]
    /// "Shipping Method", "Delivery Method" or "Pickup Method".
    public var shippingTitle: String
    /// The shipping choices, in order.
    public var shippingChoices: [ShippingChoice]
    /// Shipping contact fields asked for, in words ("Name", "Postal Address").
    public var shippingContactFields: [String]
    /// Billing contact fields asked for, in words.
    public var billingContactFields: [String]
    /// Subscription, deferred or reload terms the sheet shows, one line each.
    public var paymentTerms: [String]
    /// Whether a coupon field is shown, and its prefilled code.
    public var couponField: String?
    /// The total amount, or "Amount Pending".
    public var totalAmount: String
    /// Whether the merchant line is longer than one sheet line.
    public var merchantLineTooLong: Bool
    /// Accepted networks, as given.
    public var networks: [String]

    /// Describes the sheet for a request (it need not be valid; unreadable amounts are shown as given).
    /// - Parameter request: The request.
    public init(request: ApplePayPaymentRequest) {
        let currency = Currency(code: request.currencyCode)
        func money(_ amount: String) -> String {
            guard let currency, let value = AmountString.decimal(amount) else { return "\(request.currencyCode) \(amount)" }
            return Money(value, currency).description
        }
        let limit = ApplePayLimits.labelCharacterLimit
        merchantLine = "Pay \(request.total.label)"
        merchantLineTooLong = merchantLine.count > limit
        currencyCode = request.currencyCode
        lineItems = (request.lineItems ?? []).map { item in
            var amount = item.isPending && item.amount.isEmpty ? "Pending" : money(item.amount)
            if item.isPending && !item.amount.isEmpty { amount += " (estimate)" }
            amount += Self.timingNote(item)
            return Line(label: item.label, amount: amount, isTooLong: item.label.count > limit)
        }
        switch request.shippingType {
        case ShippingType.delivery?: shippingTitle = "Delivery Method"
        case ShippingType.storePickup?, ShippingType.servicePickup?: shippingTitle = "Pickup Method"
        default: shippingTitle = "Shipping Method"
        }
        shippingChoices = (request.shippingMethods ?? []).enumerated().map { index, method in
            ShippingChoice(label: method.label, detail: method.detail, amount: money(method.amount),
                           dates: method.dateComponentsRange.map(Self.describe), isSelected: index == 0)
        }
        shippingContactFields = (request.requiredShippingContactFields ?? []).map(Self.words)
        billingContactFields = (request.requiredBillingContactFields ?? []).map(Self.words)
        paymentTerms = Self.terms(request, money: money)
        couponField = request.supportsCouponCode == true ? (request.couponCode ?? "") : nil
        totalAmount = request.total.isPending ? "Amount Pending" : money(request.total.amount)
        networks = request.supportedNetworks.map(\.rawValue)
    }

    static func timingNote(_ item: ApplePayLineItem) -> String {
        switch item.paymentTiming {
        case PaymentTiming.recurring?:
            let count = item.recurringPaymentIntervalCount ?? 1
            let unit = item.recurringPaymentIntervalUnit?.rawValue ?? "month"
            var note = count == 1 ? " every \(unit)" : " every \(count) \(unit)s"
            if let start = item.recurringPaymentStartDate.flatMap(JSONDate.parse) { note += " from \(day(start))" }
            if let end = item.recurringPaymentEndDate.flatMap(JSONDate.parse) { note += " until \(day(end))" }
            return note
        case PaymentTiming.deferred?:
            return item.deferredPaymentDate.flatMap(JSONDate.parse).map { " on \(day($0))" } ?? " later"
        case PaymentTiming.automaticReload?:
            return item.automaticReloadPaymentThresholdAmount.map { " when the balance falls below \($0)" } ?? ""
        default:
            return ""
        }
    }

    static func terms(_ request: ApplePayPaymentRequest, money: (String) -> String) -> [String] {
        var lines: [String] = []
        if let recurring = request.recurringPaymentRequest {
            lines.append("Subscription: \(recurring.paymentDescription)")
            if let trial = recurring.trialBilling { lines.append("Trial: \(trial.label) \(money(trial.amount))") }
            lines.append("Manage at \(recurring.managementURL)")
            if let agreement = recurring.billingAgreement { lines.append(agreement) }
        }
        if let deferred = request.deferredPaymentRequest {
            lines.append("Deferred payment: \(deferred.paymentDescription)")
            if let date = deferred.freeCancellationDate.flatMap(JSONDate.parse) {
                lines.append("Free cancellation until \(day(date))")
            }
            lines.append("Manage at \(deferred.managementURL)")
        }
        if let reload = request.automaticReloadPaymentRequest {
            lines.append("Automatic reload: \(reload.paymentDescription)")
            lines.append("Manage at \(reload.managementURL)")
        }
        return lines
    }

    static func words(_ field: ContactField) -> String {
        switch field {
        case .email: return "Email"
        case .name: return "Name"
        case .phone: return "Phone"
        case .postalAddress: return "Postal Address"
        case .phoneticName: return "Phonetic Name"
        default: return field.rawValue
        }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func describe(_ components: ApplePayDateComponents) -> String {
        let month = components.months.flatMap { (1...12).contains($0) ? months[$0 - 1] : nil } ?? "?"
        return "\(month) \(components.days.map(String.init) ?? "?"), \(components.years.map(String.init) ?? "?")"
    }

    static func describe(_ range: ApplePayDateComponentsRange) -> String {
        let start = describe(range.startDateComponents)
        let end = describe(range.endDateComponents)
        return start == end ? start : "\(start) – \(end)"
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return describe(ApplePayDateComponents(years: parts.year, months: parts.month, days: parts.day))
    }
}
