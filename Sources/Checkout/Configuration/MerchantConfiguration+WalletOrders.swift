import Foundation

extension MerchantConfiguration {
    /// `walletOrders`: every paid order is handed to Wallet as a Wallet order of this Order Type ID, made from this
    /// order template, and the authorization result carries Apple Pay JS's `orderDetails`.
    public struct WalletOrdersConfiguration: Codable, Sendable, Hashable {
        /// The Order Type ID the orders are issued under (`order.com.example.shop`).
        public var orderTypeIdentifier: String
        /// The order template's folder name (`shop-order`): the merchant's constant parts (`merchant.url`, the logo).
        public var template: String
        /// The order's page on the merchant's site (https), `{orderId}` replaced by the checkout order's identifier;
        /// `nil` keeps the template's `orderManagementURL`.
        public var orderManagementURL: String?

        /// Creates the configuration.
        /// - Parameters:
        ///   - orderTypeIdentifier: The Order Type ID.
        ///   - template: The order template's folder name.
        ///   - orderManagementURL: The order page, with `{orderId}`.
        public init(orderTypeIdentifier: String, template: String, orderManagementURL: String? = nil) {
            self.orderTypeIdentifier = orderTypeIdentifier
            self.template = template
            self.orderManagementURL = orderManagementURL
        }

        /// Checks the identifier, the template's name and the page's URL.
        /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key at fault (`walletOrders.template`).
        public func validate() throws {
            func fail(_ key: String, _ reason: String) -> CheckoutError {
                CheckoutError.configuration("walletOrders.\(key)", reason)
            }
            let suffix = orderTypeIdentifier.dropFirst("order.".count)
            guard orderTypeIdentifier.hasPrefix("order."), !suffix.isEmpty,
                  suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
            else {
                throw fail("orderTypeIdentifier",
                           "must be an Order Type ID starting with \"order.\", such as order.com.example.shop; found \"\(orderTypeIdentifier)\"")
            }
            guard !template.isEmpty, !template.hasPrefix("."),
                  template.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else {
                throw fail("template", "must be the name of an order template folder, such as shop-order; found \"\(template)\"")
            }
            if let orderManagementURL {
                let example = orderManagementURL.replacingOccurrences(of: "{orderId}", with: "ord_1")
                guard let url = URLComponents(string: example), url.scheme == "https", url.host?.isEmpty == false else {
                    throw fail("orderManagementURL",
                               "must be an https URL, such as https://shop.example.com/orders/{orderId}; found \"\(orderManagementURL)\"")
                }
            }
        }

        /// The order page of one checkout order.
        /// - Parameter orderId: The checkout order's identifier.
        /// - Returns: The URL, or `nil` when the template's stands.
        public func orderManagementURL(orderId: String) -> String? {
            orderManagementURL?.replacingOccurrences(of: "{orderId}", with: orderId)
        }
    }
}
