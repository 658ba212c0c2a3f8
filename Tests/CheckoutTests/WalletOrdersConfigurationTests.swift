import Checkout
import Foundation
import Testing

/// `walletOrders` and pickup shipping methods in the merchant configuration.
@Suite("Wallet orders in the merchant configuration")
struct WalletOrdersConfigurationTests {
    @Test("walletOrders is checked when the configuration is read, naming the key", arguments: [
        (#"{"orderTypeIdentifier": "pass.com.example.shop", "template": "shop-order"}"#, "walletOrders.orderTypeIdentifier"),
        (#"{"orderTypeIdentifier": "order.", "template": "shop-order"}"#, "walletOrders.orderTypeIdentifier"),
        (#"{"orderTypeIdentifier": "order.com.example.shop", "template": "../secrets"}"#, "walletOrders.template"),
        (#"{"orderTypeIdentifier": "order.com.example.shop", "template": ""}"#, "walletOrders.template"),
        (#"{"orderTypeIdentifier": "order.com.example.shop", "template": "shop-order", "orderManagementURL": "http://shop.example.com/o/{orderId}"}"#,
         "walletOrders.orderManagementURL"),
        (#"{"orderTypeIdentifier": "order.com.example.shop"}"#, "walletOrders.template"),
    ])
    func configurationChecked(walletOrders: String, key: String) throws {
        let json = """
            {"merchantIdentifier": "merchant.com.example", "displayName": "Shop", "countryCode": "US",
             "currencyCode": "USD", "walletOrders": \(walletOrders)}
            """
        let error = try #require(throws: CheckoutError.self) {
            try MerchantConfiguration.decode(jsonData: Data(json.utf8)).validate()
        }
        #expect(error.field == key, "\(error)")
    }

    @Test("A valid walletOrders and a pickup method are read back")
    func configurationRead() throws {
        let json = """
            {"merchantIdentifier": "merchant.com.example", "displayName": "Shop", "countryCode": "US",
             "currencyCode": "USD",
             "shippingMethods": [{"identifier": "store", "label": "Pick up", "amount": "0.00", "minimumBusinessDays": 0,
                                  "maximumBusinessDays": 1, "pickup": {"displayName": "Market Street"}}],
             "walletOrders": {"orderTypeIdentifier": "order.com.example.shop", "template": "shop-order"}}
            """
        let merchant = try MerchantConfiguration.decode(jsonData: Data(json.utf8))
        try merchant.validate()
        #expect(merchant.walletOrders == .init(orderTypeIdentifier: "order.com.example.shop", template: "shop-order"))
        #expect(merchant.shippingMethods.first?.pickup?.displayName == "Market Street")
        var blank = merchant
        blank.shippingMethods[0].pickup = .init(displayName: " ")
        let error = try #require(throws: CheckoutError.self) { try blank.validate() }
        #expect(error.field == "shippingMethods[0].pickup.displayName")
    }
}
