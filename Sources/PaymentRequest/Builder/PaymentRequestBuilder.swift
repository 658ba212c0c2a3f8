import Foundation

/// Builds an `ApplePayPaymentRequest` from a merchant's summary so that the right request is the easy one: amounts
/// are `Decimal`s rounded half up to the currency's minor units, the total is exactly the sum of the final line
/// items, any pending cost makes the total pending, and the total's label is the statement name.
///
/// ```swift
/// var builder = try PaymentRequestBuilder(merchant: .via(endMerchant: "Corner Bakery", platform: "Marketplace"),
///                                         countryCode: "US", currencyCode: "USD",
///                                         summary: MerchantSummary(subtotal: 40, tax: Charge("Tax", Decimal(string: "3.20")!)))
/// builder.shippingOptions = [ShippingOption(identifier: "std", label: "Standard", amount: 5, businessDays: 3...5)]
/// let request = try builder.build()   // total "48.20", label "Corner Bakery (via Marketplace)"
/// ```
public struct PaymentRequestBuilder: Sendable {
    /// Who is paid.
    public var merchant: MerchantName
    /// The merchant's ISO 3166-1 country.
    public let countryCode: String
    /// The currency of every amount.
    public let currency: Currency
    /// What is charged.
    public var summary: MerchantSummary
    /// Networks accepted.
    public var supportedNetworks: [PaymentNetwork] = [.visa, .masterCard, .amex, .discover]
    /// Processing supported; `supports3DS` is always included.
    public var merchantCapabilities: [MerchantCapability] = [.supports3DS]
    /// Shipping, delivery or pickup; `nil` for nothing to ship.
    public var shippingType: ShippingType?
    /// Delivery or pickup choices.
    public var shippingOptions: [ShippingOption] = []
    /// The chosen option's identifier; `nil` means the first. Its cost flows into the total.
    public var selectedShippingIdentifier: String?
    /// Shipping contact fields to ask for.
    public var requiredShippingContactFields: [ContactField] = []
    /// Billing contact fields to ask for.
    public var requiredBillingContactFields: [ContactField] = []
    /// Subscription terms; with ``MerchantSummary/recurringCharges`` it adds a `recurringPaymentRequest`.
    public var subscription: Subscription?
    /// Whether the sheet offers a coupon field.
    public var supportsCouponCode: Bool = false
    /// The clock and calendar for delivery dates.
    public var calendar: BusinessDayCalendar

    /// Terms of a subscription: what it is and where the buyer manages it.
    public struct Subscription: Hashable, Sendable {
        /// What the subscription is.
        public var paymentDescription: String
        /// Where the buyer manages or cancels it.
        public var managementURL: String
        /// Terms shown before authorizing.
        public var billingAgreement: String?
        /// Where Apple sends merchant-token notifications.
        public var tokenNotificationURL: String?

        /// Creates subscription terms.
        /// - Parameters:
        ///   - paymentDescription: What the subscription is.
        ///   - managementURL: Where the buyer manages it.
        public init(paymentDescription: String, managementURL: String) {
            self.paymentDescription = paymentDescription
            self.managementURL = managementURL
        }
    }

    /// Creates a builder.
    /// - Parameters:
    ///   - merchant: Who is paid.
    ///   - countryCode: The merchant's ISO 3166-1 alpha-2 country.
    ///   - currencyCode: An ISO 4217 code.
    ///   - summary: What is charged.
    ///   - calendar: Clock and calendar for delivery dates.
    /// - Throws: ``PaymentRequestError`` for an unknown country or currency.
    public init(merchant: MerchantName, countryCode: String, currencyCode: String, summary: MerchantSummary,
                calendar: BusinessDayCalendar = BusinessDayCalendar()) throws {
        guard let currency = Currency(code: currencyCode) else {
            throw PaymentRequestError(code: .unknownCurrency, reason: "\"\(currencyCode)\" is not an ISO 4217 currency code")
        }
        guard CountryCode.isValid(countryCode) else {
            throw PaymentRequestError(code: .unknownCountry,
                                      reason: "\"\(countryCode)\" is not an ISO 3166-1 alpha-2 country code")
        }
        self.merchant = merchant
        self.countryCode = countryCode
        self.currency = currency
        self.summary = summary
        self.calendar = calendar
    }

    /// The option whose cost is in the total: the selected one, or the first.
    /// - Throws: ``PaymentRequestError`` when ``selectedShippingIdentifier`` names no option.
    public func selectedShippingOption() throws -> ShippingOption? {
        guard let identifier = selectedShippingIdentifier else { return shippingOptions.first }
        guard let option = shippingOptions.first(where: { $0.identifier == identifier }) else {
            throw PaymentRequestError(code: .unknownShippingMethod, reason: "no shipping option \"\(identifier)\"")
        }
        return option
    }

