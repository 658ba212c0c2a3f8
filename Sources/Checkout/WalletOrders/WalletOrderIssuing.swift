public import Foundation

/// What checkout needs from a Wallet order issuer: a paid order handed to Wallet. The composition root wires the
/// orders web service's issuer in; checkout knows no more of it.
public protocol WalletOrderIssuing: Sendable {
    /// Creates the Wallet order, or returns the existing one with the same `orderIdentifier` (idempotent: an order
    /// is issued again after a failure or a crash, under the same identifier).
    /// - Parameters:
    ///   - template: The order template's folder name (`shop-order`).
    ///   - data: A JSON object merged into the template's `order.json` (the template's `orderJSON(applying:)`): the
    ///     purchase, while the template holds the merchant's constant parts and logo.
    /// - Returns: The order's identifiers, its web service credentials and its download link.
    /// - Throws: When the order cannot be made or signed.
    func issueWalletOrder(template: String, data: Data) async throws -> WalletOrderDetails
}

/// A Wallet order issued for a checkout order: what Apple Pay JS's `orderDetails` needs, and the `.order` download.
public struct WalletOrderDetails: Codable, Sendable, Equatable {
    /// The Order Type ID (`order.com.example.shop`).
    public var orderTypeIdentifier: String
    /// The order's identifier within its type.
    public var orderIdentifier: String
    /// The base URL of the orders web service.
    public var webServiceURL: String
    /// The token devices send to the web service (`Authorization: AppleOrder <token>`).
    public var authenticationToken: String
    /// The holder's `.order` download link.
    public var downloadURL: String

    /// Creates a description of an issued order.
    /// - Parameters:
    ///   - orderTypeIdentifier: The Order Type ID.
    ///   - orderIdentifier: The order's identifier.
    ///   - webServiceURL: The web service's base URL.
    ///   - authenticationToken: The devices' token.
    ///   - downloadURL: The `.order` download link.
    public init(orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: String, authenticationToken: String,
                downloadURL: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
        self.downloadURL = downloadURL
    }
}

/// Apple Pay JS's `ApplePayPaymentOrderDetails`: what an authorization result hands Wallet so it adds the order to the
/// buyer's device.
public struct ApplePayPaymentOrderDetails: Codable, Sendable, Equatable {
    /// The Order Type ID.
    public var orderTypeIdentifier: String
    /// The order's identifier.
    public var orderIdentifier: String
    /// The base URL of the orders web service.
    public var webServiceURL: String
    /// The token Wallet sends to the web service.
    public var authenticationToken: String

    /// The details of an issued Wallet order.
    /// - Parameter order: The issued order.
    public init(_ order: WalletOrderDetails) {
        orderTypeIdentifier = order.orderTypeIdentifier
        orderIdentifier = order.orderIdentifier
        webServiceURL = order.webServiceURL
        authenticationToken = order.authenticationToken
    }
}
