import Foundation

extension PaymentRequestBuilder {
    /// The answer when the buyer picks another shipping method: the new line items and total with that method's
    /// cost.
    /// - Parameter identifier: The picked method's identifier.
    /// - Returns: The update.
    /// - Throws: ``PaymentRequestError`` for an unknown identifier or an update that fails validation.
    public func shippingMethodUpdate(selecting identifier: String) throws -> ApplePayShippingMethodUpdate {
        var copy = self
        copy.selectedShippingIdentifier = identifier
        let items = try copy.lineItems()
        return try checked(ApplePayShippingMethodUpdate(newTotal: copy.total(for: items), newLineItems: items))
    }

    /// The answer when the buyer enters a shipping contact: new shipping options for that address (the first
    /// selected), or an `addressUnserviceable` error when there are none.
    /// - Parameter options: The options available at the address; empty when it cannot be served.
    /// - Returns: The update.
    /// - Throws: ``PaymentRequestError`` for a bad option or an update that fails validation.
    public func shippingContactUpdate(options: [ShippingOption]) throws -> ApplePayShippingContactUpdate {
        var copy = self
        copy.shippingOptions = options
        copy.selectedShippingIdentifier = nil
        let items = try copy.lineItems()
        var update = ApplePayShippingContactUpdate(newTotal: copy.total(for: items), newLineItems: items,
                                                   newShippingMethods: try copy.shippingMethods())
        if options.isEmpty && shippingType != nil {
            update.errors = [ApplePayError(code: .addressUnserviceable, contactField: .postalAddress,
                                           message: "We cannot deliver to this address.")]
        }
        return try checked(update)
    }

    /// The answer when the buyer enters a coupon code: the discount added, or `couponCodeInvalid` /
    /// `couponCodeExpired` with the unchanged amounts.
    /// - Parameters:
    ///   - code: The code entered (an empty code removes any coupon and reports nothing).
    ///   - discount: The discount the code gives, or `nil` when it gives none.
    ///   - expired: Whether the code exists but has expired.
    /// - Returns: The update.
    /// - Throws: ``PaymentRequestError`` for a bad discount or an update that fails validation.
    public func couponCodeUpdate(code: String, discount: Charge?, expired: Bool = false) throws
        -> ApplePayCouponCodeUpdate {
        var copy = self
        if let discount, !code.isEmpty, !expired { copy.summary.discounts.append(discount) }
        let items = try copy.lineItems()
        var update = ApplePayCouponCodeUpdate(newTotal: copy.total(for: items), newLineItems: items)
        if !code.isEmpty && (discount == nil || expired) {
            update.errors = [ApplePayError(code: expired ? .couponCodeExpired : .couponCodeInvalid,
                                           message: expired ? "This code has expired." : "This code is not valid.")]
        }
        return try checked(update)
    }

    /// The answer when the buyer picks a card: with a surcharge for that card type added as a fee, or unchanged.
    /// - Parameter surcharge: A fee for the picked card, or `nil`.
    /// - Returns: The update.
    /// - Throws: ``PaymentRequestError`` for a bad fee or an update that fails validation.
    public func paymentMethodUpdate(surcharge: Charge?) throws -> ApplePayPaymentMethodUpdate {
        var copy = self
        if let surcharge { copy.summary.fees.append(surcharge) }
        let items = try copy.lineItems()
        return try checked(ApplePayPaymentMethodUpdate(newTotal: copy.total(for: items), newLineItems: items))
    }

    private func checked<Update: ApplePayDetailsUpdate>(_ update: Update) throws -> Update {
        let report = update.validate(currencyCode: currency.code)
        guard report.isValid else { throw PaymentRequestError.invalid(report) }
        return update
    }
}
