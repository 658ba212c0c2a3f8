import Foundation
import Testing
import TesseraTestSupport

/// Several signing identities in one `tessera serve --identities`, over HTTP: each brand's passes and orders signed
/// by its own certificate, pushed to its own topic with its own APNs credentials, and the identities file's mistakes
/// named before anything starts.
@Suite("tessera serve --identities")
struct ServeIdentitiesTests {
    typealias Server = IdentitiesServer

    @Test("two teams and an order identity: each signs its own, pushes go out with the credentials of their topic")
    func twoBrands() async throws {
        try await Server.with { server in
            let ticket = try await server.createPass(template: "event-ticket", serial: "A-1")
            let loyalty = try await server.createPass(template: "store-card", serial: "B-1")
            let listed = try OrdersServer.json(try await server.api("GET", "/api/v1/templates").body)
            let types = Dictionary(uniqueKeysWithValues: ((listed["templates"] as? [[String: Any]]) ?? []).map {
                ($0["name"] as? String ?? "", $0["passTypeIdentifier"] as? String ?? "")
            })
            #expect(types == ["event-ticket": Server.ticketType, "store-card": Server.loyaltyType])

            // Each pass verifies up to its own brand's root only.
            let a = try await server.fetchAndVerify(type: Server.ticketType, serial: "A-1", token: ticket, root: "a/root.pem")
            #expect(a.status == 0, "\(a.report)")
            #expect((a.report["signer"] as? String)?.contains("OU=\(Server.teamA)") == true)
            let crossed = try await server.fetchAndVerify(type: Server.ticketType, serial: "A-1", token: ticket, root: "b/root.pem")
            #expect(crossed.status != 0)
            let b = try await server.fetchAndVerify(type: Server.loyaltyType, serial: "B-1", token: loyalty, root: "b/root.pem")
            #expect(b.status == 0, "\(b.report)")
            #expect((b.report["signer"] as? String)?.contains("OU=\(Server.teamB)") == true)

            // The order identity beside them.
            let order = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"O-1"}}"#)
            #expect(order.status == 201, "\(String(decoding: order.body, as: UTF8.self))")
            let orderToken = try #require(try OrdersServer.json(order.body)["authenticationToken"] as? String)
            #expect(try OrdersServer.json(order.body)["orderTypeIdentifier"] as? String == Server.orderType)

