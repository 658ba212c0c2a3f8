import Foundation
import Testing
import TesseraTestSupport

/// A template folder copied or moved between identities' templates folders while the server runs: a name says which
/// certificate signs, so a copy never makes a brand's passes another brand's.
@Suite("tessera serve --identities: a template copied or moved between brands", .serialized)
struct ServeIdentitiesTemplateCopyTests {
    @Test("a copy in another brand's folder is ignored and logged; a template moved there keeps its passes signed by their own brand, and its figures")
    func copiedThenMoved() async throws {
        try await IdentitiesServer.with { server in
            let manager = FileManager.default
            // Brand A's folder comes first in the identities file: a copy there of brand B's template was read first.
            let own = server.work.appendingPathComponent("b/templates/store-card")
            let copy = server.work.appendingPathComponent("a/templates/store-card")
            let token = try await server.createPass(template: "store-card", serial: "COPY-1")
            // Brand B's campaign over its template, for later: it stays brand B's when the name moves.
            let later = Date().addingTimeInterval(3_600).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let scheduled = try await server.api("POST", "/api/v1/campaigns", body: """
                {"select": {"template": "store-card"}, "void": true, "scheduledAt": "\(later)"}
                """)
            #expect(scheduled.status == 202, "\(String(decoding: scheduled.body, as: UTF8.self))")
            let campaign = try #require(try OrdersServer.json(scheduled.body)["id"] as? String)
            // A designer starts brand A's cards from brand B's folder: brand B's template stays brand B's.
            try manager.copyItem(at: own, to: copy)
            var logged = false
            for _ in 0..<60 where !logged {
                try await Task.sleep(for: .milliseconds(250))
                logged = server.serve.log.contains("template in several identities' folders")
            }
            #expect(logged, "\(server.serve.log)")
            let created = try await server.api(
                "POST", "/api/v1/passes", body: #"{"template":"store-card","data":{"serialNumber":"COPY-2"}}"#)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            #expect(try OrdersServer.json(created.body)["passTypeIdentifier"] as? String == IdentitiesServer.loyaltyType)

            // Moved for good (brand B's copy removed): new passes are brand A's, and brand B's passes made from the
            // same version are still brand B's, changed and signed by brand B's certificate.
            try manager.removeItem(at: own)
            var moved = false
            for _ in 0..<60 where !moved {
                try await Task.sleep(for: .milliseconds(250))
                let made = try await server.api(
                    "POST", "/api/v1/passes", body: #"{"template":"store-card","data":{"serialNumber":"MOVED-\#(UUID().uuidString.prefix(8))"}}"#)
                moved = (try? OrdersServer.json(made.body)["passTypeIdentifier"] as? String) == IdentitiesServer.ticketType
            }
            #expect(moved, "\(server.serve.log)")
            let changed = try await server.api("PATCH", "/api/v1/passes/\(IdentitiesServer.loyaltyType)/COPY-1",
                                               body: #"{"data":{"fields":{"points":"120"}}}"#)
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            let (status, report) = try await server.fetchAndVerify(
                type: IdentitiesServer.loyaltyType, serial: "COPY-1", token: token, root: "b/root.pem")
            #expect(status == 0, "\(report) \(server.serve.log)")

            // The name's figures before the move are brand B's: brand A's key asking for the template sees its own
            // pass type's only, not brand B's change of COPY-1.
            var folded = false
            for _ in 0..<80 where !folded {
                let all = try await server.api("GET", "/api/v1/analytics/passes?template=store-card&interval=day")
                folded = ((try? OrdersServer.json(all.body)["totals"] as? [String: Any])?["updates"] as? Int ?? 0) >= 1
                if !folded { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(folded, "the admin's figures never showed brand B's change")
            let brandA = try await ServeKeysTests.key(server, name: "brand-a", identifiers: [IdentitiesServer.ticketType],
                                                      permissions: ["read"])
            #expect(try await ServeKeysTests.with(brandA.secret, server, "GET", "/api/v1/campaigns/\(campaign)").status == 404)
            let listed = try await ServeKeysTests.with(brandA.secret, server, "GET", "/api/v1/campaigns")
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(campaign))
            // Brand A's campaign behind newer ones of brand B: its key's first page reads past them.
            let brandACampaign = try await server.api("POST", "/api/v1/campaigns", body: """
                {"select": {"template": "event-ticket"}, "void": true, "scheduledAt": "\(later)"}
                """)
            let ownID = try #require(try OrdersServer.json(brandACampaign.body)["id"] as? String)
            for index in 0..<3 {
                let other = try await server.api("POST", "/api/v1/campaigns", body: """
                    {"select": {"passTypeIdentifier": "\(IdentitiesServer.loyaltyType)", "serialNumbers": ["COPY-\(index)"]}, \
                    "void": true, "scheduledAt": "\(later)"}
                    """)
                #expect(other.status == 202, "\(String(decoding: other.body, as: UTF8.self))")
            }
            let firstPage = try await ServeKeysTests.with(brandA.secret, server, "GET", "/api/v1/campaigns?limit=2")
            let shown = (try OrdersServer.json(firstPage.body)["campaigns"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(shown == [ownID], "\(String(decoding: firstPage.body, as: UTF8.self))")
            let seen = try await ServeKeysTests.with(brandA.secret, server, "GET",
                                                     "/api/v1/analytics/passes?template=store-card&interval=day")
            #expect(seen.status == 200, "\(String(decoding: seen.body, as: UTF8.self))")
            let totals = try #require(try OrdersServer.json(seen.body)["totals"] as? [String: Any])
            #expect(totals["updates"] as? Int == 0, "brand A's key sees brand B's figures: \(totals)")
        }
    }
}
