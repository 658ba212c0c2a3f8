import Foundation
import Testing
import TesseraTestSupport

/// Edited order templates against `tessera serve`: on SIGHUP the server reads them again, new orders use the new
/// content, and an existing order keeps the content it was made from through a change and a restart.
@Suite("tessera serve order template edits")
struct ServeOrderTemplateEditTests {
    typealias Server = OrdersServer

    /// The merchant's name in an order's current `order.json`, as the issuer API answers it.
    static func merchantName(_ server: Server, _ identifier: String) async throws -> String? {
        let answer = try await server.api("GET", "/api/v1/orders/\(Server.orderType)/\(identifier)")
        try #require(answer.status == 200, "\(answer.head)")
        let order = try Server.json(answer.body)["order"] as? [String: Any]
        return (order?["merchant"] as? [String: Any])?["displayName"] as? String
    }

    static func create(_ server: Server, _ identifier: String) async throws {
        let made = try await server.api("POST", "/api/v1/orders",
                                        body: #"{"template":"shop-order","data":{"orderIdentifier":"\#(identifier)"}}"#)
        try #require(made.status == 201, "\(made.head)\(String(decoding: made.body, as: UTF8.self))")
    }

    @Test("after SIGHUP new orders use the edited template; an existing order keeps its content through a PATCH and a restart")
    func sighupThenRestart() async throws {
        let templates = try TemporaryDirectory.make(prefix: "edited-order-templates")
        try FileManager.default.copyItem(
            at: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"),
            to: templates.appendingPathComponent("shop-order"))
        let file = templates.appendingPathComponent("shop-order/order.json")
        let original = try String(contentsOf: file, encoding: .utf8)
        try #require(original.contains("\"Tessera Shop\""))
        let arguments = ["--order-templates", templates.path, "--template-poll-interval", "0"]
        try await Server.with(.sqlite, arguments: arguments) { server in
            try await Self.create(server, "EDIT-OLD")
            try original.replacingOccurrences(of: "\"Tessera Shop\"", with: "\"Tessera Shop, Hall B\"")
                .write(to: file, atomically: true, encoding: .utf8)
            kill(server.serve.process.processIdentifier, SIGHUP)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while !server.serve.log.contains("order template edited"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(server.serve.log.contains("order template edited"), "\(server.serve.log.suffix(2000))")
            try await Self.create(server, "EDIT-NEW")
            #expect(try await Self.merchantName(server, "EDIT-NEW") == "Tessera Shop, Hall B")
            #expect(try await Self.merchantName(server, "EDIT-OLD") == "Tessera Shop")
            let patched = try await server.api("PATCH", "/api/v1/orders/\(Server.orderType)/EDIT-OLD",
                                               body: #"{"data":{"status":"completed"}}"#)
            #expect(patched.status == 200, "\(patched.head)")
            #expect(try await Self.merchantName(server, "EDIT-OLD") == "Tessera Shop")

            // Restarted on the same database with only the edited files on disk.
            _ = try await server.serve.terminate()
            let restarted = Server(
                serve: try await ServeProcess(arguments: server.serve.arguments, reusing: server.serve),
                apns: server.apns, work: server.work, database: server.database)
            do {
                #expect(try await Self.merchantName(restarted, "EDIT-OLD") == "Tessera Shop")
                #expect(try await Self.merchantName(restarted, "EDIT-NEW") == "Tessera Shop, Hall B")
            } catch {
                _ = try? await restarted.serve.terminate()
                throw error
            }
            _ = try await restarted.serve.terminate()
        }
    }
}
