import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TesseraTestSupport

/// Checkout to Wallet on the production server: `tessera serve` with the orders web service and a merchant whose
/// `walletOrders` names its Order Type ID. A paid session's authorization result carries `orderDetails`; the order
/// downloads, verifies, and shows the payment and the shipment; the device protocol serves it with the details' token.
@Suite("Checkout hands paid orders to Wallet on tessera serve (subprocesses)", .serialized)
struct ServeWalletOrderHandOffTests {
    typealias Serve = ServeCheckoutTests
    static let orderType = "order.com.example.shop"

    /// Development credentials for passes and for the Order Type ID, under one WWDR stand-in, and the serve flags
    /// that use them.
    static func orderFlags(in folder: URL, orderType: String = orderType) async throws -> [String] {
        let certs = folder.appendingPathComponent("certs")
        let made = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--order-type-id", orderType])
        try #require(made.status == 0, "\(made.stderr)")
        func path(_ name: String) -> String { certs.appendingPathComponent(name).path }
        return [
            "--cert", path("pass.pem"), "--key", path("pass.key"), "--wwdr", path("wwdr.pem"),
            "--order-templates", Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates").path,
            "--order-cert", path("order.pem"), "--order-key", path("order.key"),
        ]
    }

    /// The serve tests' merchant with a T-shirt to ship, two shipping methods and a coupon.
    static func shippingMerchant(_ merchant: inout [String: Any]) {
        var products = merchant["products"] as? [String: Any] ?? [:]
        products["TSHIRT"] = ["name": "Tour T-shirt", "unitPrice": "25.00"]
        merchant["products"] = products
        merchant["shippingMethods"] = [
            ["identifier": "standard", "label": "Standard", "amount": "5.00", "minimumBusinessDays": 3, "maximumBusinessDays": 5],
            ["identifier": "express", "label": "Express", "amount": "15.00", "minimumBusinessDays": 1, "maximumBusinessDays": 2],
        ]
        merchant["coupons"] = [["code": "SAVE10", "percentOff": "10"]]
        merchant["walletOrders"] = ["orderTypeIdentifier": orderType, "template": "shop-order"]
    }