    /// The line items explaining the total, in sheet order: subtotal, discounts, shipping, tax, fees, donations,
    /// recurring payments, pending costs.
    /// - Returns: Line items with amounts written to the currency's minor units.
    /// - Throws: ``PaymentRequestError`` for a negative charge, an empty label or an unknown selected option.
    public func lineItems() throws -> [ApplePayLineItem] {
        var items = [try item(summary.subtotalLabel, summary.subtotal)]
        for discount in summary.discounts {
            items.append(try item(discount.label, -abs(discount.amount), allowNegative: true))
        }
        if let option = try selectedShippingOption() {
            items.append(try item(shippingType == .delivery ? "Delivery" : "Shipping", option.amount))
        }
        if let tax = summary.tax { items.append(try item(tax.label, tax.amount)) }
        for fee in summary.fees { items.append(try item(fee.label, fee.amount)) }
        for donation in summary.donations { items.append(try item(donation.label, donation.amount)) }
        for charge in summary.recurringCharges {
            var line = try item(charge.label, charge.amount)
            line.type = .final
            line.paymentTiming = .recurring
            line.recurringPaymentIntervalUnit = charge.intervalUnit
            line.recurringPaymentIntervalCount = charge.intervalCount
            line.recurringPaymentStartDate = charge.startDate.map(JSONDate.string)
            line.recurringPaymentEndDate = charge.endDate.map(JSONDate.string)
            items.append(line)
        }
        for label in summary.pendingCosts {
            try requireLabel(label)
            items.append(ApplePayLineItem(label: label, amount: "", type: .pending))
        }
        return items
    }

    /// The total: the statement name and the exact sum of the final line items; pending when any cost is.
    /// - Parameter lineItems: Line items from ``lineItems()``.
    /// - Returns: The total line item.
    public func total(for lineItems: [ApplePayLineItem]) -> ApplePayLineItem {
        let sum = lineItems.filter { !$0.isPending }.reduce(Money.zero(currency)) { partial, line in
            partial + Money(line.amountValue ?? 0, currency)
        }
        let pending = lineItems.contains(where: \.isPending)
        return ApplePayLineItem(label: merchant.totalLabel, amount: sum.string, type: pending ? .pending : .final)
    }

    /// The shipping methods, the selected one first (the sheet selects the first).
    /// - Returns: Methods with details and estimated dates.
    /// - Throws: ``PaymentRequestError`` for a negative cost or an unknown selected option.
    public func shippingMethods() throws -> [ApplePayShippingMethod] {
        let selected = try selectedShippingOption()
        let ordered = selected.map { chosen in [chosen] + shippingOptions.filter { $0.identifier != chosen.identifier } }
            ?? shippingOptions
        return try ordered.map { option in
            ApplePayShippingMethod(label: option.label, detail: option.computedDetail(for: shippingType),
                                   amount: try item(option.label, option.amount).amount, identifier: option.identifier,
                                   dateComponentsRange: calendar.range(option.businessDays))
        }
    }

    /// Builds and validates the request.
    /// - Returns: A request that passes ``ApplePayPaymentRequest/validate()`` (warnings allowed).
    /// - Throws: ``PaymentRequestError`` for a bad summary, or `invalidRequest` with the validation report.
    public func build() throws -> ApplePayPaymentRequest {
        let items = try lineItems()
        var capabilities = merchantCapabilities
        if !capabilities.contains(.supports3DS) { capabilities.insert(.supports3DS, at: 0) }
        var request = ApplePayPaymentRequest(countryCode: countryCode, currencyCode: currency.code,
                                             merchantCapabilities: capabilities, supportedNetworks: supportedNetworks,
                                             total: total(for: items))
        request.lineItems = items
        if !shippingOptions.isEmpty {
            request.shippingType = shippingType ?? .shipping
            request.shippingMethods = try shippingMethods()
        }
        if !requiredShippingContactFields.isEmpty { request.requiredShippingContactFields = requiredShippingContactFields }
        if !requiredBillingContactFields.isEmpty { request.requiredBillingContactFields = requiredBillingContactFields }
        if supportsCouponCode { request.supportsCouponCode = true }
        if let subscription, let regular = items.first(where: { $0.paymentTiming == .recurring }) {
            var recurring = ApplePayRecurringPaymentRequest(paymentDescription: subscription.paymentDescription,
                                                            regularBilling: regular,
                                                            managementURL: subscription.managementURL)
            recurring.billingAgreement = subscription.billingAgreement
            recurring.tokenNotificationURL = subscription.tokenNotificationURL
            request.recurringPaymentRequest = recurring
        }
        let report = request.validate()
        guard report.isValid else { throw PaymentRequestError.invalid(report) }
        return request
    }

    /// A final line item with the amount rounded half up to minor units.
    func item(_ label: String, _ amount: Decimal, allowNegative: Bool = false) throws -> ApplePayLineItem {
        try requireLabel(label)
        guard allowNegative || amount >= 0 else {
            throw PaymentRequestError.invalidSummary("\"\(label)\" must not be negative")
        }
        return ApplePayLineItem(label: label, amount: Money(amount, currency).string, type: .final)
    }

    private func requireLabel(_ label: String) throws {
        if label.trimmingCharacters(in: .whitespaces).isEmpty {
            throw PaymentRequestError.invalidSummary("a line item label must not be empty")
        }
    }
}
