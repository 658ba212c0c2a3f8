import HTTPTypes

/// The processor of a merchant that configured none outside development mode: every authorization is answered
/// 503 `notConfigured` before anything is recorded.
public struct NoPaymentProcessor: PaymentProcessor {
    /// Creates it.
    public init() {}

    /// Never called: the checkout refuses authorizations first.
    /// - Parameter request: The payment.
    /// - Returns: Nothing.
    /// - Throws: Always.
    public func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult {
        throw CheckoutError(.invalidConfiguration, status: .serviceUnavailable, "no payment processor is configured")
    }
}
