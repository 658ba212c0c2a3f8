import Foundation
import Testing
import TesseraTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `tessera serve` with Google Wallet against stand-ins of Google's token endpoint and REST API: create inserts the
/// class and object, a change patches it, a campaign's message is added, a void makes it INACTIVE, 429s are retried,
/// and changes pending at a kill -9 are delivered once each after the restart.
@Suite("tessera serve Google Wallet")
struct ServeGoogleTests {
    static let issuerId = "3388000000044444444"
    static let admin = "Authorization: Bearer \(ServeProcess.adminToken)"

    static func arguments(_ google: GoogleWalletStandIn) -> [String] {
        ["--google-issuer-id", issuerId, "--google-service-account", google.serviceAccountFile.path,
         "--google-api-url", google.baseURL]
    }

    static let environment = ["TESSERA_GOOGLE_RETRY_SECONDS": "0.2"]

    static func json(_ data: Data) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
    }

    static func create(_ server: ServeProcess, serial: String) async throws -> [String: Any] {
        let created = try #require(try await server.send("POST", "/api/v1/passes", headers: [admin],
                                                         body: #"{"template":"event-ticket","data":{"serialNumber":"\#(serial)"}}"#))
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return json(created.body)
    }

    static func objectPath(_ serial: String) -> String {
        "/walletobjects/v1/eventTicketObject/\(issuerId).pass.dev.tessera.demo.\(serial.replacingOccurrences(of: "-", with: "-2D"))"
    }

    /// Waits until the stand-in's requests satisfy `condition`.
    static func wait(_ google: GoogleWalletStandIn, seconds: Double = 60,
                     until condition: ([GoogleWalletStandIn.Request]) -> Bool) async throws -> [GoogleWalletStandIn.Request] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let requests = google.requests()
            if condition(requests) { return requests }
            try await Task.sleep(for: .milliseconds(100))
        }
        let requests = google.requests()
        Issue.record("timed out; Google saw: \(requests.map { "\($0.method) \($0.path) \($0.status)" })")
        return requests
    }

    @Test("create, change, campaign message, void and 429s reach Google's API; the API answers the save link")
    func everyChangeReachesGoogle() async throws {
        let google = try GoogleWalletStandIn()
        let server = try await ServeProcess(arguments: Self.arguments(google), environment: Self.environment)
        defer { google.stop() }
        let state = try await Self.create(server, serial: "G-1")
        let link = try #require(state["googleSaveURL"] as? String)
        let check = try await Subprocess.run("python3", [Subprocess.repositoryRoot.appendingPathComponent("scripts/check-google.py").path,
                                                        "jwt", link, google.publicKeyFile.path, google.clientEmail, google.privateKeyID])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let member = try #require(state["google"] as? [String: Any])
        #expect(member["objectId"] as? String == "\(Self.issuerId).pass.dev.tessera.demo.G-2D1")
        #expect(member["state"] as? String == "ACTIVE")

        let object = Self.objectPath("G-1")
        _ = try await Self.wait(google) { requests in
            requests.contains { $0.method == "POST" && $0.path == "/walletobjects/v1/eventTicketObject" && $0.status == 200 }
        }
        #expect(google.requests(matching: "/walletobjects/v1/eventTicketClass").first?.status == 200)

        // A change patches the object with the new seat.
        let patched = try await server.send("PATCH", "/api/v1/passes/pass.dev.tessera.demo/G-1", headers: [Self.admin],
                                            body: #"{"data":{"fields":{"seat":"99"}}}"#)
        #expect(patched?.status == 200)
        // (The insert may have found the object there already, put by the save link: it patched it with the first state.)
        let afterPatch = try await Self.wait(google) {
            $0.contains { $0.method == "PATCH" && $0.path == object && $0.status == 200 && $0.bodyJSON.contains("\"99\"") }
        }
        let seat = afterPatch.last { $0.method == "PATCH" && $0.path == object }?.body["seatInfo"] as? [String: Any]
        #expect(((seat?["seat"] as? [String: Any])?["defaultValue"] as? [String: Any])?["value"] as? String == "99")

        // 429 twice, then success: the change still arrives.
        try google.failNext(2)
        _ = try await server.send("PATCH", "/api/v1/passes/pass.dev.tessera.demo/G-1", headers: [Self.admin],
                                  body: #"{"data":{"fields":{"seat":"100"}}}"#)
        let retried = try await Self.wait(google) { requests in
            requests.filter { $0.status == 429 }.count == 2
                && requests.contains { $0.method == "PATCH" && $0.status == 200 && ($0.bodyJSON.contains("\"100\"")) }
        }
        #expect(retried.filter { $0.status == 429 }.count == 2)

        // A campaign with a message: the object is patched and the message added.
        let campaign = try await server.send("POST", "/api/v1/campaigns", headers: [Self.admin],
                                             body: #"{"select":{"template":"event-ticket"},"data":{"fields":{"doors":"2026-12-05T19:00-08:00"}},"message":"Doors now open at 19:00"}"#)
        #expect(campaign?.status == 202, "\(String(decoding: campaign?.body ?? Data(), as: UTF8.self))")
        let messaged = try await Self.wait(google) { $0.contains { $0.path == object + "/addMessage" && $0.status == 200 } }
        let message = messaged.first { $0.path == object + "/addMessage" }?.body["message"] as? [String: Any]
        #expect(message?["body"] as? String == "Doors now open at 19:00")
        #expect(message?["messageType"] as? String == "TEXT_AND_NOTIFY")

        // A later campaign without a message changes the object but adds no message (not the earlier one again).
        let quiet = try await server.send("POST", "/api/v1/campaigns", headers: [Self.admin],
                                          body: #"{"select":{"template":"event-ticket"},"data":{"fields":{"terms":"No refunds."}}}"#)
        #expect(quiet?.status == 202)
        _ = try await Self.wait(google) { $0.contains { $0.method == "PATCH" && $0.path == object && $0.bodyJSON.contains("No refunds.") } }
        try await Task.sleep(for: .seconds(1))  // a message would follow the patch at once
        #expect(google.requests(matching: object + "/addMessage").count == 1)

        // A void: the object becomes INACTIVE, and the API says so.
        let voided = try await server.send("DELETE", "/api/v1/passes/pass.dev.tessera.demo/G-1", headers: [Self.admin])
        #expect(voided.map { (Self.json($0.body)["google"] as? [String: Any])?["state"] as? String } == "INACTIVE")
        _ = try await Self.wait(google) { requests in
            requests.contains { $0.method == "PATCH" && $0.path == object && $0.body["state"] as? String == "INACTIVE" }
        }

        // An unvoiding campaign makes it ACTIVE again.
        let unvoid = try await server.send("POST", "/api/v1/campaigns", headers: [Self.admin],
                                           body: #"{"select":{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumbers":["G-1"]},"unvoid":true}"#)
        #expect(unvoid?.status == 202, "\(String(decoding: unvoid?.body ?? Data(), as: UTF8.self))")
        _ = try await Self.wait(google) { requests in
            let patches = requests.filter { $0.method == "PATCH" && $0.path == object }
            return patches.last?.body["state"] as? String == "ACTIVE"
                && patches.contains { $0.body["state"] as? String == "INACTIVE" }
        }
        _ = try await server.terminate()
    }

    @Test("changes pending at a kill -9 are delivered after the restart, each once")
    func pendingChangesSurviveAKill() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let first = try await ServeProcess(arguments: Self.arguments(google), environment: Self.environment)
        try google.failNext(100_000)
        for serial in ["K-1", "K-2", "K-3"] { _ = try await Self.create(first, serial: serial) }
        _ = try await Self.wait(google) { $0.filter { $0.status == 429 }.count >= 2 }
        kill(first.process.processIdentifier, SIGKILL)
        while first.process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try google.failNext(0)
        let second = try await ServeProcess(arguments: Self.arguments(google), environment: Self.environment, reusing: first)
        let delivered = try await Self.wait(google) { requests in
            ["K-1", "K-2", "K-3"].allSatisfy { serial in
                requests.contains { $0.method == "POST" && $0.status == 200 && $0.bodyJSON.contains("\"\(serial)\"") && $0.path.hasSuffix("Object") }
            }
        }
        for serial in ["K-1", "K-2", "K-3"] {
            let inserts = delivered.filter { $0.path == "/walletobjects/v1/eventTicketObject" && $0.status == 200 && $0.bodyJSON.contains("\"\(serial)\"") }
            #expect(inserts.count == 1, "\(serial) inserted \(inserts.count) times")
        }
        // Nothing more arrives: each change was sent once.
        try await Task.sleep(for: .seconds(2))
        let objectWrites = google.requests().filter { $0.path.contains("eventTicketObject") && $0.status == 200 }
        #expect(objectWrites.count == 3, "\(objectWrites.map { "\($0.method) \($0.path)" })")
        _ = try await second.terminate()
    }
}
