public import Foundation
public import PaymentRequest

/// Prices a session from the merchant configuration through ``PaymentRequestBuilder``, so the line items and the
/// total always add up: subtotal, coupon discount (a negative line), shipping, tax, total.
///
/// Each amount is rounded half up to the currency's minor units before it is summed, so the total is exactly the sum
/// of the lines the buyer sees.
public struct PricingEngine: Sendable {
    /// The merchant configuration.
    public let configuration: MerchantConfiguration
    /// The currency of every amount.
    public let currency: Currency
    /// Business days for delivery estimates, with the clock.
    public let calendar: BusinessDayCalendar

    /// Creates an engine.
    /// - Parameters:
    ///   - configuration: A checked merchant configuration.
    ///   - calendar: Calendar and clock for delivery dates and coupon expiry.
    /// - Throws: ``CheckoutError`` when the currency is unknown.
    public init(configuration: MerchantConfiguration, calendar: BusinessDayCalendar = BusinessDayCalendar()) throws {
        guard let currency = Currency(code: configuration.currencyCode) else {
            throw CheckoutError.configuration("currencyCode", "\"\(configuration.currencyCode)\" is not an ISO 4217 code")
        }
        self.configuration = configuration
        self.currency = currency
        self.calendar = calendar
    }

    /// What a coupon code gives now.
    public enum CouponLookup: Sendable, Equatable {
        /// The code applies.
        case valid(MerchantConfiguration.Coupon)
        /// The code exists but expired.
        case expired
        /// No such code.
        case invalid
    }

    /// Looks a code up, ignoring case.
    /// - Parameter code: The code the buyer typed.
    /// - Returns: Valid, expired or invalid.
    public func coupon(_ code: String) -> CouponLookup {
        coupon(code, at: calendar.now())
    }

    /// Looks a code up as it was at a given time, ignoring case.
    /// - Parameters:
    ///   - code: The code.
    ///   - date: When it must have been valid.
    /// - Returns: Valid, expired or invalid.
    public func coupon(_ code: String, at date: Date) -> CouponLookup {
        let wanted = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard let coupon = configuration.coupons.first(where: { $0.code.uppercased() == wanted }) else { return .invalid }
        if let expires = coupon.expires, expires <= date { return .expired }
        return .valid(coupon)
    }

    /// Whether any of the session's goods ship. A merchant without shipping methods still ships them: the sheet asks
    /// for the address (when `requiredShippingContactFields` has it) and offers no method, at no shipping charge.
    /// - Parameter session: The session.
    /// - Returns: `true` when the sheet asks for the address and, where the merchant has them, a shipping method.
    public func requiresShipping(_ session: CheckoutSession) -> Bool {
        if let summary = session.summary { return summary.requiresShipping }
        return session.items.contains { $0.requiresShipping }
    }

    /// The contact fields asked of a buyer whose goods do not ship: the merchant's `requiredShippingContactFields`
    /// without the postal address.
    public static func contactFieldsWithoutShipping(_ fields: [ContactField]) -> [ContactField] {
        fields.filter { $0 != .postalAddress }
    }

    /// The contact fields the session's shipping contact must have: all of the merchant's when goods ship, else
    /// those of ``contactFieldsWithoutShipping(_:)``.
    public func requiredShippingContactFields(_ session: CheckoutSession) -> [ContactField] {
        requiresShipping(session) ? configuration.requiredShippingContactFields
            : Self.contactFieldsWithoutShipping(configuration.requiredShippingContactFields)
    }

    /// The shipping options for the session's address: all of them before an address is known.
    /// - Parameter contact: The redacted address, if known.
    /// - Returns: The options, empty when the address is not served.
    public func shippingOptions(for contact: RedactedContact?) -> [ShippingOption] {
        if let contact, ShippingRegions(configuration.shippingRegions).problem(with: contact) != nil { return [] }
        return configuration.shippingMethods.map {
            ShippingOption(identifier: $0.identifier, label: $0.label, amount: $0.amount,
                           businessDays: $0.minimumBusinessDays...$0.maximumBusinessDays, detail: $0.detail)
        }
    }

    /// The shipping options of the session as it stands: none while its last address is not served.
    /// - Parameter session: The session.
    /// - Returns: The options the buyer may pick from.
    public func shippingOptions(for session: CheckoutSession) -> [ShippingOption] {
        session.shippingAddressProblem == nil ? shippingOptions(for: session.shippingContact) : []
    }

    /// The pending line standing for shipping while the buyer's address is not served.
    static let shippingLabel = "Shipping"

