import Foundation
import Testing
import TesseraTestSupport

/// An API key's listing cursors are sealed: they show no stored item's identifiers (a page can end on another brand's
/// item), and a cursor the key made up is refused rather than placing the search anywhere in the table.
@Suite("Issuer API: an API key's listing cursors are sealed")
struct ServeKeyCursorTests {
    typealias Server = IdentitiesServer

    static func decodedBase64URL(_ text: String) -> String {
        var text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    @Test("a key pages through its own passes with sealed cursors, none skipped or repeated; a plain or altered cursor is 400")
    func sealedCursors() async throws {
        try await Server.with { server in
            for serial in ["K-1", "K-2", "K-3"] { _ = try await server.createPass(template: "event-ticket", serial: serial) }
            _ = try await server.createPass(template: "store-card", serial: "OTHER-1")
            let key = try await ServeKeysTests.key(server, name: "brand-a", identifiers: ["pass.com.brand-a.*"],
                                                   permissions: ["read"])
            var seen: [String] = []
            var cursor: String?
            var cursors: [String] = []
            repeat {
                let path = "/api/v1/passes?limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await ServeKeysTests.with(key.secret, server, "GET", path)
                #expect(page.status == 200, "\(String(decoding: page.body, as: UTF8.self))")
                let json = try OrdersServer.json(page.body)
                seen += ((json["passes"] as? [[String: Any]]) ?? []).compactMap { $0["serialNumber"] as? String }
                cursor = json["nextCursor"] as? String
                if let cursor { cursors.append(cursor) }
            } while cursor != nil && seen.count < 10
            #expect(seen == ["K-1", "K-2", "K-3"])
            for sealed in cursors {
                let shown = Self.decodedBase64URL(sealed)
                #expect(!shown.contains("K-") && !shown.contains("pass.com"), "a key's cursor shows \(shown)")
            }

            // The admin's cursors are plain; a key given one (or one altered) is refused, naming the cursor.
            let admin = try OrdersServer.json(try await server.api("GET", "/api/v1/passes?limit=1").body)
            let plain = try #require(admin["nextCursor"] as? String)
            #expect(Self.decodedBase64URL(plain).contains("\u{0}"))
            var characters = Array(try #require(cursors.first))
            characters[10] = characters[10] == "A" ? "B" : "A"
            let altered = String(characters)
            for bad in [plain, altered] {
                let refused = try await ServeKeysTests.with(key.secret, server, "GET", "/api/v1/passes?cursor=\(bad)")
                #expect(refused.status == 400, "\(String(decoding: refused.body, as: UTF8.self))")
                let error = try OrdersServer.json(refused.body)["error"] as? [String: Any]
                #expect(error?["field"] as? String == "cursor", "\(String(describing: error))")
            }
        }
    }
}
