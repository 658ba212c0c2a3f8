import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import TesseraTestSupport

/// `walletOrders` in merchant.json as `tessera serve` reads it.
@Suite("Wallet orders in merchant.json on tessera serve (subprocesses)", .serialized)
struct ServeWalletOrdersTests {
    typealias Serve = ServeCheckoutTests

    @Test("A bad walletOrders stops start-up naming the key; a good one without a Wallet order issuer is announced and payments still succeed")
    func walletOrdersOnServe() async throws {
        let fixture = try CheckoutFixture()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-wallet-orders")
        defer { try? FileManager.default.removeItem(at: folder) }
        let merchant = try Serve.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder) {
            $0["walletOrders"] = ["orderTypeIdentifier": "pass.com.example.shop", "template": "shop-order"]
        }
        let (status, said) = try await ServeCheckoutProcessorTests.startUp(merchant: merchant, chain: chain, folder: folder)
        #expect(status != 0)
        #expect(said.contains("walletOrders.orderTypeIdentifier"), "\(said)")
        #expect(said.contains("order."), "\(said)")

        let endpoint = PaymentEndpointStandIn()
        try await ServeCheckoutProcessorTests.withServe(fixture, endpoint: endpoint, configure: { merchant in
            merchant["walletOrders"] = ["orderTypeIdentifier": "order.com.example.shop", "template": "shop-order"]
            merchant["paymentStep"] = ["kind": "hostedCard", "scriptURL": "https://shop.example.test/card-step.js"]
        }) { server, http in
            let id = try await Serve.createTicketSession(http, server.base)
            let card = #"{"cardPayment": {"token": "tok_serve_wallet", "network": "Visa", "lastFour": "4242"}}"#
            let (status, result) = try await Serve.json(http, Serve.request(
                .POST, "\(server.base)/checkout/v1/sessions/\(id)/authorize", body: Data(card.utf8)))
            #expect(status == 200, "\(result) \(server.output)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
            #expect(result["orderDetails"] == nil)
            #expect(server.output.contains("no Wallet order issuer"), "\(server.output)")
        }
    }
}
