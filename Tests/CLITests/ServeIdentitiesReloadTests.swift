import Foundation
import Synchronization
import Testing
import TesseraTestSupport

/// Certificates renewed without downtime: a renewed certificate put in place and `SIGHUP` sent while devices fetch
/// and the issuer creates passes; the next signatures carry the new certificate and no request fails. A renewal
/// that does not load keeps the credentials in force and says so.
@Suite("tessera serve --identities: renewal")
struct ServeIdentitiesReloadTests {
    typealias Server = IdentitiesServer

    @Test("SIGHUP during a load run: 0 failed requests, new versions signed with the new certificate")
    func renewalUnderLoad() async throws {
        try await Server.with { server in
            let token = try await server.createPass(template: "store-card", serial: "R-0")
            // The renewed certificate: same Pass Type ID and team, a new key and serial number (a chain of its own
            // here; Apple's renewals keep the WWDR intermediate, which changes nothing for the server).
            let renewed = server.work.appendingPathComponent("renewed")
            let made = try await Subprocess.tessera([
                "certs", "dev", "--out", renewed.path, "--pass-type-id", Server.loyaltyType, "--team-id", Server.teamB,
            ])
            try #require(made.status == 0, "\(made.stderr)")

            let tally = LoadTally()
            let load = Task {
                await withTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            var round = 0
                            while !tally.stop.load(ordering: .relaxed) {
                                round += 1
                                let answer: (status: Int, head: String, body: Data)
                                do {
                                    if worker % 2 == 0 {
                                        answer = try await server.send(
                                            "GET", "/v1/passes/\(Server.loyaltyType)/R-0", headers: ["Authorization: ApplePass \(token)"])
                                    } else {
                                        answer = try await server.api(
                                            "POST", "/api/v1/passes",
                                            body: #"{"template":"store-card","data":{"serialNumber":"L-\#(worker)-\#(round)"}}"#)
                                    }
                                } catch {
                                    tally.failures.withLock { $0.append("\(error)") }
                                    continue
                                }
                                tally.done.add(1, ordering: .relaxed)
                                if !(200..<300).contains(answer.status) {
                                    tally.failures.withLock { $0.append("\(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))") }
                                }
                            }
                        }
                    }
                }
            }
            try await Task.sleep(for: .seconds(1))
            for (name, destination) in [("pass.pem", "pass.pem"), ("pass.key", "pass.key"), ("wwdr.pem", "pass-wwdr.pem")] {
                let target = server.work.appendingPathComponent("b/\(destination)")
                let staged = server.work.appendingPathComponent("b/.\(name).new")
                try FileManager.default.copyItem(at: renewed.appendingPathComponent(name), to: staged)
                #expect(rename(staged.path, target.path) == 0)
            }
            kill(server.serve.process.processIdentifier, SIGHUP)
            // New versions from now on are signed with the renewed certificate.
            let newSerial = try await Self.serialNumber(of: renewed.appendingPathComponent("pass.pem"))
            var signedWithNew = false
            for attempt in 0..<60 where !signedWithNew {
                let serial = "N-\(attempt)"
                let passToken = try await server.createPass(template: "store-card", serial: serial)
                let verified = try await server.fetchAndVerify(
                    type: Server.loyaltyType, serial: serial, token: passToken, root: "renewed/root.pem")
                signedWithNew = verified.status == 0
                    && (verified.report["signerSerialNumber"] as? String)?.lowercased() == newSerial.lowercased()
                if !signedWithNew { try await Task.sleep(for: .milliseconds(250)) }
            }
            try await Task.sleep(for: .seconds(1))
            tally.stop.store(true, ordering: .relaxed)
            await load.value
            #expect(signedWithNew, "\(server.serve.log)")
            #expect(tally.failures.withLock { $0 } == [], "requests failed during the reload")
            #expect(tally.done.load(ordering: .relaxed) > 20, "the load ran through the reload")
            #expect(server.serve.log.contains("signing identity loaded"))

