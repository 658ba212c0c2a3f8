import Foundation
public import Logging

extension MerchantConfiguration {
    /// The processor `paymentProcessor` names: a ``WebhookPaymentProcessor`` (`webhook`, `forwardToken`), the
    /// ``RecordingPaymentProcessor`` (`development`, or nothing configured in development mode), or
    /// ``NoPaymentProcessor``.
    /// - Parameter logger: The processor's logger.
    /// - Returns: The processor; add it to the application's services when it is a `Service`.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the secret cannot be read.
    public func makePaymentProcessor(logger: Logger) throws -> any PaymentProcessor {
        guard let paymentProcessor else {
            return developmentMode ? RecordingPaymentProcessor() : NoPaymentProcessor()
        }
        try paymentProcessor.validate(developmentMode: developmentMode)
        switch paymentProcessor.kind {
        case .development:
            return RecordingPaymentProcessor()
        case .webhook, .forwardToken:
            guard let text = paymentProcessor.url, let url = URL(string: text) else {
                throw CheckoutError.configuration("paymentProcessor.url", "is not a URL")
            }
            return WebhookPaymentProcessor(
                configuration: .init(url: url, secret: try paymentProcessor.secret(),
                                     timeoutSeconds: paymentProcessor.timeoutSeconds ?? 10,
                                     forwardToken: paymentProcessor.kind == .forwardToken),
                logger: logger)
        }
    }
}
