public import Checkout
public import Foundation
public import PassWebService
import PassBundle
import PassModel

/// Checkout's ``Checkout/WalletOrderIssuing`` over the orders web service's ``PassWebService/OrderIssuer``: a paid
/// checkout order becomes an order in the same store, signed with the same Order Type ID certificate and served by
/// the same device protocol and issuer API as the orders made through `/api/v1/orders`, so the merchant updates its
/// fulfillment there and the buyer's devices are pushed.
public struct WalletOrderIssuer: WalletOrderIssuing {
    /// The orders web service's issuer.
    public let issuer: OrderIssuer
    private let now: @Sendable () -> Date

    /// Creates the adapter.
    /// - Parameters:
    ///   - issuer: The orders web service's issuer.
    ///   - now: The clock stamping a new order's `createdAt`.
    public init(issuer: OrderIssuer, now: @escaping @Sendable () -> Date = Date.init) {
        self.issuer = issuer
        self.now = now
    }

    /// The keys of `order.json` the orders web service sets itself: checkout's document may carry its own
    /// (`createdAt` is the payment's time), but the served order's are the store's.
    static let serverKeys = ["createdAt", "updatedAt", "webServiceURL", "authenticationToken"]

    public func issueWalletOrder(template: String, data: Data) async throws -> WalletOrderDetails {
        var document = data
        if case .object(var object) = try JSONValue(jsonData: data) {
            for key in Self.serverKeys { object[key] = nil }
            document = try JSONValue.object(object).jsonData(prettyPrinted: false)
        }
        let (order, _) = try await issuer.issueIfAbsent(template: template, data: document, now: now())
        let handOff = issuer.handOff(for: order)
        return WalletOrderDetails(
            orderTypeIdentifier: handOff.orderTypeIdentifier, orderIdentifier: handOff.orderIdentifier,
            webServiceURL: handOff.webServiceURL, authenticationToken: handOff.authenticationToken,
            downloadURL: handOff.downloadURL)
    }

    /// The issuer for a merchant's `walletOrders`, checked against the orders web service.
    /// - Parameters:
    ///   - merchant: The merchant configuration.
    ///   - issuer: The orders web service's issuer, or `nil` when the server issues no orders.
    ///   - now: The clock.
    /// - Returns: The adapter, or `nil` when the merchant hands no orders to Wallet or there is no orders web service.
    /// - Throws: ``ServerConfigurationError`` (`merchant`) when the merchant's Order Type ID is not the one the orders
    ///   web service signs for.
    static func forMerchant(
        _ merchant: MerchantConfiguration, issuer: OrderIssuer?, now: @escaping @Sendable () -> Date
    ) throws -> WalletOrderIssuer? {
        guard let walletOrders = merchant.walletOrders, let issuer else { return nil }
        let signed = issuer.orderTypeIdentifiers
        guard signed.contains(walletOrders.orderTypeIdentifier) else {
            throw ServerConfigurationError(
                setting: "merchant",
                "walletOrders.orderTypeIdentifier: \(walletOrders.orderTypeIdentifier) is not an Order Type ID the orders web service signs for (\(signed.isEmpty ? "?" : signed.joined(separator: ", ")))")
        }
        // The template's folder decides the certificate every order made from it is signed with.
        guard let source = issuer.templateSource(named: walletOrders.template) else {
            throw ServerConfigurationError(
                setting: "merchant",
                "walletOrders.template: no order template \"\(walletOrders.template)\" in the order templates folders")
        }
        if let signs = source.signer.identity.orderTypeIdentifier, signs != walletOrders.orderTypeIdentifier {
            throw ServerConfigurationError(
                setting: "merchant",
                "walletOrders.template: \"\(walletOrders.template)\" is in the order templates folder of \(signs), not of walletOrders.orderTypeIdentifier \(walletOrders.orderTypeIdentifier)")
        }
        return WalletOrderIssuer(issuer: issuer, now: now)
    }
}