            // Pushes for the renewed identity go out through the client made from the reloaded file.
            let pushToken = "cd" + String(repeating: "1", count: 62)
            let registered = try await server.send(
                "POST", "/v1/devices/device-r/registrations/\(Server.loyaltyType)/R-0",
                headers: ["Authorization: ApplePass \(token)"], body: #"{"pushToken":"\#(pushToken)"}"#)
            #expect(registered.status == 201)
            let changed = try await server.api(
                "PATCH", "/api/v1/passes/\(Server.loyaltyType)/R-0", body: #"{"data":{"fields":{"balance":"$5"}}}"#)
            #expect(changed.status == 200)
            let pushes = try await server.apns.requests(topic: Server.loyaltyType, within: 30) {
                $0.contains { $0.pushToken == pushToken }
            }
            #expect(pushes.contains { $0.pushToken == pushToken }, "\(server.serve.log)")

            // Brand A is untouched: its passes still verify up to its own root.
            let ticket = try await server.createPass(template: "event-ticket", serial: "A-after")
            #expect(try await server.fetchAndVerify(
                type: Server.ticketType, serial: "A-after", token: ticket, root: "a/root.pem").status == 0)
        }
    }

    @Test("a renewal that does not load keeps the credentials in force, logs why and counts it in /metrics")
    func failedRenewal() async throws {
        try await Server.with(arguments: ["--template-poll-interval", "0.3"]) { server in
            // A wrong password for brand A's .p12: noticed by looking at the files, without SIGHUP.
            try Data("wrong-password\n".utf8).write(to: server.work.appendingPathComponent("a/pass.p12.password"))
            var failed = false
            for _ in 0..<60 where !failed {
                try await Task.sleep(for: .milliseconds(250))
                failed = server.serve.log.contains("identities not reloaded")
            }
            #expect(failed, "\(server.serve.log)")
            #expect(server.serve.log.contains("identities[0]"))
            #expect(!server.serve.log.contains("wrong-password"), "a password is never logged")
            let metrics = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("tessera_identity_reload_failures_total 1"), "\(metrics)")
            let health = try OrdersServer.json(try await server.send("GET", "/health").body)
            #expect(health["lastReloadFailed"] as? Bool == true)
            // Brand A still signs with the certificate in force.
            let ticket = try await server.createPass(template: "event-ticket", serial: "A-kept")
            #expect(try await server.fetchAndVerify(
                type: Server.ticketType, serial: "A-kept", token: ticket, root: "a/root.pem").status == 0)
        }
    }

    @Test("an identity taken out of the file: its passes are refused new versions, never signed as another brand's")
    func identityRemoved() async throws {
        try await Server.with { server in
            let ticket = try await server.createPass(template: "event-ticket", serial: "A-gone")
            let order = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"O-gone"}}"#)
            #expect(order.status == 201, "\(String(decoding: order.body, as: UTF8.self))")
            // Brand A's entry (and its team's APNs key) and the order identity out of the file; brand B stays.
            try Data("""
                {"identities": [
                  {"identifier": "\(Server.loyaltyType)", "cert": "b/pass.pem", "key": "b/pass.key", "wwdr": "b/pass-wwdr.pem", "templates": "b/templates"}
                ]}
                """.utf8).write(to: server.identitiesFile)
            kill(server.serve.process.processIdentifier, SIGHUP)
            var gone = false
            for _ in 0..<120 where !gone {
                try await Task.sleep(for: .milliseconds(250))
                let health = String(decoding: try await server.send("GET", "/health").body, as: UTF8.self)
                gone = !health.contains(Server.ticketType) && health.contains(Server.loyaltyType)
            }
            #expect(gone, "\(server.serve.log)")
            // Its expiry leaves /metrics (an alert on it would fire for a brand that is gone); brand B's stays.
            let metrics = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
                .split(separator: "\n").filter { $0.hasPrefix("tessera_certificate_expiry_timestamp_seconds{") }
            #expect(!metrics.contains { $0.contains(Server.ticketType) } && metrics.contains { $0.contains(Server.loyaltyType) },
                    "\(metrics)")
            let changed = try await server.api(
                "PATCH", "/api/v1/passes/\(Server.ticketType)/A-gone", body: #"{"data":{"fields":{"seat":"9C"}}}"#)
            let said = String(decoding: changed.body, as: UTF8.self)
            #expect(changed.status == 503 && said.contains("signingUnavailable") && said.contains(Server.ticketType), "\(said)")
            // What a device fetches is never brand B's signature over brand A's pass.
            let fetched = try await server.send("GET", "/v1/passes/\(Server.ticketType)/A-gone",
                                                headers: ["Authorization: ApplePass \(ticket)"])
            if fetched.status == 200 {
                let verified = try await server.fetchAndVerify(type: Server.ticketType, serial: "A-gone", token: ticket,
                                                               root: "a/root.pem")
                #expect(verified.status == 0, "\(verified.report)")
            } else {
                #expect(fetched.status == 503, "\(String(decoding: fetched.body, as: UTF8.self))")
            }
            // The order identity taken out: its orders are refused, not signed with the certificate withdrawn.
            let orderChanged = try await server.api(
                "PATCH", "/api/v1/orders/\(Server.orderType)/O-gone", body: #"{"data":{"status":"completed"}}"#)
            let orderSaid = String(decoding: orderChanged.body, as: UTF8.self)
            #expect(orderChanged.status == 503 && orderSaid.contains("signingUnavailable"), "\(orderSaid)")
            // Still listed and read (every page holding it would otherwise fail), saying why its document is not there.
            for path in ["/api/v1/orders", "/api/v1/orders/\(Server.orderType)/O-gone"] {
                let read = try await server.api("GET", path)
                let text = String(decoding: read.body, as: UTF8.self)
                #expect(read.status == 200 && text.contains("O-gone") && text.contains("\"problem\"")
                        && !text.contains("\"order\":"), "\(path): \(text)")
            }
            // Brand B still signs its own.
            let loyalty = try await server.createPass(template: "store-card", serial: "B-kept")
            #expect(try await server.fetchAndVerify(
                type: Server.loyaltyType, serial: "B-kept", token: loyalty, root: "b/root.pem").status == 0)
            // Restarted, with nothing signed in memory: a device's fetch of a version not signed yet is 503
            // signingUnavailable (Wallet asks again later), never a 500. (Orders are not served at all by a server
            // started without an order identity.)
            _ = try await server.serve.terminate()
            let restarted = try await ServeProcess(arguments: server.serve.arguments, reusing: server.serve, singleIdentity: false)
            do {
                let path = "/v1/passes/\(Server.ticketType)/A-gone"
                let fetched = try #require(try await restarted.send("GET", path, headers: ["Authorization: ApplePass \(ticket)"]))
                let text = String(decoding: fetched.body, as: UTF8.self)
                #expect(fetched.status == 503 && text.contains("signingUnavailable"), "\(path): \(text)")
            } catch {
                _ = try? await restarted.terminate()
                throw error
            }
            _ = try await restarted.terminate()
        }
    }

    @Test("an entry added before its files: the failed reload is retried once they are copied in, without SIGHUP")
    func filesCopiedAfterTheEntry() async throws {
        try await Server.with(arguments: ["--template-poll-interval", "0.3"]) { server in
            let couponType = "pass.com.brand-c.coupons"
            let staged = server.work.appendingPathComponent("staged-c")
            let made = try await Subprocess.tessera(["certs", "dev", "--out", staged.path, "--pass-type-id", couponType,
                                                     "--team-id", "TEAMCCCCCC"])
            try #require(made.status == 0, "\(made.stderr)")
            try FileManager.default.createDirectory(at: staged.appendingPathComponent("templates"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/coupon"),
                                             to: staged.appendingPathComponent("templates/coupon"))
            // The entry first, naming files not there yet.
            var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: server.identitiesFile)) as? [String: Any])
            var entries = try #require(file["identities"] as? [[String: Any]])
            entries.append(["identifier": couponType, "cert": "c/pass.pem", "key": "c/pass.key", "wwdr": "c/wwdr.pem",
                            "templates": "c/templates"])
            file["identities"] = entries
            try JSONSerialization.data(withJSONObject: file).write(to: server.identitiesFile)
            var failed = false
            for _ in 0..<80 where !failed {
                try await Task.sleep(for: .milliseconds(250))
                failed = server.serve.log.contains("identities not reloaded")
            }
            #expect(failed, "\(server.serve.log)")
            // Then the files, in one rename: noticed by the poll.
            #expect(rename(staged.path, server.work.appendingPathComponent("c").path) == 0)
            var loaded = false
            for _ in 0..<120 where !loaded {
                try await Task.sleep(for: .milliseconds(250))
                let health = String(decoding: try await server.send("GET", "/health").body, as: UTF8.self)
                loaded = health.contains(couponType)
            }
            #expect(loaded, "\(server.serve.log)")
            let coupon = try await server.createPass(template: "coupon", serial: "C-1")
            #expect(!coupon.isEmpty)
        }
    }

    @Test("a credential file that is a symbolic link (a mounted secret) is noticed when what it points to changes")
    func linkedCredential() async throws {
        let work = try await Server.prepare()
        // Brand A's password file as a link into a folder of its own, as a mounted secret is.
        let manager = FileManager.default
        let secrets = work.appendingPathComponent("a/secrets")
        try manager.createDirectory(at: secrets, withIntermediateDirectories: true)
        let target = secrets.appendingPathComponent("pass.p12.password")
        let link = work.appendingPathComponent("a/pass.p12.password")
        try manager.moveItem(at: link, to: target)
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: "secrets/pass.p12.password")
        try await Server.with(work, arguments: ["--template-poll-interval", "0.3"]) { server in
            // The link itself stays as it was; only the file it points to changes.
            try Data("wrong-password\n".utf8).write(to: target)
            var failed = false
            for _ in 0..<60 where !failed {
                try await Task.sleep(for: .milliseconds(250))
                failed = server.serve.log.contains("identities not reloaded")
            }
            #expect(failed, "the change behind the link was not noticed: \(server.serve.log)")
        }
    }

    /// What the load run saw, shared by its workers.
    final class LoadTally: Sendable {
        let stop = Atomic(false)
        let failures = Mutex([String]())
        let done = Atomic(0)
    }

    /// A certificate's serial number in hexadecimal, as `openssl x509 -serial` prints it.
    static func serialNumber(of certificate: URL) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/env", ["openssl", "x509", "-in", certificate.path, "-noout", "-serial"])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
    }
}
