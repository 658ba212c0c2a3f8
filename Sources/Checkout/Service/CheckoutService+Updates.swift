import HTTPTypes
import Foundation
public import PaymentRequest

/// The sheet's events: `POST /checkout/v1/sessions/{id}/shipping-method`, `/shipping-contact`, `/coupon-code` and
/// `/payment-method`, each answered with the matching Apple Pay update object.
extension CheckoutService {
    /// Selects a shipping method on a pending session and reprices it.
    /// - Parameters:
    ///   - body: The method chosen.
    ///   - session: The pending session (``pendingSession(id:credentials:)``).
    /// - Returns: Apple Pay's update for the sheet.
    /// - Throws: ``CheckoutError`` naming `identifier` (400, 422) or `sessionNotPending` (409).
    public func selectShippingMethod(_ body: ShippingMethodRequest, in session: CheckoutSession) async throws
        -> ApplePayShippingMethodUpdate
    {
        try await update(session) { session in try applyShippingMethod(body, to: &session) }
    }

    private func applyShippingMethod(_ body: ShippingMethodRequest, to session: inout CheckoutSession) throws
        -> ApplePayShippingMethodUpdate
    {
        guard let identifier = body.identifier ?? body.shippingMethod?.identifier else {
            throw CheckoutError.invalid("identifier", "is required")
        }
        guard pricing.requiresShipping(session) else {
            throw CheckoutError.invalid("identifier", "nothing in this session ships", status: .unprocessableContent)
        }
        guard pricing.shippingOptions(for: session).contains(where: { $0.identifier == identifier }) else {
            throw CheckoutError.invalid("identifier", "no shipping method \"\(identifier)\" for this address",
                                        status: .unprocessableContent)
        }
        session.selectedShippingMethod = identifier
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        return ApplePayShippingMethodUpdate(newTotal: builder.total(for: items), newLineItems: items)
    }

    /// Takes the sheet's (redacted) shipping contact on a pending session: an address not served clears the shipping
    /// method and answers the sheet's error; otherwise the session is repriced for it.
    /// - Parameters:
    ///   - contact: The contact Apple Pay gave.
    ///   - session: The pending session (``pendingSession(id:credentials:)``).
    /// - Returns: Apple Pay's update for the sheet.
    /// - Throws: ``CheckoutError`` `sessionNotPending` (409).
    public func changeShippingContact(_ contact: ApplePayPaymentContact, in session: CheckoutSession) async throws
        -> ApplePayShippingContactUpdate
    {
        try await update(session) { session in try applyShippingContact(contact, to: &session) }
    }

    private func applyShippingContact(_ contact: ApplePayPaymentContact, to session: inout CheckoutSession) throws
        -> ApplePayShippingContactUpdate
    {
        // Only the redacted fields are kept; names, street lines, phone and email are dropped here.
        let redacted = RedactedContact(contact)
        var errors: [ApplePayError]?
        if let problem = ShippingRegions(merchant.shippingRegions).problem(with: redacted), pricing.requiresShipping(session) {
            errors = [problem]
            session.shippingContact = nil
            session.selectedShippingMethod = nil
            session.shippingAddressProblem = problem
        } else {
            session.shippingContact = redacted
            session.shippingAddressProblem = nil
            if let selected = session.selectedShippingMethod,
               !pricing.shippingOptions(for: redacted).contains(where: { $0.identifier == selected }) {
                session.selectedShippingMethod = nil
            }
        }
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        let methods = try pricing.requiresShipping(session) ? (errors == nil ? builder.shippingMethods() : []) : nil
        return ApplePayShippingContactUpdate(newTotal: builder.total(for: items), newLineItems: items,
                                             newShippingMethods: methods, errors: errors)
    }

    /// Applies (or, with an empty code, removes) a coupon on a pending session and reprices it.
    /// - Parameters:
    ///   - body: The code entered.
    ///   - session: The pending session (``pendingSession(id:credentials:)``).
    /// - Returns: Apple Pay's update for the sheet, with an error for an expired or unknown code.
    /// - Throws: ``CheckoutError`` naming `couponCode` (400) or `sessionNotPending` (409).
    public func applyCouponCode(_ body: CouponCodeRequest, in session: CheckoutSession) async throws
        -> ApplePayCouponCodeUpdate
    {
        let code = body.couponCode.trimmingCharacters(in: .whitespaces)
        guard code.count <= 100 else { throw CheckoutError.invalid("couponCode", "must be at most 100 characters") }
        return try await update(session) { session in try applyCoupon(code, to: &session) }
    }

    private func applyCoupon(_ code: String, to session: inout CheckoutSession) throws -> ApplePayCouponCodeUpdate {
        var errors: [ApplePayError]?
        if code.isEmpty {
            session.couponCode = nil
            session.couponAppliedAt = nil
        } else if let current = session.couponCode, current.uppercased() == code.uppercased() {
            // Already applied: it stays at the terms it was applied with.
        } else if session.summary != nil {
            // The merchant's server priced this session (a summary, with its own tax): a code the buyer enters would
            // undercut that price and leave the merchant's tax on the undiscounted amount. Only the merchant's
            // server applies one, when it creates the session.
            errors = [ApplePayError(code: .couponCodeInvalid, message: "Codes do not apply to this order.")]
        } else {
            session.couponAppliedAt = nil
            switch pricing.coupon(code) {
            case .valid(let coupon):
                session.couponCode = coupon.code
                session.couponAppliedAt = now()
            case .expired:
                session.couponCode = nil
                errors = [ApplePayError(code: .couponCodeExpired, message: "This code has expired.")]
            case .invalid:
                session.couponCode = nil
                errors = [ApplePayError(code: .couponCodeInvalid, message: "This code is not valid.")]
            }
        }
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        let methods = try pricing.requiresShipping(session) ? builder.shippingMethods() : nil
        return ApplePayCouponCodeUpdate(newTotal: builder.total(for: items), newLineItems: items,
                                        newShippingMethods: methods, errors: errors)
    }

    /// Answers the sheet's card choice on a pending session: the total, and an error for a network not accepted.
    /// - Parameters:
    ///   - body: The card picked.
    ///   - session: The pending session (``pendingSession(id:credentials:)``).
    /// - Returns: Apple Pay's update for the sheet.
    /// - Throws: A `PaymentRequestError` when the session cannot be priced.
    public func selectPaymentMethod(_ body: PaymentMethodRequest, in session: CheckoutSession) throws
        -> ApplePayPaymentMethodUpdate
    {
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        var errors: [ApplePayError]?
        if let network = body.paymentMethod?.network,
           !merchant.supportedNetworks.contains(where: { $0.rawValue.lowercased() == network.lowercased() }) {
            errors = [ApplePayError(code: .unknown, message: "\(network) cards are not accepted.")]
        }
        return ApplePayPaymentMethodUpdate(newTotal: builder.total(for: items), newLineItems: items, errors: errors)
    }
}
