@testable import APNs
import Foundation
import TesseraTestSupport
import Testing

@Suite("APNs answers, classified (through the HTTP/2 stand-in)")
struct APNsClientResultTests {
    static func noAuthorization(_: TestServerCertificates) throws -> APNsClient.Configuration.Authentication {
        try StandInFixture.tokenAuthentication().0
    }

    @Test("200 is delivered with the apns-id")
    func delivered() async throws {
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.success(apnsID: "0c4e13a1-87b9-4f2a-9b57-0d4b1f6a2c11"))
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(result == .delivered(apnsID: "0c4e13a1-87b9-4f2a-9b57-0d4b1f6a2c11"))
            #expect(standIn.requests.count == 1)
            #expect(standIn.requests.first?.status == 200)
        }
    }

    @Test("400 BadDeviceToken is badDeviceToken, which does not invalidate the token (the other environment answers it for every token)")
    func badDeviceToken() async throws {
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.badDeviceToken)
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(result == .badDeviceToken)
            #expect(!result.invalidatesPushToken)
        }
    }

    @Test("410 Unregistered carries the timestamp")
    func unregistered() async throws {
        let when = Date(timeIntervalSince1970: 1_700_000_123.456)
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.unregistered(timestamp: when))
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            guard case .unregistered(let timestamp?) = result else {
                Issue.record("expected unregistered with a timestamp, got \(result)")
                return
            }
            #expect(abs(timestamp.timeIntervalSince(when)) < 0.001)
            #expect(result.invalidatesPushToken)
        }
    }

    @Test("429 is retryable with Retry-After")
    func tooManyRequests() async throws {
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.tooManyRequests(retryAfter: 7), .tooManyRequests())
            let first = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(first == .retryable(status: 429, reason: "TooManyRequests", retryAfter: 7))
            let second = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(second == .retryable(status: 429, reason: "TooManyRequests", retryAfter: nil))
        }
    }

    @Test("500 is retryable")
    func internalServerError() async throws {
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.internalServerError, .custom(status: 503, reason: "ServiceUnavailable"))
            let first = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(first == .retryable(status: 500, reason: "InternalServerError", retryAfter: nil))
            let second = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(second == .retryable(status: 503, reason: "ServiceUnavailable", retryAfter: nil))
        }
    }

    @Test("A device's refusals fail with APNs's reason; the server's own credentials or topic refused are retried later")
    func failed() async throws {
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            standIn.enqueue(.custom(status: 400, reason: "DeviceTokenNotForTopic"), .custom(status: 403, reason: "InvalidProviderToken"),
                            .custom(status: 400, reason: "TopicDisallowed"))
            let first = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(first == .failed(status: 400, reason: "DeviceTokenNotForTopic"))
            #expect(!first.isRetryable && !first.invalidatesPushToken)
            let second = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(second == .retryable(status: 403, reason: "InvalidProviderToken", retryAfter: APNsResult.credentialRefusalDelay))
            #expect(!second.invalidatesPushToken)
            let third = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(third == .retryable(status: 400, reason: "TopicDisallowed", retryAfter: APNsResult.credentialRefusalDelay))
        }
    }

    @Test("A refused connection is retryable without a status")
    func connectionRefused() async throws {
        var port = 0
        try await StandInFixture.with(authentication: Self.noAuthorization) { standIn, client in
            port = standIn.port
            try await standIn.shutdown()
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            guard case .retryable(let status, _, _) = result else {
                Issue.record("expected retryable, got \(result)")
                return
            }
            #expect(status == nil)
        }
        #expect(port > 0)
    }
}
