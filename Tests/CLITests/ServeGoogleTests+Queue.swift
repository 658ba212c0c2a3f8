import Foundation
import Testing
import TesseraTestSupport

/// Google Wallet's update queue under pressure: quick changes coalesced behind 429s, a redemption's state, and two
/// server processes on one PostgreSQL database sending each object once.
@Suite("tessera serve Google Wallet queue")
struct ServeGoogleQueueTests {
    static let admin = ServeGoogleTests.admin

    @Test("ten quick changes while Google answers 429 reach it as the newest state, once; a redemption completes the ticket")
    func coalescedAndRedeemed() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await ServeProcess(arguments: ServeGoogleTests.arguments(google), environment: ServeGoogleTests.environment)
        _ = try await ServeGoogleTests.create(server, serial: "Q-1")
        let object = ServeGoogleTests.objectPath("Q-1")
        _ = try await ServeGoogleTests.wait(google) { $0.contains { $0.method == "POST" && $0.path.hasSuffix("Object") && $0.status == 200 } }

        try google.failNext(100_000)
        for seat in 1...10 {
            let answer = try await server.send("PATCH", "/api/v1/passes/pass.dev.tessera.demo/Q-1", headers: [Self.admin],
                                               body: #"{"data":{"fields":{"seat":"S\#(seat)"}}}"#)
            #expect(answer?.status == 200)
        }
        _ = try await ServeGoogleTests.wait(google) { $0.filter { $0.status == 429 }.count >= 2 }
        try google.failNext(0)
        let delivered = try await ServeGoogleTests.wait(google) { requests in
            requests.contains { $0.method == "PATCH" && $0.path == object && $0.status == 200 }
        }
        try await Task.sleep(for: .seconds(2))
        let patches = google.requests().filter { $0.method == "PATCH" && $0.path == object && $0.status == 200 }
        #expect(patches.count == 1, "\(patches.count) patches")
        #expect(patches.first?.bodyJSON.contains("\"S10\"") == true, "the newest seat")
        #expect(!delivered.isEmpty)

        // A valid scan at the gate: the ticket is used, and Google shows it COMPLETED.
        let scan = try await server.send("POST", "/api/v1/redemptions", headers: [Self.admin],
                                         body: #"{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumber":"Q-1"}"#)
        #expect(scan?.status == 200, "\(String(decoding: scan?.body ?? Data(), as: UTF8.self))")
        _ = try await ServeGoogleTests.wait(google) { requests in
            requests.contains { $0.method == "PATCH" && $0.path == object && $0.body["state"] as? String == "COMPLETED" }
        }
        _ = try await server.terminate()
    }

    @Test("the account's token refused (a rotated key): the queue waits and sends the change once a token is granted")
    func refusedGrant() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await ServeProcess(arguments: ServeGoogleTests.arguments(google), environment: ServeGoogleTests.environment)
        _ = try await ServeGoogleTests.create(server, serial: "T-1")
        let object = ServeGoogleTests.objectPath("T-1")
        _ = try await ServeGoogleTests.wait(google) { $0.contains { $0.method == "POST" && $0.path.hasSuffix("Object") && $0.status == 200 } }

        // The token in use is revoked and the next two grants refused: the change waits, it is not dropped.
        try google.refuseGrants(2)
        let answer = try await server.send("PATCH", "/api/v1/passes/pass.dev.tessera.demo/T-1", headers: [Self.admin],
                                           body: #"{"data":{"fields":{"seat":"R7"}}}"#)
        #expect(answer?.status == 200)
        let delivered = try await ServeGoogleTests.wait(google) { requests in
            requests.contains { $0.method == "PATCH" && $0.path == object && $0.status == 200 && $0.bodyJSON.contains("\"R7\"") }
        }
        #expect(delivered.filter { $0.path == "/token" && $0.status == 400 }.count == 2)
        #expect(delivered.contains { $0.method == "PATCH" && $0.path == object && $0.status == 401 })
        _ = try await server.terminate()
    }

    @Test("a ticket of several entries stays ACTIVE on Google until its last entry, then COMPLETED")
    func multiEntryTicket() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let templates = try ServeRedemptionTests.templatesFolder()  // multi-entry: a count rule of 3
        let server = try await ServeProcess(arguments: ServeGoogleTests.arguments(google) + ["--templates", templates.path],
                                            environment: ServeGoogleTests.environment)
        let created = try #require(try await server.send(
            "POST", "/api/v1/passes", headers: [Self.admin],
            body: #"{"template":"multi-entry","data":{"serialNumber":"M-1","expirationDate":"2036-01-01T00:00Z"}}"#))
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let object = ServeGoogleTests.objectPath("M-1")
        _ = try await ServeGoogleTests.wait(google) { $0.contains { $0.method == "POST" && $0.path.hasSuffix("Object") && $0.status == 200 } }
        let scan = #"{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumber":"M-1"}"#
        for entry in 1...3 {
            let answer = try await server.send("POST", "/api/v1/redemptions", headers: [Self.admin], body: scan)
            #expect(ServeGoogleTests.json(answer?.body ?? Data())["result"] as? String == "valid", "entry \(entry)")
            // (An insert that found the object there already patches it too: the last entry waits for its state.)
            let patches = try await ServeGoogleTests.wait(google) { requests in
                let patches = requests.filter { $0.method == "PATCH" && $0.path == object && $0.status == 200 }
                return entry < 3 ? patches.count >= entry
                    : patches.contains { ["COMPLETED", "INACTIVE"].contains($0.body["state"] as? String ?? "") }
            }.filter { $0.method == "PATCH" && $0.path == object && $0.status == 200 }
            let states = patches.map { $0.body["state"] as? String ?? "-" }
            if entry < 3 {
                #expect(!states.contains("COMPLETED"), "after entry \(entry) of 3: \(states)")
            } else {
                #expect(states.last == "COMPLETED" || states.last == "INACTIVE", "after the last entry: \(states)")
            }
        }
        _ = try await server.terminate()
    }

    @Test("two processes on one PostgreSQL database send each new pass to Google once")
    func twoProcesses() async throws {
        guard !TestPostgres.skipped else { return }
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        try await OrdersServer.with(.postgres, processes: 2, arguments: ServeGoogleTests.arguments(google)) { servers in
            for (index, server) in servers.enumerated() {
                for round in 0..<3 { _ = try await ServeGoogleTests.create(server.serve, serial: "PG-\(index)-\(round)") }
            }
            let serials = (0..<2).flatMap { index in (0..<3).map { "PG-\(index)-\($0)" } }
            _ = try await ServeGoogleTests.wait(google, seconds: 90) { requests in
                serials.allSatisfy { serial in
                    requests.contains { $0.path == "/walletobjects/v1/eventTicketObject" && $0.status == 200 && $0.bodyJSON.contains("\"\(serial)\"") }
                }
            }
            try await Task.sleep(for: .seconds(2))
            for serial in serials {
                let inserts = google.requests().filter {
                    $0.path == "/walletobjects/v1/eventTicketObject" && $0.status == 200 && $0.bodyJSON.contains("\"\(serial)\"")
                }
                #expect(inserts.count == 1, "\(serial) inserted \(inserts.count) times")
            }
        }
    }
}
