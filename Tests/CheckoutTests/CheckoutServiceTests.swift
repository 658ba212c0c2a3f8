import Checkout
import Foundation
import HTTPTypes
import PaymentRequest
import Testing
import TesseraTestSupport

/// The checkout service on its own, with no router or HTTP request: it takes the decoded bodies and the credentials
/// as values, decides access itself, and throws `CheckoutError` with the status and field the HTTP module writes.
@Suite("Checkout service without HTTP")
struct CheckoutServiceTests {
    static let cart = Data(#"{"items": [{"sku": "TSHIRT", "quantity": 2}, {"sku": "POSTER", "quantity": 1}]}"#.utf8)

    static func create(_ service: CheckoutService, key: String, raw: Data = cart, fromMerchant: Bool = false)
        async throws -> CreatedSession
    {
        let body = try JSONDecoder().decode(CreateSessionRequest.self, from: raw)
        return try await service.createSession(body, raw: raw, idempotencyKey: key, fromMerchant: fromMerchant)
    }

    @Test("Sessions are created, replayed by key, and shown only to their client secret or the merchant")
    func sessionsAndCredentials() async throws {
        let fixture = try CheckoutFixture()
        let service = fixture.service
        let created = try await Self.create(service, key: "key-1")
        #expect(!created.replayed)
        #expect(created.view.items.map(\.amount) == ["50.00", "12.50"])
        let secret = try #require(created.view.clientSecret)

        // The same key and body (keys in another order) is a replay; without the API key it hides the secret.
        let reordered = Data(#"{"items": [{"quantity": 2, "sku": "TSHIRT"}, {"quantity": 1, "sku": "POSTER"}]}"#.utf8)
        let replay = try await Self.create(service, key: "key-1", raw: reordered)
        #expect(replay.replayed && replay.view.id == created.view.id && replay.view.clientSecret == nil)
        let conflict = await #expect(throws: CheckoutError.self) {
            try await Self.create(service, key: "key-1", raw: Data(#"{"items": [{"sku": "TSHIRT", "quantity": 1}]}"#.utf8))
        }
        #expect(conflict?.code == .idempotencyConflict && conflict?.status == .conflict)

        let id = created.view.id
        #expect(try await service.sessionView(id: id, credentials: .init(clientSecret: secret)).id == id)
        #expect(try await service.sessionView(id: id, credentials: .init(apiKey: .given(CheckoutFixture.apiKey)))
            .clientSecret == secret)
        #expect(try service.isMerchant(.init(apiKey: .given(CheckoutFixture.apiKey))))
        #expect(try !service.isMerchant(.init(clientSecret: secret)))
        let anonymous = await #expect(throws: CheckoutError.self) {
            try await service.sessionView(id: id, credentials: .init(clientSecret: "cs_secret_wrong"))
        }
        #expect(anonymous?.code == .unauthorized && anonymous?.field == "Checkout-Client-Secret")
        let wrongKey = #expect(throws: CheckoutError.self) { try service.isMerchant(.init(apiKey: .given("nope"))) }
        #expect(wrongKey?.status == .unauthorized && wrongKey?.field == "Authorization")
        let unusable = #expect(throws: CheckoutError.self) { try service.isMerchant(.init(apiKey: .unusable)) }
        #expect(unusable?.status == .unauthorized && unusable?.field == "Authorization")
        let missing = await #expect(throws: CheckoutError.self) {
            try await service.sessionView(id: "cs_missing", credentials: .init(clientSecret: secret))
        }
        #expect(missing?.code == .notFound && missing?.status == .notFound)
    }

    @Test("Free-form prices need the merchant; sheet updates reprice a pending session and name the field at fault")
    func pricesAndUpdates() async throws {
        let fixture = try CheckoutFixture()
        let service = fixture.service
        let freeForm = Data(#"{"items": [{"name": "Gift", "quantity": 1, "unitPrice": "9.00"}]}"#.utf8)
        let refused = await #expect(throws: CheckoutError.self) { try await Self.create(service, key: "k2", raw: freeForm) }
        #expect(refused?.code == .apiKeyRequired && refused?.field == "items[0]")
        #expect(try await Self.create(service, key: "k3", raw: freeForm, fromMerchant: true).view.items.first?.name == "Gift")
        // A name with a control character (a NUL, which PostgreSQL's jsonb refuses) is the merchant's mistake.
        for (index, name) in [#"Gift\u0000"#, #"Gift\nCard"#].enumerated() {
            let raw = Data(#"{"items": [{"name": "\#(name)", "quantity": 1, "unitPrice": "9.00"}]}"#.utf8)
            let control = await #expect(throws: CheckoutError.self) {
                try await Self.create(service, key: "k-control-\(index)", raw: raw, fromMerchant: true)
            }
            #expect(control?.field == "items[0].name" && control?.status == .badRequest, "\(String(describing: control))")
        }

        let created = try await Self.create(service, key: "k4")
        let credentials = CheckoutCredentials(clientSecret: created.view.clientSecret)
        let session = try await service.pendingSession(id: created.view.id, credentials: credentials)
        let express = try JSONDecoder().decode(ShippingMethodRequest.self, from: Data(#"{"identifier": "express"}"#.utf8))
        let update = try await service.selectShippingMethod(express, in: session)
        #expect(update.newTotal.amount == "82.66")
        #expect(try await service.sessionView(id: session.id, credentials: credentials).selectedShippingMethod == "express")

        let teleport = try JSONDecoder().decode(ShippingMethodRequest.self, from: Data(#"{"identifier": "teleport"}"#.utf8))
        let unknown = await #expect(throws: CheckoutError.self) {
            try await service.selectShippingMethod(teleport, in: try await service.pendingSession(id: session.id,
                                                                                                credentials: credentials))
        }
        #expect(unknown?.status == .unprocessableContent && unknown?.field == "identifier")
    }

    @Test("Pages are rendered by the service: a product's page, the page for an unknown product, the sheet")
    func pages() async throws {
        let fixture = try CheckoutFixture()
        let service = fixture.service
        let page = try service.buyPage(sku: "POSTER")
        #expect(page.found && page.html.contains("Poster") && page.contentSecurityPolicy.contains("default-src 'none'"))
        #expect(try !service.buyPage(sku: "NO-SUCH-SKU").found)
        let created = try await Self.create(service, key: "k5")
        let session = try await service.session(id: created.view.id, credentials: .init(clientSecret: created.view.clientSecret))
        let sheet = try service.sheetPage(for: session)
        #expect(sheet.found && sheet.html.contains(session.id) && sheet.contentSecurityPolicy.contains("frame-ancestors 'none'"))
    }
}
