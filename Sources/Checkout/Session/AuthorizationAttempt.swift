public import Foundation
public import PaymentRequest

/// The authorization that claimed a session: everything needed to call the processor again with the same
/// idempotency key and to record the order, even after a restart. The decrypted payment is never kept: the
/// still-encrypted payment as the device sent it is, and is decrypted again for a retry.
public struct AuthorizationAttempt: Codable, Sendable, Equatable {
    /// The order it creates.
    public var orderId: String
    /// The key the processor receives on every call for this attempt (the session and the attempt number).
    public var idempotencyKey: String
    /// The token's transaction identifier (hex).
    public var transactionIdentifier: String
    /// When the session was claimed.
    public var startedAt: Date
    /// The total charged.
    public var total: Decimal
    /// The line items the buyer saw and the token was checked against.
    public var lineItems: [ApplePayLineItem]
    /// The shipping method of those line items.
    public var shippingMethod: String?
    /// The coupon of those line items, only when they hold its discount line.
    public var couponCode: String?
    /// The payment as posted: the encrypted token and the contacts.
    public var payment: Data

    /// Creates an attempt.
    /// - Parameters:
    ///   - orderId: The order to create.
    ///   - idempotencyKey: The processor's idempotency key.
    ///   - transactionIdentifier: The token's transaction identifier.
    ///   - startedAt: When the session was claimed.
    ///   - total: The amount.
    ///   - lineItems: The line items.
    ///   - shippingMethod: The shipping method.
    ///   - couponCode: The coupon.
    ///   - payment: The posted payment.
    public init(orderId: String, idempotencyKey: String, transactionIdentifier: String, startedAt: Date, total: Decimal,
                lineItems: [ApplePayLineItem], shippingMethod: String?, couponCode: String?, payment: Data) {
        self.orderId = orderId
        self.idempotencyKey = idempotencyKey
        self.transactionIdentifier = transactionIdentifier
        self.startedAt = startedAt
        self.total = total
        self.lineItems = lineItems
        self.shippingMethod = shippingMethod
        self.couponCode = couponCode
        self.payment = payment
    }
}
