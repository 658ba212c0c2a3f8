@testable import APNs
import Foundation
import TesseraTestSupport
import Testing

@Suite("APNs client: validation before sending, lifecycle")
struct APNsClientLifecycleTests {
    @Test("Malformed push tokens and topics are rejected before anything is sent",
          arguments: ["", "not-hex-at-all", "0a1b 2c3d", "0a1b2c3d/../x", String(repeating: "a", count: 201)])
    func invalidPushToken(token: String) async throws {
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }) { standIn, client in
            await #expect(throws: APNsError.self) {
                _ = try await client.send(pushToken: token, topic: StandInFixture.topic)
            }
            await #expect(throws: APNsError.self) {
                _ = try await client.send(pushToken: StandInFixture.pushToken, topic: "pass.bad topic")
            }
            #expect(standIn.requests.isEmpty)
            #expect(standIn.connections == 0)
        }
    }

    @Test("Push tokens of any even or odd hexadecimal length are accepted")
    func tokenLengths() async throws {
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }) { standIn, client in
            for token in ["ab", "ABCDEF0123", String(repeating: "f", count: 160)] {
                let sent = try await client.send(pushToken: token, topic: StandInFixture.topic)
                #expect(sent.isDelivered)
            }
            #expect(standIn.requests.map(\.pushToken) == ["ab", "ABCDEF0123", String(repeating: "f", count: 160)])
        }
    }

    @Test("run() shuts the HTTP client down when cancelled; later sends throw clientShutDown")
    func runAndShutdown() async throws {
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }) { _, client in
            let service = Task { try await client.run() }
            let sent = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(sent.isDelivered)
            service.cancel()
            try await service.value
            do {
                _ = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
                Issue.record("send after shutdown should throw")
            } catch {
                #expect((error as? APNsError)?.code == .clientShutDown)
            }
            try await client.shutdown()
        }
    }

    @Test("Unreadable credentials fail at creation")
    func unreadableCredentials() throws {
        let missing = APNsClient.Configuration(authentication: .token(p8Path: "/nonexistent/AuthKey.p8", keyID: "K", teamID: "T"))
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: missing, logger: StandInFixture.logger) }
        let chain = try TestChain()
        let notAKey = APNsClient.Configuration(authentication: .token(p8Path: chain.path("pass.pem"), keyID: "K", teamID: "T"))
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: notAKey, logger: StandInFixture.logger) }
        let rsaKey = APNsClient.Configuration(authentication: .token(p8Path: chain.path("pass.key"), keyID: "K", teamID: "T"))
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: rsaKey, logger: StandInFixture.logger) }
    }
}
