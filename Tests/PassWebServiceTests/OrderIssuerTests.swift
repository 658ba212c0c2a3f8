import Foundation
import HTTPTypes
import PassBundle
import PassCrypto
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// The orders issuer as checkout calls it, on an in-memory order store with a fixed clock.
@Suite("OrderIssuer")
struct OrderIssuerTests {
    static let orderType = "order.com.example.shop"
    let store = MemoryPassStore()
    let clock = TestClock()
    let issuer: OrderIssuer

    init() throws {
        let chain = try TestChain()
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: Self.orderType, teamIdentifier: "TESSERA123")
        let signer = try OrderSigner(credentials: try PassCredentials(
            certificate: order.certificate, privateKey: order.key, wwdr: chain.chain.wwdr))
        let clock = self.clock
        issuer = OrderIssuer(
            store: store, signer: signer,
            configuration: .init(
                templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates"),
                publicURL: URL(string: "https://shop.example.test/wallet/")!),
            now: { clock.now })
    }

    @Test("issueIfAbsent: concurrent calls make one order; later calls return it")
    func issueOnce() async throws {
        let data = Data(#"{"orderIdentifier":"CO-1","orderNumber":"7001"}"#.utf8)
        let issuer = self.issuer, now = clock.now
        let results = try await withThrowingTaskGroup(of: (record: PassRecord, created: Bool).self) { group in
            for _ in 0..<8 { group.addTask { try await issuer.issueIfAbsent(template: "shop-order", data: data, now: now) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter(\.created).count == 1)
        #expect(Set(results.map(\.record.authenticationToken)).count == 1)
        let again = try await issuer.issueIfAbsent(template: "shop-order", data: data, now: now)
        #expect(!again.created)
        #expect(again.record == results[0].record)

        let handOff = issuer.handOff(for: again.record)
        #expect(handOff.orderTypeIdentifier == Self.orderType)
        #expect(handOff.orderIdentifier == "CO-1")
        #expect(handOff.webServiceURL == "https://shop.example.test/wallet")
        #expect(handOff.authenticationToken == again.record.authenticationToken)
        #expect(handOff.downloadURL == "https://shop.example.test/wallet/download/\(again.record.downloadToken).order")
        let document = try await issuer.orderDocument(for: again.record)
        #expect(document["orderNumber"] == .string("7001"))
        #expect(document["webServiceURL"] == .string(handOff.webServiceURL))
    }

    @Test("issueIfAbsent refuses data without an orderIdentifier, naming it")
    func needsIdentifier() async throws {
        let error = await #expect(throws: IssuerError.self) {
            _ = try await issuer.issueIfAbsent(template: "shop-order", data: Data("{}".utf8), now: clock.now)
        }
        #expect(error?.field == "data.orderIdentifier")
    }

    @Test("data naming another Order Type ID than the certificate's is refused, naming the field; its own is taken")
    func orderTypeFromTheCertificate() async throws {
        let error = await #expect(throws: IssuerError.self) {
            _ = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": .string("OT-1"),
                                                                           "orderTypeIdentifier": .string("order.com.other")])
        }
        #expect(error?.field == "data.orderTypeIdentifier" && error?.status.code == 422, "\(String(describing: error))")
        #expect(try await issuer.order(orderTypeIdentifier: Self.orderType, orderIdentifier: "OT-1") == nil)
        let made = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": .string("OT-2"),
                                                                             "orderTypeIdentifier": .string(Self.orderType)])
        #expect(made.order.passTypeIdentifier == Self.orderType)
    }

    @Test("a change's null removes a key the template gives (a required one is refused); a change that changes nothing is no version")
    func nullsAndNoOps() async throws {
        let (created, _) = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": "NU-1"])
        #expect(try await issuer.orderDocument(for: created)["customer"] != nil)
        let removed = try #require(try await issuer.changeOrder(orderTypeIdentifier: Self.orderType, orderIdentifier: "NU-1",
                                                                 data: ["customer": .null]))
        #expect(try await issuer.orderDocument(for: removed.update.pass)["customer"] == nil)
        let error = await #expect(throws: IssuerError.self) {
            _ = try await issuer.changeOrder(orderTypeIdentifier: Self.orderType, orderIdentifier: "NU-1", data: ["merchant": .null])
        }
        #expect(error?.description.contains("merchant") == true, "\(String(describing: error))")
        let again = try #require(try await issuer.changeOrder(orderTypeIdentifier: Self.orderType, orderIdentifier: "NU-1",
                                                               data: ["customer": .null]))
        #expect(again.update.pass.updateTag == removed.update.pass.updateTag && again.update.pushesQueued == 0)

        // A fulfillment without its type: the member named, as create names it, not the decoder's text, at its place in
        // the change (it is the merged order's second).
        let shapeless = await #expect(throws: IssuerError.self) {
            _ = try await issuer.changeOrder(orderTypeIdentifier: Self.orderType, orderIdentifier: "NU-1",
                                             data: ["fulfillments": .array([.object(["fulfillmentIdentifier": "NEW-1"])])])
        }
        #expect(shapeless?.field == "data.fulfillments[0].fulfillmentType", "\(String(describing: shapeless))")
        #expect(shapeless?.description.contains("required key is missing") == true && shapeless?.description.contains("DecodingError") == false)
    }

    @Test("a member removed by one change stays removed through later changes, at any depth, fulfillments too")
    func removalsLast() async throws {
        let order = Self.orderType
        _ = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": "RM-1", "fulfillments": .null])
        _ = try #require(try await issuer.changeOrder(orderTypeIdentifier: order, orderIdentifier: "RM-1",
                                                      data: ["customer": .object(["emailAddress": .null])]))
        var latest = try #require(try await issuer.order(orderTypeIdentifier: order, orderIdentifier: "RM-1"))
        var document = try await issuer.orderDocument(for: latest)
        #expect(document["customer"]?["emailAddress"] == nil && document["customer"]?["givenName"] == .string("Ada"))
        _ = try #require(try await issuer.changeOrder(orderTypeIdentifier: order, orderIdentifier: "RM-1",
                                                      data: ["customer": .null]))
        // A later change of something else: neither the template's customer nor its sample shipment comes back.
        let later = try #require(try await issuer.changeOrder(orderTypeIdentifier: order, orderIdentifier: "RM-1",
                                                              data: ["status": "completed"]))
        latest = later.update.pass
        document = try await issuer.orderDocument(for: latest)
        #expect(document["status"] == .string("completed"))
        #expect(document["customer"] == nil, "\(document)")
        #expect(document["fulfillments"] == nil, "\(document)")
        // And put back by a change that gives it.
        let back = try #require(try await issuer.changeOrder(orderTypeIdentifier: order, orderIdentifier: "RM-1",
                                                             data: ["customer": .object(["givenName": "Grace"])]))
        document = try await issuer.orderDocument(for: back.update.pass)
        #expect(document["customer"] == .object(["givenName": "Grace"]), "\(document)")
    }

    @Test("each change is a new version: updatedAt strictly later, even within the same second")
    func updatedAtAdvances() async throws {
        let (created, _) = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": "CO-2"])
        var previous = created.lastModified
        // (The template's fulfillment is processing already: the same status again would change nothing.)
        for status in ["shipped", "outForDelivery", "delivered"] {
            let patch: [String: JSONValue] = [
                "fulfillments": .array([.object(["fulfillmentIdentifier": "TS-1001-1", "status": .string(status)])]),
            ]
            let change = try #require(try await issuer.changeOrder(
                orderTypeIdentifier: Self.orderType, orderIdentifier: "CO-2", data: patch))
            #expect(change.update.pass.lastModified > previous)
            previous = change.update.pass.lastModified
            let document = try await issuer.orderDocument(for: change.update.pass)
            #expect(document["updatedAt"] == .string(OrderIssuerTests.rfc3339(previous)))
        }
        #expect(try await issuer.changeOrder(orderTypeIdentifier: Self.orderType, orderIdentifier: "CO-404", data: [:]) == nil)
    }

    @Test("concurrent changes of one order all land: none is lost, none applied to a stale version")
    func concurrentChanges() async throws {
        _ = try await issuer.createOrder(template: "shop-order", data: ["orderIdentifier": "CO-3"])
        let template = try JSONValue(jsonData: Data(contentsOf: Subprocess.repositoryRoot
            .appendingPathComponent("OrderTemplates/shop-order/order.json")))
        guard case .object(let order) = template, case .array(let fulfillments) = order["fulfillments"],
              case .object(let shipment) = fulfillments.first
        else { Issue.record("the shop-order template has no fulfillment to copy"); return }
        let issuer = self.issuer
        // Eight merchants' systems add a shipment each at the same moment, and a ninth completes the order.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                var added = shipment
                added["fulfillmentIdentifier"] = .string("CO-3-\(index)")
                group.addTask {
                    _ = try await issuer.changeOrder(
                        orderTypeIdentifier: Self.orderType, orderIdentifier: "CO-3",
                        data: ["fulfillments": .array([.object(added)])])
                }
            }
            group.addTask {
                _ = try await issuer.changeOrder(
                    orderTypeIdentifier: Self.orderType, orderIdentifier: "CO-3", data: ["status": .string("completed")])
            }
            try await group.waitForAll()
        }
        let stored = try #require(try await store.pass(passTypeIdentifier: Self.orderType, serialNumber: "CO-3"))
        let document = try await issuer.orderDocument(for: stored)
        guard case .array(let final) = document["fulfillments"] else { Issue.record("no fulfillments"); return }
        let identifiers = Set(final.compactMap { entry -> String? in
            if case .object(let object) = entry, case .string(let id) = object["fulfillmentIdentifier"] { return id }
            return nil
        })
        #expect(identifiers.isSuperset(of: (0..<8).map { "CO-3-\($0)" }), "\(identifiers.sorted())")
        #expect(document["status"] == .string("completed"))
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }
}