    /// The builder for the session as it stands: every amount computed and rounded.
    /// - Parameter session: The session.
    /// - Returns: A builder whose line items and total are the session's.
    /// - Throws: ``PaymentRequestError`` for impossible amounts, ``CheckoutError`` for an unknown shipping method.
    public func builder(for session: CheckoutSession) throws -> PaymentRequestBuilder {
        let subtotal = round(session.summary?.subtotal ?? session.items.reduce(0) { $0 + $1.amount })
        var summary = MerchantSummary(subtotal: subtotal)
        var discount: Decimal = 0
        // A coupon is honoured for the life of the session when it was valid as the sheet applied it.
        if let code = session.couponCode,
           case .valid(let coupon) = self.coupon(code, at: session.couponAppliedAt ?? calendar.now()) {
            if let percent = coupon.percentOff {
                discount = round(subtotal * percent / 100)
            } else if let amount = coupon.amountOff {
                discount = min(round(amount), subtotal)
            }
            if discount > 0 { summary.discounts = [Charge(coupon.lineLabel, discount)] }
        }
        var builder = try PaymentRequestBuilder(merchant: configuration.merchantName,
                                                countryCode: configuration.countryCode,
                                                currencyCode: configuration.currencyCode, summary: summary,
                                                calendar: calendar)
        builder.supportedNetworks = configuration.supportedNetworks
        builder.merchantCapabilities = configuration.merchantCapabilities
        builder.requiredBillingContactFields = configuration.requiredBillingContactFields
        builder.supportsCouponCode = !configuration.coupons.isEmpty
        var shipping: Decimal = 0
        let ships = requiresShipping(session)
        if ships {
            builder.shippingType = .shipping
            builder.shippingOptions = shippingOptions(for: session)
            builder.requiredShippingContactFields = configuration.requiredShippingContactFields
            // An address that is not served has no shipping price: the cost stays pending until one that is.
            if session.shippingAddressProblem != nil { builder.summary.pendingCosts = [Self.shippingLabel] }
            if let selected = session.selectedShippingMethod,
               builder.shippingOptions.contains(where: { $0.identifier == selected }) {
                builder.selectedShippingIdentifier = selected
            }
            shipping = try round(builder.selectedShippingOption()?.amount ?? 0)
        } else {
            // Nothing to deliver: no address, but the name, email and phone the merchant asks for are still asked
            // (Apple: request the name contact field directly when no address is needed), or a ticket's buyer could
            // not be reached.
            builder.requiredShippingContactFields = Self.contactFieldsWithoutShipping(configuration.requiredShippingContactFields)
        }
        if let given = session.summary?.tax {
            builder.summary.tax = Charge(configuration.tax?.label ?? "Tax", round(given))
        } else if let rule = configuration.tax {
            if rule.pendingUntilAddressKnown && ships && session.shippingContact == nil {
                builder.summary.pendingCosts.append(rule.label)
            } else {
                let base = subtotal - discount + (rule.appliesToShipping ? shipping : 0)
                builder.summary.tax = Charge(rule.label, round(max(base, 0) * rule.rate))
            }
        }
        return builder
    }

    /// The Apple Pay payment request for the session, with the `applicationData` tying tokens to it (Base64 of
    /// ``CheckoutSession/applicationData``) and the accepted coupon prefilled.
    /// - Parameter session: The session.
    /// - Returns: A request that passes validation.
    /// - Throws: ``PaymentRequestError`` when it cannot be built.
    public func paymentRequest(for session: CheckoutSession) throws -> ApplePayPaymentRequest {
        var request = try builder(for: session).build()
        request.applicationData = session.applicationData.base64EncodedString()
        if let code = session.couponCode { request.couponCode = code }
        return request
    }

    /// The largest total the session can reach on the sheet: its goods with no coupon, the dearest shipping method
    /// and the tax on both. Coupons only lower a total and an address only narrows the shipping methods, so no
    /// later sheet event can take the session above it.
    /// - Parameter session: The session as it is created.
    /// - Returns: The upper bound of its total, rounded to minor units.
    public func highestTotal(for session: CheckoutSession) -> Decimal {
        let subtotal = round(session.summary?.subtotal ?? session.items.reduce(0) { $0 + $1.amount })
        let shipping = requiresShipping(session)
            ? configuration.shippingMethods.map { round($0.amount) }.max() ?? 0 : 0
        var tax: Decimal = 0
        if let given = session.summary?.tax {
            tax = round(given)
        } else if let rule = configuration.tax {
            tax = round(max(subtotal + (rule.appliesToShipping ? shipping : 0), 0) * rule.rate)
        }
        return subtotal + shipping + tax
    }

    /// `value` rounded half up to the currency's minor units.
    /// - Parameter value: An amount.
    /// - Returns: The rounded amount.
    public func round(_ value: Decimal) -> Decimal { Money(value, currency).rounded.amount }
}
