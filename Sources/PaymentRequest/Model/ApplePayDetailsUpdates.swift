/// What every sheet update carries (`ApplePayDetailsUpdateBase`): the new total and line items, and optionally new
/// subscription, deferred, automatic-reload or multi-merchant details.
public protocol ApplePayDetailsUpdate: Codable, Hashable, Sendable {
    /// The new total.
    var newTotal: ApplePayLineItem { get set }
    /// The new line items.
    var newLineItems: [ApplePayLineItem]? { get set }
    /// New shipping methods (not part of a shipping-method update).
    var updatedShippingMethods: [ApplePayShippingMethod]? { get }
    /// Errors to show (not part of a shipping-method update).
    var updatedErrors: [ApplePayError]? { get }
}

/// `ApplePayShippingMethodUpdate`: the answer to `onshippingmethodselected`.
public struct ApplePayShippingMethodUpdate: ApplePayDetailsUpdate {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new line items.
    public var newLineItems: [ApplePayLineItem]?
    /// A changed subscription.
    public var newRecurringPaymentRequest: ApplePayRecurringPaymentRequest?
    /// Changed multi-merchant contexts.
    public var newMultiTokenContexts: [ApplePayPaymentTokenContext]?

    /// Creates an update.
    /// - Parameters:
    ///   - newTotal: The new total.
    ///   - newLineItems: The new line items.
    public init(newTotal: ApplePayLineItem, newLineItems: [ApplePayLineItem]? = nil) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
    }

    /// Always `nil`: a shipping-method update cannot change the methods.
    public var updatedShippingMethods: [ApplePayShippingMethod]? { nil }
    /// Always `nil`: a shipping-method update carries no errors.
    public var updatedErrors: [ApplePayError]? { nil }
}

/// `ApplePayShippingContactUpdate`: the answer to `onshippingcontactselected`.
public struct ApplePayShippingContactUpdate: ApplePayDetailsUpdate {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new line items.
    public var newLineItems: [ApplePayLineItem]?
    /// Shipping methods available for the new address.
    public var newShippingMethods: [ApplePayShippingMethod]?
    /// Problems with the address (such as `addressUnserviceable`).
    public var errors: [ApplePayError]?

    /// Creates an update.
    /// - Parameters:
    ///   - newTotal: The new total.
    ///   - newLineItems: The new line items.
    ///   - newShippingMethods: Methods for the new address.
    ///   - errors: Problems with the address.
    public init(newTotal: ApplePayLineItem, newLineItems: [ApplePayLineItem]? = nil,
                newShippingMethods: [ApplePayShippingMethod]? = nil, errors: [ApplePayError]? = nil) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
        self.newShippingMethods = newShippingMethods
        self.errors = errors
    }

    /// ``newShippingMethods``.
    public var updatedShippingMethods: [ApplePayShippingMethod]? { newShippingMethods }
    /// ``errors``.
    public var updatedErrors: [ApplePayError]? { errors }
}

/// `ApplePayCouponCodeUpdate`: the answer to `oncouponcodechanged`.
public struct ApplePayCouponCodeUpdate: ApplePayDetailsUpdate {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new line items (with the discount, when the code is valid).
    public var newLineItems: [ApplePayLineItem]?
    /// Shipping methods, when the coupon changes them (free shipping).
    public var newShippingMethods: [ApplePayShippingMethod]?
    /// `couponCodeInvalid` or `couponCodeExpired` when the code does not apply.
    public var errors: [ApplePayError]?

    /// Creates an update.
    /// - Parameters:
    ///   - newTotal: The new total.
    ///   - newLineItems: The new line items.
    ///   - newShippingMethods: Changed shipping methods.
    ///   - errors: Coupon problems.
    public init(newTotal: ApplePayLineItem, newLineItems: [ApplePayLineItem]? = nil,
                newShippingMethods: [ApplePayShippingMethod]? = nil, errors: [ApplePayError]? = nil) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
        self.newShippingMethods = newShippingMethods
        self.errors = errors
    }

    /// ``newShippingMethods``.
    public var updatedShippingMethods: [ApplePayShippingMethod]? { newShippingMethods }
    /// ``errors``.
    public var updatedErrors: [ApplePayError]? { errors }
}

/// `ApplePayPaymentMethodUpdate`: the answer to `onpaymentmethodselected` (a card-type surcharge, say).
public struct ApplePayPaymentMethodUpdate: ApplePayDetailsUpdate {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new line items.
    public var newLineItems: [ApplePayLineItem]?
    /// Changed shipping methods.
    public var newShippingMethods: [ApplePayShippingMethod]?
    /// Problems with the payment method.
    public var errors: [ApplePayError]?

    /// Creates an update.
    /// - Parameters:
    ///   - newTotal: The new total.
    ///   - newLineItems: The new line items.
    ///   - newShippingMethods: Changed shipping methods.
    ///   - errors: Problems to show.
    public init(newTotal: ApplePayLineItem, newLineItems: [ApplePayLineItem]? = nil,
                newShippingMethods: [ApplePayShippingMethod]? = nil, errors: [ApplePayError]? = nil) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
        self.newShippingMethods = newShippingMethods
        self.errors = errors
    }

    /// ``newShippingMethods``.
    public var updatedShippingMethods: [ApplePayShippingMethod]? { newShippingMethods }
    /// ``errors``.
    public var updatedErrors: [ApplePayError]? { errors }
}
