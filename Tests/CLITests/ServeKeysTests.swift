import Foundation
import Testing
import TesseraTestSupport

/// Scoped API keys over HTTP against `tessera serve --identities` with two brands: a key sees and changes only its
/// brand's passes, templates, campaigns, events and redemptions, and another brand's answer exactly as missing ones;
/// permissions give 403; only the admin token manages keys; a revocation holds at once on a second process.
@Suite("tessera serve: scoped API keys")
struct ServeKeysTests {
    typealias Server = IdentitiesServer

    /// Makes a key with the admin token and returns its secret and id.
    static func key(_ server: Server, name: String, identifiers: [String], permissions: [String]) async throws
        -> (secret: String, id: String)
    {
        let body = try JSONSerialization.data(withJSONObject: [
            "name": name, "scope": ["identifiers": identifiers, "permissions": permissions],
        ])
        let made = try await server.api("POST", "/api/v1/keys", body: String(decoding: body, as: UTF8.self))
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        let json = try OrdersServer.json(made.body)
        return (try #require(json["secret"] as? String), try #require(json["id"] as? String))
    }

    /// A request with an API key.
    static func with(_ secret: String, _ server: Server, _ method: String, _ path: String, body: String? = nil) async throws
        -> (status: Int, head: String, body: Data)
    {
        try await server.send(method, path, headers: ["Authorization: Bearer \(secret)"], body: body)
    }

    @Test("another brand's items answer exactly as missing ones; permissions, key management and listing")
    func scope() async throws {
        try await Server.with { server in
            _ = try await server.createPass(template: "event-ticket", serial: "A-1")
            _ = try await server.createPass(template: "store-card", serial: "B-1")
            let brandA = try await Self.key(server, name: "brand-a", identifiers: ["pass.com.brand-a.*"], permissions: ["read", "write", "redeem"])
            let reader = try await Self.key(server, name: "brand-a-reader", identifiers: [Server.ticketType], permissions: ["read"])

            // The other brand's pass, and a pass that does not exist: the same status and body, for every method.
            for (method, body) in [("GET", nil), ("PATCH", #"{"data":{"fields":{"seat":"1A"}}}"#), ("DELETE", nil)] as [(String, String?)] {
                let other = try await Self.with(brandA.secret, server, method, "/api/v1/passes/\(Server.loyaltyType)/B-1", body: body)
                let missing = try await Self.with(brandA.secret, server, method, "/api/v1/passes/\(Server.loyaltyType)/NOPE", body: body)
                #expect(other.status == 404 && other.status == missing.status && other.body == missing.body, "\(method)")
            }
            let otherTemplate = try await Self.with(brandA.secret, server, "POST", "/api/v1/passes", body: #"{"template":"store-card","data":{}}"#)
            let noTemplate = try await Self.with(brandA.secret, server, "POST", "/api/v1/passes", body: #"{"template":"no-such-card","data":{}}"#)
            #expect(otherTemplate.status == noTemplate.status)
            #expect(String(decoding: otherTemplate.body, as: UTF8.self).replacingOccurrences(of: "store-card", with: "X")
                    == String(decoding: noTemplate.body, as: UTF8.self).replacingOccurrences(of: "no-such-card", with: "X"))

            // Its own brand: read, change, create.
            #expect(try await Self.with(brandA.secret, server, "GET", "/api/v1/passes/\(Server.ticketType)/A-1").status == 200)
            let changed = try await Self.with(brandA.secret, server, "PATCH", "/api/v1/passes/\(Server.ticketType)/A-1",
                                              body: #"{"data":{"fields":{"seat":"2B"}}}"#)
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            let created = try await Self.with(brandA.secret, server, "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"A-2"}}"#)
            #expect(created.status == 201)
            let listed = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/passes").body)
            #expect(((listed["passes"] as? [[String: Any]]) ?? []).compactMap { $0["serialNumber"] as? String } == ["A-1", "A-2"])
            let templates = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/templates").body)
            #expect(((templates["templates"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } == ["event-ticket"])
            let bundle = try await Self.with(brandA.secret, server, "POST", "/api/v1/pkpasses",
                                             body: #"{"passes":[{"passTypeIdentifier":"\#(Server.loyaltyType)","serialNumber":"B-1"}]}"#)
            #expect(bundle.status == 404)
            // An export by the other brand's template is an export by a template that does not exist: same columns.
            let foreignExport = try await Self.with(brandA.secret, server, "GET", "/api/v1/passes?template=store-card&format=csv")
            let noneExport = try await Self.with(brandA.secret, server, "GET", "/api/v1/passes?template=no-such-card&format=csv")
            #expect(foreignExport.status == noneExport.status && foreignExport.body == noneExport.body,
                    "\(String(decoding: foreignExport.body, as: UTF8.self)) | \(String(decoding: noneExport.body, as: UTF8.self))")

            // Redemption of the other brand's pass: unknown, as a pass that does not exist.
            let scan = try OrdersServer.json(try await Self.with(
                brandA.secret, server, "POST", "/api/v1/redemptions",
                body: #"{"passTypeIdentifier":"\#(Server.loyaltyType)","serialNumber":"B-1"}"#).body)
            #expect(scan["result"] as? String == "unknown")

            // Campaigns and events: its own only.
            let otherCampaign = try await Self.with(brandA.secret, server, "POST", "/api/v1/campaigns",
                                                    body: #"{"select":{"template":"store-card"},"data":{"fields":{"balance":"1"}}}"#)
            #expect(otherCampaign.status == 422 && String(decoding: otherCampaign.body, as: UTF8.self).contains("no template named"))
            let adminCampaign = try await server.api("POST", "/api/v1/campaigns",
                                                     body: #"{"select":{"template":"store-card"},"data":{"fields":{"balance":"2"}}}"#)
            #expect(adminCampaign.status == 202)
            let campaignID = try #require(try OrdersServer.json(adminCampaign.body)["id"] as? String)
            let seen = try await Self.with(brandA.secret, server, "GET", "/api/v1/campaigns/\(campaignID)")
            let unseen = try await Self.with(brandA.secret, server, "GET", "/api/v1/campaigns/cmp_doesnotexist000000")
            #expect(seen.status == 404 && seen.body == unseen.body)
            let campaigns = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/campaigns").body)
            #expect((campaigns["campaigns"] as? [Any])?.isEmpty == true)
            // The campaign changed brand B's pass meanwhile: its events are in the log, not in this key's view.
            var done = false
            for _ in 0..<100 where !done {
                let state = try OrdersServer.json(try await server.api("GET", "/api/v1/campaigns/\(campaignID)").body)
                done = state["state"] as? String == "done"
                if !done { try await Task.sleep(for: .milliseconds(100)) }
            }
            let all = try OrdersServer.json(try await server.api("GET", "/api/v1/events?limit=1000").body)
            let allTypes = ((all["events"] as? [[String: Any]]) ?? []).compactMap { ($0["data"] as? [String: Any])?["passTypeIdentifier"] as? String }
            #expect(Set(allTypes) == [Server.ticketType, Server.loyaltyType], "\(allTypes)")
            let events = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/events?limit=1000").body)
            let types = ((events["events"] as? [[String: Any]]) ?? []).compactMap { ($0["data"] as? [String: Any])?["passTypeIdentifier"] as? String }
            #expect(!types.isEmpty && Set(types) == [Server.ticketType], "\(types)")
            // Only the other brand's events since: an empty page, and the cursor the key asked with.
            let cursor = try #require(events["nextCursor"] as? String)
            _ = try await server.createPass(template: "store-card", serial: "B-2")
            let later = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/events?after=\(cursor)&limit=1000").body)
            #expect((later["events"] as? [Any])?.isEmpty == true && later["nextCursor"] as? String == cursor, "\(later)")
            // The end of the log, for a key as for the admin: the latest cursor, not the start of the log.
            let latest = try OrdersServer.json(try await Self.with(brandA.secret, server, "GET", "/api/v1/events?after=latest").body)
            let adminLatest = try OrdersServer.json(try await server.api("GET", "/api/v1/events?after=latest").body)
            #expect(latest["nextCursor"] as? String == adminLatest["nextCursor"] as? String && latest["nextCursor"] as? String != "0", "\(latest)")

            // Permissions: a read-only key reads and is refused changes (403); keys are the admin's.
            #expect(try await Self.with(reader.secret, server, "GET", "/api/v1/passes/\(Server.ticketType)/A-1").status == 200)
            let refused = try await Self.with(reader.secret, server, "PATCH", "/api/v1/passes/\(Server.ticketType)/A-1", body: #"{"data":{}}"#)
            #expect(refused.status == 403 && String(decoding: refused.body, as: UTF8.self).contains("forbidden"))
            #expect(try await Self.with(brandA.secret, server, "GET", "/api/v1/keys").status == 403)
            #expect(try await Self.with("tsk_not-a-key-0000000000000000000000000000", server, "GET", "/api/v1/passes").status == 401)

            // The listing never shows secrets; revocation is at once.
            let keys = String(decoding: try await server.api("GET", "/api/v1/keys").body, as: UTF8.self)
            #expect(keys.contains(brandA.id) && !keys.contains(brandA.secret) && !keys.contains("secret"))
            #expect(try await server.api("DELETE", "/api/v1/keys/\(brandA.id)").status == 204)
            #expect(try await Self.with(brandA.secret, server, "GET", "/api/v1/passes").status == 401)
            #expect(try await server.api("DELETE", "/api/v1/keys/\(brandA.id)").status == 404)

            // Bad bodies name the member.
            let bad = try await server.api("POST", "/api/v1/keys", body: #"{"name":"x","scope":{"identifiers":["com.example"],"permissions":["read"]}}"#)
            #expect(bad.status == 422 && String(decoding: bad.body, as: UTF8.self).contains("scope.identifiers[0]"))
            let badPermission = try await server.api("POST", "/api/v1/keys", body: #"{"name":"x","scope":{"identifiers":["pass.x.y"],"permissions":["admin"]}}"#)
            #expect(badPermission.status == 422 && String(decoding: badPermission.body, as: UTF8.self).contains("scope.permissions[0]"))
        }
    }

    @Test("Idempotency-Keys are each caller's own: another brand's key neither replays nor refuses them")
    func idempotencyKeysPerCaller() async throws {
        try await Server.with { server in
            _ = try await server.createPass(template: "event-ticket", serial: "A-1")
            _ = try await server.createPass(template: "store-card", serial: "B-1")
            let brandA = try await Self.key(server, name: "brand-a", identifiers: ["pass.com.brand-a.*"], permissions: ["read", "write", "redeem"])
            let brandB = try await Self.key(server, name: "brand-b", identifiers: ["pass.com.brand-b.*"], permissions: ["read", "write", "redeem"])
            func scan(_ secret: String?, _ body: String, key: String) async throws -> (status: Int, json: [String: Any]) {
                let answer = try await server.send(
                    "POST", "/api/v1/redemptions",
                    headers: ["Authorization: Bearer \(secret ?? ServeProcess.adminToken)", "Idempotency-Key: \(key)"], body: body)
                return (answer.status, (try? OrdersServer.json(answer.body)) ?? [:])
            }
            let ticket = #"{"passTypeIdentifier":"\#(Server.ticketType)","serialNumber":"A-1","place":"North"}"#
            let card = #"{"passTypeIdentifier":"\#(Server.loyaltyType)","serialNumber":"B-1","place":"Till 1"}"#

            let first = try await scan(nil, ticket, key: "scan-1")
            #expect(first.json["result"] as? String == "valid", "\(first.json)")
            // Brand B's own scan under the same key is its own, not a conflict with the admin's.
            let own = try await scan(brandB.secret, card, key: "scan-1")
            #expect(own.status == 200 && own.json["result"] as? String == "valid", "\(own.json)")
            // Brand B sending a key and body the admin used: the ticket is not its to see, and nothing is replayed.
            #expect(try await scan(nil, ticket, key: "scan-2").json["result"] as? String == "alreadyRedeemed")
            let foreign = try await scan(brandB.secret, ticket, key: "scan-2")
            #expect(foreign.status == 200 && foreign.json["result"] as? String == "unknown", "\(foreign.json)")
            #expect(foreign.json["replayed"] as? Bool == false && foreign.json["pass"] is NSNull, "\(foreign.json)")
            #expect(!String(describing: foreign.json).contains("authenticationToken"))
            // Brand A's key with the admin's body: a scan of its own (the ticket is used), not the admin's answer.
            let again = try await scan(brandA.secret, ticket, key: "scan-1")
            #expect(again.json["result"] as? String == "alreadyRedeemed" && again.json["replayed"] as? Bool == false, "\(again.json)")
            // The same caller, the same key, another body: 409 idempotencyConflict.
            let conflict = try await scan(nil, card, key: "scan-1")
            #expect(conflict.status == 409, "\(conflict.json)")
            #expect((conflict.json["error"] as? [String: Any])?["code"] as? String == "idempotencyConflict", "\(conflict.json)")

            // Campaigns: the admin's key is not brand A's, and the 409 names nobody else's campaign.
            func campaign(_ secret: String?, _ body: String) async throws -> (status: Int, json: [String: Any]) {
                let answer = try await server.send(
                    "POST", "/api/v1/campaigns",
                    headers: ["Authorization: Bearer \(secret ?? ServeProcess.adminToken)", "Idempotency-Key: move-1"], body: body)
                return (answer.status, (try? OrdersServer.json(answer.body)) ?? [:])
            }
            let cards = #"{"select":{"template":"store-card"},"data":{"fields":{"balance":"5"}}}"#
            let tickets = #"{"select":{"template":"event-ticket"},"data":{"fields":{"seat":"9C"}}}"#
            let admin = try await campaign(nil, cards)
            #expect(admin.status == 202, "\(admin.json)")
            let mine = try await campaign(brandA.secret, tickets)
            #expect(mine.status == 202 && mine.json["id"] as? String != admin.json["id"] as? String, "\(mine.json)")
            let replay = try await campaign(brandA.secret, tickets)
            #expect(replay.status == 202 && replay.json["id"] as? String == mine.json["id"] as? String, "\(replay.json)")
            let mismatch = try await campaign(brandA.secret, #"{"select":{"template":"event-ticket"},"void":true}"#)
            #expect(mismatch.status == 409, "\(mismatch.json)")
            #expect((mismatch.json["error"] as? [String: Any])?["code"] as? String == "idempotencyConflict")
            #expect(!String(describing: mismatch.json).contains(admin.json["id"] as? String ?? "-"))
        }
    }

    @Test("a key that may only redeem is shown the gate's view of the pass: its fields, never its token, links or data")
    func redeemOnlyKeySeesTheGateView() async throws {
        try await Server.with { server in
            _ = try await server.createPass(template: "event-ticket", serial: "G-1")
            let gate = try await Self.key(server, name: "gate", identifiers: [Server.ticketType], permissions: ["redeem"])
            let body = #"{"passTypeIdentifier":"\#(Server.ticketType)","serialNumber":"G-1","place":"North"}"#
            for expected in ["valid", "alreadyRedeemed"] {
                let scan = try await Self.with(gate.secret, server, "POST", "/api/v1/redemptions", body: body)
                let text = String(decoding: scan.body, as: UTF8.self)
                let json = try OrdersServer.json(scan.body)
                #expect(scan.status == 200 && json["result"] as? String == expected, "\(text)")
                let pass = try #require(json["pass"] as? [String: Any], "\(text)")
                #expect(pass["serialNumber"] as? String == "G-1" && pass["redemptions"] as? Int == 1, "\(text)")
                #expect(pass["fields"] is [String: Any], "\(text)")
                for hidden in ["authenticationToken", "downloadURL", "holderPageURL", "data", "googleSaveURL"] {
                    #expect(pass[hidden] == nil, "\(hidden) shown to a redeem-only key: \(text)")
                }
            }
            // The admin still gets the whole state.
            let full = try await server.send("POST", "/api/v1/redemptions",
                                             headers: ["Authorization: Bearer \(ServeProcess.adminToken)"], body: body)
            let pass = try #require(try OrdersServer.json(full.body)["pass"] as? [String: Any])
            #expect(pass["authenticationToken"] is String && pass["downloadURL"] is String)
        }
    }

    @Test("tessera keys create, list and revoke against the server")
    func commandLine() async throws {
        try await Server.with { server in
            let token = server.work.appendingPathComponent("admin.token")
            try Data(ServeProcess.adminToken.utf8).write(to: token)
            let common = ["--server", server.serve.baseURL, "--admin-token-file", token.path]
            let secretFile = server.work.appendingPathComponent("brand-b.secret")
            let made = try await Subprocess.tessera(["keys", "create", "--name", "brand-b", "--identifier", "pass.com.brand-b.*",
                                                     "--permission", "read", "--secret-file", secretFile.path] + common)
            #expect(made.status == 0, "\(made.stderr)")
            let id = try #require(try OrdersServer.json(Data(made.stdout.utf8))["id"] as? String)
            let secret = try String(contentsOf: secretFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            let mode = try FileManager.default.attributesOfItem(atPath: secretFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            // A secret is never written over a file that is there (here, the first key's secret), nor made where it
            // cannot be kept: refused before any key is made.
            let keysBefore = try await Subprocess.tessera(["keys", "list"] + common).stdout
            for (path, reason) in [(secretFile.path, "already exists"),
                                   (server.work.appendingPathComponent("no-folder/k.secret").path, "the folder")] {
                let refused = try await Subprocess.tessera(["keys", "create", "--name", "brand-c", "--identifier", "pass.com.brand-c.*",
                                                            "--permission", "read", "--secret-file", path] + common)
                #expect(refused.status == 1 && refused.stderr.contains("--secret-file \(path): \(reason)"), "\(refused.stderr)")
            }
            #expect(try await Subprocess.tessera(["keys", "list"] + common).stdout == keysBefore)
            #expect(try String(contentsOf: secretFile, encoding: .utf8).trimmingCharacters(in: .newlines) == secret)
            #expect(!made.stdout.contains(secret))
            #expect(try await Self.with(secret, server, "GET", "/api/v1/templates").status == 200)
            let list = try await Subprocess.tessera(["keys", "list"] + common)
            #expect(list.status == 0 && list.stdout.contains(id) && !list.stdout.contains(secret))
            let revoked = try await Subprocess.tessera(["keys", "revoke", id] + common)
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(try await Self.with(secret, server, "GET", "/api/v1/templates").status == 401)
            let again = try await Subprocess.tessera(["keys", "revoke", id] + common)
            #expect(again.status == 1 && again.stderr.contains("no such API key"))

            // No server on the port: said at once, in the system's words, not after a minute of retries.
            let closed = "http://127.0.0.1:\(ServeProcess.unusedPort())"
            let started = Date()
            let unreachable = try await Subprocess.tessera(["keys", "list", "--server", closed, "--admin-token-file", token.path])
            #expect(unreachable.status == 1 && unreachable.stderr.contains("cannot reach the server: Connection refused"), "\(unreachable.stderr)")
            #expect(Date().timeIntervalSince(started) < TestTime.seconds(15), "took \(Date().timeIntervalSince(started)) s")

            // A server that takes the connection and says nothing: said after 10 s, not after the request's minute.
            let silent = try SilentListener()
            let waited = Date()
            let unanswered = try await Subprocess.tessera(
                ["keys", "list", "--server", "http://127.0.0.1:\(silent.port)", "--admin-token-file", token.path])
            let seconds = Date().timeIntervalSince(waited)
            #expect(unanswered.status == 1 && unanswered.stderr.contains("cannot reach the server: no answer within 10 s"),
                    "\(unanswered.stderr)")
            #expect(seconds >= 9 && seconds < TestTime.seconds(30), "took \(seconds) s")
            withExtendedLifetime(silent) {}
        }
    }

    @Test("a key revoked on one process is refused by the other at once (PostgreSQL)")
    func revocationAcrossProcesses() async throws {
        guard !TestPostgres.skipped else { return }
        guard let url = TestPostgres.url else {
            Issue.record(Comment(rawValue: TestPostgres.missingServer("API keys on two processes")))
            return
        }
        let database = url + (url.contains("?") ? "&" : "?") + "schema=tessera_keys_\(UInt32.random(in: 0...UInt32.max))"
        let work = try await Server.prepare()
        let arguments = ["--identities", work.appendingPathComponent("identities.json").path, "--database", database]
        let first = try await ServeProcess(arguments: arguments, singleIdentity: false)
        let second = try await ServeProcess(arguments: arguments, singleIdentity: false)
        let one = Server(work: work, apns: nil, serve: first)
        let two = Server(work: work, apns: nil, serve: second)
        let key = try await Self.key(one, name: "brand-a", identifiers: [Server.ticketType], permissions: ["read"])
        #expect(try await Self.with(key.secret, two, "GET", "/api/v1/templates").status == 200)
        #expect(try await one.api("DELETE", "/api/v1/keys/\(key.id)").status == 204)
        #expect(try await Self.with(key.secret, two, "GET", "/api/v1/templates").status == 401)
        _ = try await first.terminate()
        _ = try await second.terminate()
    }
}
