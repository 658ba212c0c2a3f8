import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PassBundle
import PassCrypto
import Testing
import TesseraTestSupport

@Suite("An order's passes as one .pkpasses download")
struct OrderPassesBundleTests {
    /// Pays a catalogue cart through development mode and returns the order id and the session's client secret.
    static func paidOrder(_ client: LiveTestClient, items: [[String: Any]]) async throws
        -> (orderId: String, clientSecret: String)
    {
        let session = try await client.createSession(["items": items])
        let id = try #require(session["id"] as? String)
        let secret = try #require(session["clientSecret"] as? String)
        let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/test-authorize",
                                                     ["shippingContact": CheckoutFixture.fullContact])
        #expect(status == .ok, "\(result)")
        return (try #require(result["orderId"] as? String), secret)
    }

    static func secret(_ value: String) -> HTTPFields { [HTTPField.Name("Checkout-Client-Secret")!: value] }

    @Test("Three tickets: one application/vnd.apple.pkpasses archive holding each signed pass, in order")
    func threePasses() async throws {
        let fixture = try CheckoutFixture(developmentMode: true)
        try await fixture.withClient { client in
            let (orderId, secret) = try await Self.paidOrder(client, items: [["sku": "TICKET-GA", "quantity": 3]])
            let (_, order) = try await client.get("/checkout/v1/orders/\(orderId)")
            let links = try #require(order["passes"] as? [[String: Any]]).compactMap { $0["downloadURL"] as? String }
            #expect(links.count == 3)

            let uri = "/checkout/v1/orders/\(orderId)/pkpasses"
            let archive = try await client.execute(uri: uri, method: .get, headers: Self.secret(secret)) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpasses")
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"\(orderId).pkpasses\"")
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                return Data(response.body.readableBytesView)
            }
            let bundle = try PassesBundle(data: archive)
            #expect(bundle.passes.map(\.name) == (1...3).map { "\(orderId)-\($0).pkpass" })
            for (entry, link) in zip(bundle.passes, links) {
                let report = PassVerifier(root: fixture.passChain.chain.root).verify(data: entry.data)
                #expect(report.wouldOpen && report.chainVerified, "\(entry.name): \(report.issues)")
                // The same signed pass as the buyer's single download link gives.
                let single = try await client.execute(
                    uri: String(link.dropFirst("https://passes.example.test".count)), method: .get
                ) { Data($0.body.readableBytesView) }
                #expect(single == entry.data, "\(entry.name)")
            }

            // The sheet's plain link carries the secret in the query; the merchant's API key reads it too.
            try await client.execute(uri: "\(uri)?clientSecret=\(secret)", method: .get) { response in
                #expect(response.status == .ok)
                // The same passes (the archive itself is written anew, with the time of this download in it).
                let again = try PassesBundle(data: Data(response.body.readableBytesView))
                #expect(again.passes.map(\.name) == bundle.passes.map(\.name))
                #expect(again.passes.map(\.data) == bundle.passes.map(\.data))
            }
            try await client.execute(uri: uri, method: .get, headers: JSONBody.json) { response in
                #expect(response.status == .ok)
            }
            let (anonymous, refused) = try await client.send(uri)
            #expect(anonymous == .unauthorized)
            #expect((refused["error"] as? [String: Any])?["code"] as? String == "unauthorized")
            let (wrong, _) = try await client.send(uri, headers: Self.secret("cs_secret_wrong"))
            #expect(wrong == .unauthorized)
        }
    }

    @Test("Eleven passes are more than Wallet takes from one bundle: 422 passesBundleLimit; each pass stays downloadable")
    func tooManyPasses() async throws {
        let fixture = try CheckoutFixture(developmentMode: true)
        try await fixture.withClient { client in
            let (orderId, secret) = try await Self.paidOrder(client, items: [["sku": "TICKET-GA", "quantity": 11]])
            let (status, body) = try await client.send("/checkout/v1/orders/\(orderId)/pkpasses",
                                                       headers: Self.secret(secret))
            #expect(status == .unprocessableContent)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "passesBundleLimit")
            #expect(error["field"] as? String == "passes")
            #expect(error["message"] as? String == """
                passes: Wallet takes at most 10 passes from one .pkpasses bundle; 11 were asked for (download them \
                in parts, or one by one)
                """)
            let (_, order) = try await client.get("/checkout/v1/orders/\(orderId)")
            let links = try #require(order["passes"] as? [[String: Any]]).compactMap { $0["downloadURL"] as? String }
            #expect(links.count == 11)
            let last = try #require(links.last)
            try await client.execute(uri: String(last.dropFirst("https://passes.example.test".count)), method: .get) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentType] == "application/vnd.apple.pkpass")
            }
        }
    }

    @Test("Signed passes larger in all than the bundle limit: 422 passesBundleLimit naming the sizes")
    func tooLarge() async throws {
        let fixture = try CheckoutFixture(developmentMode: true, passesBundleMaximumSize: 4000)
        try await fixture.withClient { client in
            let (orderId, secret) = try await Self.paidOrder(client, items: [["sku": "TICKET-GA", "quantity": 2]])
            let (status, body) = try await client.send("/checkout/v1/orders/\(orderId)/pkpasses",
                                                       headers: Self.secret(secret))
            #expect(status == .unprocessableContent)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "passesBundleLimit")
            let message = try #require(error["message"] as? String)
            #expect(message.hasPrefix("passes: the 2 signed passes are "), "\(message)")
            #expect(message.hasSuffix(" bytes; a .pkpasses bundle may be at most 4000 bytes (Wallet takes at most 150 MB): download them in parts"), "\(message)")
        }
    }

    @Test("An order without passes and a missing order are 404")
    func noPasses() async throws {
        let fixture = try CheckoutFixture(developmentMode: true)
        try await fixture.withClient { client in
            let (orderId, secret) = try await Self.paidOrder(client, items: [["sku": "POSTER", "quantity": 1]])
            let (status, body) = try await client.send("/checkout/v1/orders/\(orderId)/pkpasses",
                                                       headers: Self.secret(secret))
            #expect(status == .notFound)
            #expect((body["error"] as? [String: Any])?["message"] as? String == "the order has no passes")
            let (missing, _) = try await client.send("/checkout/v1/orders/ord_missing/pkpasses", headers: JSONBody.json)
            #expect(missing == .notFound)
        }
    }
}
