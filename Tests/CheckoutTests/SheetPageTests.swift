import Checkout
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

/// The sheet page as served: Apple's Apple Pay JS SDK only when the merchant turns it on.
@Suite("The payment sheet page and the Apple Pay JS SDK option")
struct SheetPageTests {
    /// The sheet's HTML and content security policy for a fresh session.
    static func sheet(_ configure: @escaping (inout MerchantConfiguration) -> Void) async throws -> (html: String, policy: String) {
        let fixture = try CheckoutFixture(configure: configure)
        return try await fixture.withClient { client in
            let session = try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]])
            let url = try #require(session["sheetURL"] as? String)
            return try await client.execute(uri: url, method: .get) { response in
                #expect(response.status == .ok)
                return (String(buffer: response.body), response.headers[.contentSecurityPolicy] ?? "")
            }
        }
    }

    @Test("Off by default: nothing loads from Apple, Safari's own button")
    func sdkOffByDefault() async throws {
        #expect(CheckoutFixture.merchantConfiguration().applePayJSSDK == false)
        let (html, policy) = try await Self.sheet { _ in }
        #expect(!html.contains("applepay.cdn-apple.com"))
        #expect(!html.contains("<apple-pay-button"))
        #expect(html.contains("class=\"apple-pay-button\""))
        #expect(!policy.contains("cdn-apple.com"))
        #expect(policy.contains("frame-src 'none'"))
    }

    @Test("Turned on: Apple's SDK script, the <apple-pay-button> element, and Apple's origin in the policy")
    func sdkOn() async throws {
        let (html, policy) = try await Self.sheet { $0.applePayJSSDK = true }
        #expect(html.contains("<script crossorigin=\"anonymous\" src=\"https://applepay.cdn-apple.com/jsapi/1.latest/apple-pay-sdk.js\"></script>"))
        #expect(html.contains("<apple-pay-button id=\"apple-pay-button\" buttonstyle=\"black\" type=\"buy\""))
        #expect(policy.contains("script-src 'unsafe-inline' https://applepay.cdn-apple.com;"))
        #expect(policy.contains("frame-src https://applepay.cdn-apple.com;"))
        #expect(policy.contains("frame-ancestors 'none'"))
    }

    @Test("The configuration file's applePayJSSDK key")
    func configurationKey() throws {
        let json = #"{"merchantIdentifier": "merchant.test", "displayName": "Shop", "countryCode": "US", "currencyCode": "USD""#
        let on = try JSONDecoder().decode(MerchantConfiguration.self, from: Data((json + #", "applePayJSSDK": true}"#).utf8))
        #expect(on.applePayJSSDK)
        let off = try JSONDecoder().decode(MerchantConfiguration.self, from: Data((json + "}").utf8))
        #expect(!off.applePayJSSDK)
    }
}
