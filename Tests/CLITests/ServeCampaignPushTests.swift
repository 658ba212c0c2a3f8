import Foundation
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// When a campaign pushes: a device whose passes the campaign changes in several batches hears of it once, after the
/// last of them changed, so the serial numbers it then lists are all of them.
@Suite("tessera serve campaign pushes")
struct ServeCampaignPushTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    static func get(_ serve: ServeProcess, _ path: String, authorization: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        let header = authorization.map { "Authorization: \($0)\r\n" } ?? ""
        let answer = try #require(try await serve.request(
            "GET \(path) HTTP/1.1\r\nHost: x\r\n\(header)Connection: close\r\n\r\n", timeout: 30))
        return (answer.status, answer.body.isEmpty ? [:] : try Server.json(answer.body))
    }

    @Test("a device whose passes fall in several batches is pushed once, after the last of them changed")
    func devicesAcrossBatches() async throws {
        let passCount = 600
        let deviceCount = 50
        // Three APNs connections: the pushes go out on at most three, each device's once.
        try await Server.with(.sqlite, arguments: ["--campaign-batch-size", "10", "--apns-connections", "3"]) { server in
            // Device d holds passes d, d + 50, d + 100, ...: twelve passes each, in twelve of the campaign's 60 batches.
            let store = try SQLiteStore(path: server.serve.folder.appendingPathComponent("data/tessera.sqlite").path)
            let serial = { (index: Int) in String(format: "SB-%04d", index) }
            let passes = (0..<passCount).map { index in
                NewPass(
                    passTypeIdentifier: Self.passType, serialNumber: serial(index),
                    authenticationToken: String(repeating: "b", count: 24) + String(format: "%08d", index),
                    template: "event-ticket", data: Data(#"{"serialNumber":"\#(serial(index))"}"#.utf8),
                    downloadToken: String(format: "download-token-%026d", index))
            }
            let registrations = (0..<passCount).map { index in
                DeviceRegistration(
                    deviceLibraryIdentifier: "device-\(index % deviceCount)",
                    pushToken: String(format: "%064x", 0xB0B0000 + index % deviceCount),
                    passTypeIdentifier: Self.passType, serialNumber: serial(index))
            }
            try await store.bulkLoad(passes: passes, registrations: registrations, now: Date())
            let listPath = "/v1/devices/device-0/registrations/\(Self.passType)"
            let before = try #require(try await Self.get(server.serve, listPath).json["lastUpdated"] as? String)

            let id = try await ServeCampaignRecoveryTests.start(server.serve, #"""
                {"select":{"template":"event-ticket"},"data":{"fields":{"row":"S"}},"message":"Your row changed"}
                """#)
            // The first push to reach APNs comes after every pass changed: the campaign is done by then.
            _ = try await server.apns.requests(topic: Self.passType, within: TestTime.seconds(60)) { !$0.isEmpty }
            let atFirstPush = try await ServeCampaignRecoveryTests.campaign(server.serve, id)
            #expect(atFirstPush["state"] as? String == "done", "\(atFirstPush)")
            #expect(atFirstPush["changed"] as? Int == passCount, "\(atFirstPush)")

            // Every device once, and no more.
            let tokens = try await ServeCampaignRecoveryTests.pushedTokens(server.apns, count: deviceCount)
            #expect(tokens.count == deviceCount)
            try await Task.sleep(for: .milliseconds(500))
            let pushed = server.apns.requests.filter { $0.headers["apns-topic"] == Self.passType }.compactMap(\.pushToken)
            #expect(pushed.count == deviceCount, "\(pushed.count) pushes to \(Set(pushed).count) devices")
            #expect((1...3).contains(server.apns.connections), "\(server.apns.connections) connections")
            let done = try await ServeCampaignRecoveryTests.finished(server.serve, id)
            #expect(done["pushesQueued"] as? Int == deviceCount, "\(done)")

            // What a pushed device lists: all twelve of its passes.
            let listed = try await Self.get(server.serve, listPath + "?passesUpdatedSince=\(before)")
            #expect(listed.status == 200)
            let expected = Set(stride(from: 0, to: passCount, by: deviceCount).map(serial))
            #expect(Set(listed.json["serialNumbers"] as? [String] ?? []) == expected)
            _ = try await server.serve.terminate()
        }
    }
}
