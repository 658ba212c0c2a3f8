import Foundation
import PassBundle
import PassCrypto
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// Orders are pinned to the content of the template they were made from: an edited template (noticed on reload, or
/// read after a restart) changes new orders only, never a version a device already has under its `Last-Modified`.
@Suite("Order template versions")
struct OrderTemplateVersionTests {
    static let orderType = "order.com.example.shop"
    let store = MemoryPassStore()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-order-templates-\(UUID().uuidString)")
    let signer: OrderSigner

    init() throws {
        let chain = try TestChain()
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: Self.orderType, teamIdentifier: "TESSERA123")
        signer = try OrderSigner(credentials: try PassCredentials(
            certificate: order.certificate, privateKey: order.key, wwdr: chain.chain.wwdr))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"),
            to: folder.appendingPathComponent("shop-order"))
    }

    /// A new issuer over the same store: another server process, or the server after a restart.
    func issuer() -> OrderIssuer {
        OrderIssuer(store: store, signer: signer, configuration: .init(
            templatesDirectory: folder, publicURL: URL(string: "https://shop.example.test/")!))
    }

    func rename(shop name: String) throws {
        let url = folder.appendingPathComponent("shop-order/order.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        try #require(text.contains("\"Tessera Shop\""))
        try text.replacingOccurrences(of: "\"Tessera Shop\"", with: "\"\(name)\"").write(to: url, atomically: true, encoding: .utf8)
    }

    func shopName(_ issuer: OrderIssuer, _ identifier: String) async throws -> JSONValue? {
        let order = try #require(try await issuer.order(orderTypeIdentifier: Self.orderType, orderIdentifier: identifier))
        return try await issuer.orderDocument(for: order)["merchant"]?["displayName"]
    }

    @Test("after an edit and a restart, an order keeps its template's content through later changes; new orders get the edit")
    func pinnedAcrossRestarts() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = issuer()
        let made = try await first.createOrder(template: "shop-order", data: ["orderIdentifier": "PIN-1"]).order
        #expect(made.templateVersion != nil)

        try rename(shop: "Edited Shop")
        let restarted = issuer()
        #expect(try await shopName(restarted, "PIN-1") == "Tessera Shop")
        let changed = try #require(try await restarted.changeOrder(
            orderTypeIdentifier: Self.orderType, orderIdentifier: "PIN-1", data: ["status": "completed"]))
        #expect(changed.update.pass.templateVersion == made.templateVersion)
        #expect(try await shopName(restarted, "PIN-1") == "Tessera Shop")
        _ = try await restarted.createOrder(template: "shop-order", data: ["orderIdentifier": "PIN-2"])
        #expect(try await shopName(restarted, "PIN-2") == "Edited Shop")

        // The template's folder removed: its orders are still built, from the version the store keeps.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("shop-order"))
        let afterRemoval = issuer()
        #expect(try await shopName(afterRemoval, "PIN-1") == "Tessera Shop")
        #expect(try await shopName(afterRemoval, "PIN-2") == "Edited Shop")
        let order = try #require(try await afterRemoval.order(orderTypeIdentifier: Self.orderType, orderIdentifier: "PIN-1"))
        #expect(try await afterRemoval.signedBundle(for: order).count > 0)
    }

    @Test("a reload in a running process: new orders use the edit, existing ones keep theirs, and it says what changed")
    func reloadInProcess() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = issuer()
        _ = try await running.createOrder(template: "shop-order", data: ["orderIdentifier": "RL-1"])
        try rename(shop: "Reloaded Shop")
        // Not read again until a reload: a running process keeps the content it loaded.
        #expect(try await running.reloadTemplates().changed.map(\.name) == ["shop-order"])
        _ = try await running.createOrder(template: "shop-order", data: ["orderIdentifier": "RL-2"])
        #expect(try await shopName(running, "RL-1") == "Tessera Shop")
        #expect(try await shopName(running, "RL-2") == "Reloaded Shop")
        #expect(try await running.reloadTemplates().changed.isEmpty)
    }
}
