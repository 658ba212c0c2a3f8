@testable import APNs
import Foundation
import Testing

@Suite("APNs answer classification and push tokens")
struct APNsResultTests {
    private func body(_ json: String) -> Data { Data(json.utf8) }

    @Test("Statuses and reasons map to results")
    func classify() {
        #expect(APNsResult.classify(status: 200, headers: ["apns-id": "id-1"], body: Data()) == .delivered(apnsID: "id-1"))
        #expect(APNsResult.classify(status: 400, headers: [:], body: body(#"{"reason":"BadDeviceToken"}"#)) == .badDeviceToken)
        #expect(APNsResult.classify(status: 400, headers: [:], body: body(#"{"reason":"DeviceTokenNotForTopic"}"#))
            == .failed(status: 400, reason: "DeviceTokenNotForTopic"))
        #expect(APNsResult.classify(status: 410, headers: [:], body: body(#"{"reason":"Unregistered","timestamp":1700000000000}"#))
            == .unregistered(timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(APNsResult.classify(status: 410, headers: [:], body: body(#"{"reason":"ExpiredToken"}"#)) == .unregistered(timestamp: nil))
        #expect(APNsResult.classify(status: 429, headers: ["retry-after": "30"], body: body(#"{"reason":"TooManyRequests"}"#))
            == .retryable(status: 429, reason: "TooManyRequests", retryAfter: 30))
        #expect(APNsResult.classify(status: 503, headers: [:], body: Data()) == .retryable(status: 503, reason: "HTTP 503", retryAfter: nil))
        // A stale provider token: the client signs a new one, and the push goes again.
        #expect(APNsResult.classify(status: 403, headers: [:], body: body(#"{"reason":"ExpiredProviderToken"}"#))
            == .retryable(status: 403, reason: "ExpiredProviderToken", retryAfter: nil))
        // The server's own credentials or topic refused: kept and tried again later, not dropped.
        for (status, reason) in [(403, "InvalidProviderToken"), (403, "BadCertificate"), (403, "BadCertificateEnvironment"),
                                 (403, "Forbidden"), (400, "TopicDisallowed"), (400, "BadTopic")] {
            #expect(APNsResult.classify(status: status, headers: [:], body: body(#"{"reason":"\#(reason)"}"#))
                == .retryable(status: status, reason: reason, retryAfter: APNsResult.credentialRefusalDelay))
        }
        // A device's token for another app: nothing to retry.
        #expect(APNsResult.classify(status: 400, headers: [:], body: body(#"{"reason":"DeviceTokenNotForTopic"}"#))
            == .failed(status: 400, reason: "DeviceTokenNotForTopic"))
        #expect(APNsResult.classify(status: 413, headers: [:], body: body("not json")) == .failed(status: 413, reason: "HTTP 413"))
    }

    @Test("Retry-After may be seconds or an HTTP date")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(APNsResult.retryAfterSeconds("120", now: now) == 120)
        #expect(APNsResult.retryAfterSeconds("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == 60)
        #expect(APNsResult.retryAfterSeconds("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(APNsResult.retryAfterSeconds("soon", now: now) == nil)
    }

    @Test("Push tokens are hexadecimal of any length; logs show 8 characters")
    func pushTokens() throws {
        try APNsPushToken.validate("ab")
        try APNsPushToken.validate(String(repeating: "0123456789abcdefABCDEF", count: 4))
        for bad in ["", "xyz", "ab cd", "abc\n", "é1", "00/3/device"] {
            #expect(throws: APNsError.self) { try APNsPushToken.validate(bad) }
        }
        #expect(APNsPushToken.redacted("0a1b2c3d4e5f6071") == "0a1b2c3d…")
        #expect(APNsPushToken.redacted("0a1b") == "…")
    }
}