    /// A session with a ticket and a T-shirt sent express to Cupertino, SAVE10 applied.
    /// - Returns: The session and its total (`"83.20"`).
    static func shippedSession(_ http: HTTPClient, _ base: String) async throws -> (id: String, total: String) {
        func post(_ path: String, _ body: String, key: String? = nil) async throws -> (Int, [String: Any]) {
            try await Serve.json(http, Serve.request(.POST, "\(base)\(path)", body: Data(body.utf8), idempotencyKey: key))
        }
        let (status, session) = try await post(
            "/checkout/v1/sessions", #"{"items":[{"sku":"TICKET-GA","quantity":1},{"sku":"TSHIRT","quantity":1}]}"#,
            key: UUID().uuidString)
        let id = try #require(session["id"] as? String, "\(status) \(session)")
        _ = try await post("/checkout/v1/sessions/\(id)/shipping-method", #"{"identifier":"express"}"#)
        _ = try await post("/checkout/v1/sessions/\(id)/shipping-contact",
                           #"{"shippingContact":{"locality":"Cupertino","postalCode":"95014","countryCode":"US"}}"#)
        let (_, coupon) = try await post("/checkout/v1/sessions/\(id)/coupon-code", #"{"couponCode":"SAVE10"}"#)
        let total = try #require((coupon["newTotal"] as? [String: Any])?["amount"] as? String, "\(coupon)")
        return (id, total)
    }

    @Test("authorize → orderDetails → the .order downloads, verifies and shows the payment and the shipment; Wallet's fetch with the details' token")
    func handOffOnServe() async throws {
        let fixture = try CheckoutFixture()
        let folder = try TemporaryDirectory.make(prefix: "serve-wallet-hand-off")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flags = try await Self.orderFlags(in: folder)
        try await ServeCheckoutProcessorTests.withServe(fixture, endpoint: PaymentEndpointStandIn(), arguments: flags,
                                                        configure: Self.shippingMerchant) { server, http in
            let (id, total) = try await Self.shippedSession(http, server.base)
            let minorUnits = try #require(Decimal(string: total)) * 100
            let payment = try fixture.paymentSignedNow(minorUnits: minorUnits, applicationData: Data("tessera-checkout-session:\(id)".utf8))
            let (status, result) = try await Serve.json(http, Serve.request(
                .POST, "\(server.base)/checkout/v1/sessions/\(id)/authorize", body: payment))
            #expect(status == 200, "\(result) \(server.output)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
            let orderId = try #require(result["orderId"] as? String)
            let details = try #require(result["orderDetails"] as? [String: String], "\(result) \(server.output)")
            #expect(details["orderTypeIdentifier"] == Self.orderType)
            #expect(details["orderIdentifier"] == orderId)
            #expect(details["webServiceURL"] == server.base)
            let token = try #require(details["authenticationToken"])
            #expect(token.count >= 16)

            // The confirmation links the .order; the holder's link serves the signed order.
            let (read, order) = try await Serve.json(http, Serve.request(.GET, "\(server.base)/checkout/v1/orders/\(orderId)"))
            #expect(read == 200)
            let walletOrder = try #require(order["walletOrder"] as? [String: Any], "\(order)")
            let downloadURL = try #require(walletOrder["downloadURL"] as? String)
            let download = try await http.execute(HTTPClientRequest(url: downloadURL), timeout: .seconds(60))
            #expect(download.status == .ok)
            #expect(download.headers.first(name: "Content-Type") == "application/vnd.apple.finance.order")
            let bundle = Data(try await download.body.collect(upTo: 10 << 20).readableBytesView)
            let file = folder.appendingPathComponent("\(orderId).order")
            try bundle.write(to: file)
            let verified = try await offCooperativePool { try Subprocess.tessera(["order", "verify", file.path]) }
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            let inspected = try await offCooperativePool { try Subprocess.tessera(["order", "inspect", file.path, "--json"]) }
            #expect(inspected.status == 0)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
            let shown = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
            #expect(shown.contains(orderId))
            #expect(shown.contains(total), "the payment total \(total): \(shown)")
            #expect(shown.contains("••••1234"), "the payment method: \(shown)")
            #expect(shown.contains("shipping") && shown.contains("Cupertino"), "the shipment: \(shown)")

            // Wallet fetches it from the web service named in orderDetails with the token handed to it.
            var fetch = HTTPClientRequest(url: "\(server.base)/v1/orders/\(Self.orderType)/\(orderId)")
            fetch.headers.add(name: "Authorization", value: "AppleOrder \(token)")
            let fetched = try await http.execute(fetch, timeout: .seconds(60))
            #expect(fetched.status == .ok)
            #expect(Data(try await fetched.body.collect(upTo: 10 << 20).readableBytesView) == bundle)

            // Paying again with the same token is a replay; the order stays the one Wallet has.
            let (again, replay) = try await Serve.json(http, Serve.request(
                .POST, "\(server.base)/checkout/v1/sessions/\(id)/authorize", body: payment))
            #expect(again != 200, "\(replay)")
        }
    }

    @Test("A merchant's Order Type ID that the orders web service does not sign for stops start-up naming the key")
    func mismatchedOrderType() async throws {
        let fixture = try CheckoutFixture()
        let folder = try TemporaryDirectory.make(prefix: "serve-wallet-mismatch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flags = try await Self.orderFlags(in: folder, orderType: "order.com.example.other")
        let merchant = try Serve.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder,
                                               configure: Self.shippingMerchant)
        let run = try await Self.startUp(merchant: merchant, flags: flags, in: folder)
        #expect(run.status != 0 && run.status != 124, "\(run.stderr)")
        #expect(run.stderr.contains("walletOrders.orderTypeIdentifier"), "\(run.stderr)")
        #expect(run.stderr.contains("order.com.example.other"), "\(run.stderr)")

        // The right Order Type ID with a template no order templates folder holds: every paid order would fail.
        let misnamed = try Serve.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder) {
            Self.shippingMerchant(&$0)
            $0["walletOrders"] = ["orderTypeIdentifier": "order.com.example.other", "template": "shop-ordr"]
        }
        let typo = try await Self.startUp(merchant: misnamed, flags: flags, in: folder)
        #expect(typo.status != 0 && typo.status != 124, "\(typo.stderr)")
        #expect(typo.stderr.contains("walletOrders.template") && typo.stderr.contains("shop-ordr"), "\(typo.stderr)")
    }

    /// `tessera serve` with a merchant configuration and the order flags, to its exit (at most 60 s).
    static func startUp(merchant: URL, flags: [String], in folder: URL) async throws -> ProcessResult {
        try await offCooperativePool {
            try Subprocess.run("timeout", [
                "60", Subprocess.tesseraPath, "serve", "--port", "\(ServeProcess.unusedPort())",
                "--database", "sqlite:\(folder.path)/refused.sqlite",
                "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--merchant-config", merchant.path,
            ] + flags)
        }
    }
}