            // One device holds all three; a change of each is pushed to its own topic.
            let token = "ab" + String(repeating: "0", count: 62)
            let push = #"{"pushToken":"\#(token)"}"#
            for (path, auth) in [
                ("\(Server.ticketType)/A-1", "ApplePass \(ticket)"), ("\(Server.loyaltyType)/B-1", "ApplePass \(loyalty)"),
                ("\(Server.orderType)/O-1", "AppleOrder \(orderToken)"),
            ] {
                let registered = try await server.send("POST", "/v1/devices/device-1/registrations/\(path)", headers: ["Authorization: \(auth)"], body: push)
                #expect(registered.status == 201)
            }
            for (path, body) in [
                ("passes/\(Server.ticketType)/A-1", #"{"data":{"fields":{"seat":"12B"}}}"#),
                ("passes/\(Server.loyaltyType)/B-1", #"{"data":{"fields":{"balance":"$20"}}}"#),
                ("orders/\(Server.orderType)/O-1", #"{"data":{"status":"completed"}}"#),
            ] {
                let changed = try await server.api("PATCH", "/api/v1/\(path)", body: body)
                #expect(changed.status == 200, "\(path): \(String(decoding: changed.body, as: UTF8.self))")
            }
            for topic in [Server.ticketType, Server.loyaltyType, Server.orderType] {
                let pushes = try await server.apns.requests(topic: topic, within: 30) { !$0.isEmpty }
                #expect(pushes.map(\.pushToken) == [token], "\(topic): \(server.serve.log)")
                let authorization = pushes.first?.headers["authorization"]
                if topic == Server.ticketType {
                    // Team A's token key: a provider token whose issuer is team A.
                    let claims = try #require(authorization.flatMap(Self.claims), "\(String(describing: authorization))")
                    #expect(claims["iss"] as? String == Server.teamA)
                } else {
                    // Team B has no key in the file: its identities push with their own certificates.
                    #expect(authorization == nil)
                }
            }
            let after = try await server.fetchAndVerify(type: Server.loyaltyType, serial: "B-1", token: loyalty, root: "b/root.pem")
            #expect(after.status == 0)

            // A reload that changes no APNs credential keeps the clients: the same connections, and team A's same
            // provider token (Apple refuses a team's token renewed more often than every 20 minutes).
            let firstToken = try await server.apns.requests(topic: Server.ticketType, within: 5) { !$0.isEmpty }
                .first?.headers["authorization"]
            let connections = server.apns.connections
            let loaded = server.serve.log.components(separatedBy: "signing identity loaded").count
            kill(server.serve.process.processIdentifier, SIGHUP)
            var reloaded = false
            for _ in 0..<120 where !reloaded {
                try await Task.sleep(for: .milliseconds(250))
                reloaded = server.serve.log.components(separatedBy: "signing identity loaded").count >= loaded + 3
            }
            #expect(reloaded, "\(server.serve.log)")
            for (path, body) in [
                ("passes/\(Server.ticketType)/A-1", #"{"data":{"fields":{"seat":"14C"}}}"#),
                ("passes/\(Server.loyaltyType)/B-1", #"{"data":{"fields":{"balance":"$30"}}}"#),
            ] {
                let changed = try await server.api("PATCH", "/api/v1/\(path)", body: body)
                #expect(changed.status == 200, "\(path): \(String(decoding: changed.body, as: UTF8.self))")
            }
            for topic in [Server.ticketType, Server.loyaltyType] {
                let pushes = try await server.apns.requests(topic: topic, within: 30) { $0.count >= 2 }
                #expect(pushes.count == 2, "\(topic): \(server.serve.log)")
                #expect(pushes.last?.headers["authorization"] == firstToken.flatMap { topic == Server.ticketType ? $0 : nil })
            }
            #expect(server.apns.connections == connections, "\(server.serve.log)")
        }
    }

    @Test("health lists every identity; /metrics shows each certificate's expiry")
    func healthAndMetrics() async throws {
        try await Server.with { server in
            let health = try await server.send("GET", "/health")
            #expect(health.status == 200)
            let report = try OrdersServer.json(health.body)
            #expect(report["status"] as? String == "ok")
            #expect((report["expired"] as? [String]) == [])
            #expect(((report["identities"] as? [[String: Any]]) ?? []).compactMap { $0["identifier"] as? String }
                == [Server.ticketType, Server.loyaltyType, Server.orderType])
            let metrics = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
            // HEAD, as uptime monitors ask: GET's status and headers, no body.
            for path in ["/health", "/metrics"] {
                let head = try await Subprocess.run(
                    "curl", ["-s", "-I", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", server.serve.baseURL + path])
                #expect(head.stdout == "200 0", "\(path): \(head.stdout) \(head.stderr)")
            }
            for identifier in [Server.ticketType, Server.loyaltyType, Server.orderType] {
                let line = metrics.split(separator: "\n").first {
                    $0.hasPrefix("tessera_certificate_expiry_timestamp_seconds{") && $0.contains("\"\(identifier)\"")
                }
                let value = try #require(line.flatMap { Double($0.split(separator: " ").last ?? "") }, "\(identifier) in \(metrics)")
                #expect(value > Date().timeIntervalSince1970 + 300 * 86_400)
            }
        }
    }

    /// The payload of a provider token (`bearer <JWT>`).
    static func claims(_ authorization: String) -> [String: Any]? {
        let parts = authorization.replacingOccurrences(of: "bearer ", with: "").split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
