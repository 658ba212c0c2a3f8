import Foundation
import Logging
import PaymentRequest

/// Paid orders handed to Wallet: when the merchant names an Order Type ID (`walletOrders`), each order becomes a
/// Wallet order through ``WalletOrderIssuing``, recorded with the order.
///
/// The money is taken first, so issuing can never undo a payment: a failure is logged and the order stays without a
/// Wallet order until the confirmation is read again, which issues it (the issuer is idempotent on the order's
/// identifier, the checkout order's own).
extension CheckoutService {
    /// The order with its Wallet order: the recorded one, or one issued and recorded now. When the merchant issues
    /// none, or issuing fails (logged), the order is returned as it is.
    /// - Parameter order: A committed order.
    /// - Returns: The order, with ``CheckoutOrder/walletOrder`` when there is one.
    func withWalletOrder(_ order: CheckoutOrder) async -> CheckoutOrder {
        guard order.walletOrder == nil, let walletOrders = merchant.walletOrders, let walletOrderIssuer else {
            return order
        }
        let metadata: Logger.Metadata = [
            "order": "\(order.id)", "orderTypeIdentifier": "\(walletOrders.orderTypeIdentifier)",
            "template": "\(walletOrders.template)",
        ]
        do {
            let data = try WalletOrderData(merchant: merchant, walletOrders: walletOrders, currency: pricing.currency,
                                           calendar: pricing.calendar.calendar).data(for: order)
            let issued = try await walletOrderIssuer.issueWalletOrder(template: walletOrders.template, data: data)
            guard let stored = try await store.recordWalletOrder(issued, orderId: order.id) else { return order }
            logger.info("Wallet order issued", metadata: metadata)
            return stored
        } catch {
            // The error names what failed; the order's token and the buyer's details are not in it.
            logger.error("Wallet order not issued: it is issued again when the order confirmation is read",
                         metadata: metadata.merging(["error": "\(String(describing: type(of: error))): \(error)"]) { $1 })
            return order
        }
    }
}
