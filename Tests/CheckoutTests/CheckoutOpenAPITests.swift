import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TesseraTestSupport

@Suite("The checkout API against docs/openapi.json")
struct CheckoutOpenAPITests {
    @Test("every documented checkout operation answers as documented")
    func conformance() async throws {
        // With Wallet orders, so the authorization result's orderDetails and the order's walletOrder are checked too.
        let fixture = try CheckoutFixture(developmentMode: true, walletOrderIssuer: try WalletOrderIssuerStandIn()) {
            $0.walletOrders = WalletOrderDataTests.walletOrders
        }
        let document = Mutex(try OpenAPIDocument(
            contentsOf: Subprocess.repositoryRoot.appendingPathComponent("docs/openapi.json")))
        let problems = Mutex([String]())
        try await fixture.withClient { client in
            @discardableResult
            func call(_ method: HTTPRequest.Method, _ uri: String, _ body: Any? = nil, key: String? = nil,
                      anonymous: Bool = false) async throws -> [String: Any]
            {
                var headers = anonymous ? JSONBody.anonymous : JSONBody.json
                if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                let response = try await client.execute(uri: uri, method: method, headers: headers,
                                                        body: try body.map { try JSONBody.buffer($0) })
                let found = document.withLock {
                    $0.check(method: method.rawValue, path: uri, status: Int(response.status.code),
                             contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                }
                problems.withLock { $0 += found }
                return (try? JSONBody.object(response)) ?? [:]
            }
            let cart: [String: Any] = ["items": [["sku": "TSHIRT", "quantity": 1], ["sku": "TICKET-GA", "quantity": 1]]]
            let session = try await call(.post, "/checkout/v1/sessions", cart, key: "k1")
            let id = session["id"] as? String ?? ""
            try await call(.post, "/checkout/v1/sessions", cart, key: "k1")
            try await call(.post, "/checkout/v1/sessions", ["items": [["sku": "TSHIRT", "quantity": 2]]], key: "k1")
            try await call(.post, "/checkout/v1/sessions", cart)
            try await call(.post, "/checkout/v1/sessions", ["items": [["sku": "NOPE", "quantity": 1]]], key: "k2")
            try await call(.get, "/checkout/v1/sessions/\(id)")
            try await call(.get, "/checkout/v1/sessions/\(id)", anonymous: true)
            try await call(.post, "/checkout/v1/sessions", ["summary": ["subtotal": "0.00"]], key: "k3", anonymous: true)
            try await call(.post, "/checkout/v1/sessions", ["summary": ["subtotal": "25.00", "tax": "99999971"]], key: "k4")
            try await call(.post, "/checkout/v1/sessions", cart, key: "k1", anonymous: true)
            try await call(.get, "/checkout/v1/sessions/cs_missing")
            let base = "/checkout/v1/sessions/\(id)"
            try await call(.post, "\(base)/shipping-method", ["identifier": "express"])
            try await call(.post, "\(base)/shipping-method", ["identifier": "nope"])
            try await call(.post, "\(base)/shipping-contact", ["shippingContact": ["postalCode": "10001", "countryCode": "US"]])
            try await call(.post, "\(base)/shipping-contact", ["shippingContact": ["postalCode": "94107", "countryCode": "US"]])
            try await call(.post, "\(base)/coupon-code", ["couponCode": "OLD"])
            try await call(.post, "\(base)/coupon-code", ["couponCode": "SAVE10"])
            try await call(.post, "\(base)/coupon-code", [:])
            try await call(.post, "\(base)/payment-method", ["paymentMethod": ["network": "Visa"]])
            try await call(.post, "/checkout/v1/sessions/cs_missing/payment-method", ["paymentMethod": [:]])
            try await call(.post, "/checkout/v1/merchant-validation", ["validationURL": "https://evil.example/"])
            try await call(.post, "/checkout/v1/merchant-validation",
                           ["validationURL": "https://apple-pay-gateway-cert.apple.com/paymentservices/paymentSession"])
            try await call(.post, "\(base)/authorize", ["token": ["paymentData": [:]]])
            let result = try await call(.post, "\(base)/test-authorize", ["shippingContact": CheckoutFixture.fullContact])
            #expect(result["orderDetails"] != nil, "\(result)")
            try await call(.post, "\(base)/test-authorize", [:])
            try await call(.post, "\(base)/coupon-code", ["couponCode": ""])
            let order = try await call(.get, "/checkout/v1/orders/\(result["orderId"] as? String ?? "")")
            #expect(order["walletOrder"] != nil, "\(order)")
            try await call(.get, "/checkout/v1/orders/ord_missing")
            try await call(.get, "/checkout/v1/orders/\(result["orderId"] as? String ?? "")/pkpasses")
            try await call(.get, "/checkout/v1/orders/\(result["orderId"] as? String ?? "")/pkpasses", anonymous: true)
            try await call(.get, "/checkout/v1/orders/ord_missing/pkpasses")
            let sheet = try await client.execute(uri: "/checkout/sheet/\(id)", method: .get, headers: JSONBody.json)
            problems.withLock {
                $0 += document.withLock {
                    $0.check(method: "GET", path: "/checkout/sheet/\(id)", status: Int(sheet.status.code),
                             contentType: sheet.headers[.contentType], body: Data(sheet.body.readableBytesView))
                }
            }
            try await call(.get, "/checkout/sheet/cs_missing")
            try await call(.get, "/checkout/buy/TSHIRT", anonymous: true)
            try await call(.get, "/checkout/buy/NOPE", anonymous: true)
        }
        let missing = document.withLock { $0.operations.filter { $0.contains(" /checkout") }.subtracting($0.exercised) }
        #expect(missing.isEmpty, "not exercised: \(missing.sorted())")
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0 }.joined(separator: "\n"))")
    }
}
