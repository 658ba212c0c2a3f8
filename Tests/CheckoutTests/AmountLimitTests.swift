import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

@Suite("Amounts beyond Apple Pay's limit are refused at creation")
struct AmountLimitTests {
    @Test("A total that can pass 100000000 is a 422 naming the field and the limit; nothing is stored", arguments: [
        (#"{"summary":{"subtotal":"25.00","tax":"99999971"}}"#, "summary"),
        (#"{"summary":{"subtotal":"100000000.01"}}"#, "summary.subtotal"),
        (#"{"summary":{"subtotal":"1.00","tax":"100000001"}}"#, "summary.tax"),
        (#"{"items":[{"name":"Box","quantity":1000,"unitPrice":"100000"}]}"#, "items"),
        (#"{"items":[{"name":"Box","quantity":1,"unitPrice":"999999999999999999999999999999999999999999"}]}"#,
         "items[0].unitPrice"),
    ])
    func refused(body: String, field: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let key = UUID().uuidString
            let response = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                    headers: JSONBody.headers(idempotencyKey: key),
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
            let error = try #require(try JSONBody.object(response)["error"] as? [String: Any])
            #expect(error["field"] as? String == field)
            #expect((error["message"] as? String)?.contains("100000000") == true, "\(error)")
            // Nothing was stored under the key: a good body with the same key creates a new session.
            let again = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                 headers: JSONBody.headers(idempotencyKey: key),
                                                 body: try JSONBody.buffer(["items": [["sku": "TSHIRT", "quantity": 1]]]))
            #expect(again.status == .created)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }

    @Test("A total just under the limit, with the dearest shipping, is accepted and its sheet renders")
    func underLimit() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            // 99999980 + express 15.00 + tax 0 = 99999995.
            let session = try await client.createSession(["summary": ["subtotal": "99999980", "tax": "0"]])
            let id = try #require(session["id"] as? String)
            let (method, update) = try await client.post("/checkout/v1/sessions/\(id)/shipping-method",
                                                         ["identifier": "express"])
            #expect(method == .ok)
            #expect((update["newTotal"] as? [String: Any])?["amount"] as? String == "99999995.00")
            let (read, _) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect(read == .ok)
            try await client.execute(uri: "/checkout/sheet/\(id)", method: .get, headers: JSONBody.json) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
