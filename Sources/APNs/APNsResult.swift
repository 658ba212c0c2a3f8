public import Foundation
import Timestamps

/// What became of one notification, classified for the push dispatcher.
public enum APNsResult: Sendable, Equatable {
    /// APNs accepted the notification (200). `apnsID` is the `apns-id` it answered with.
    case delivered(apnsID: String?)
    /// The token is no longer active for the topic (410, `Unregistered` or `ExpiredToken`): forget the
    /// registration. `timestamp` is when APNs last confirmed it was invalid, when APNs said.
    case unregistered(timestamp: Date?)
    /// APNs refused the token (400 `BadDeviceToken`): a token of the other environment (a production token sent to
    /// the sandbox, or the reverse) as much as a broken one, so it says nothing certain about the token itself.
    case badDeviceToken
    /// The token is not a push token at all (empty, too long, not hexadecimal): refused before anything was sent.
    case malformedToken
    /// Worth trying again later: 429, 5xx, a timeout or a connection failure. `status` is `nil` when no
    /// answer arrived; `retryAfter` is the server's `Retry-After`, in seconds, when it sent one.
    case retryable(status: Int?, reason: String, retryAfter: TimeInterval?)
    /// Refused for a reason that retrying will not fix (e.g. 400 `DeviceTokenNotForTopic`, 413 `PayloadTooLarge`).
    /// The server's own credentials or topic refused (403, 400 `TopicDisallowed`) are ``retryable(status:reason:retryAfter:)``
    /// instead: no device is at fault, and the pushes are owed once the key or certificate is put right.
    case failed(status: Int, reason: String)

    /// How long a push refused for the server's own credentials or topic waits before it is tried again (a reload of
    /// the identities with the right key puts new clients in force meanwhile).
    public static let credentialRefusalDelay: TimeInterval = 300

    /// 400 reasons that refuse the server's topic, not the device: the certificate or key does not cover it.
    static let topicRefusals: Set<String> = ["BadTopic", "TopicDisallowed", "MissingTopic"]

    /// Whether the dispatcher should try again later.
    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// Whether the push token should be removed from the store (``unregistered(timestamp:)`` or ``malformedToken``;
    /// not ``badDeviceToken``, which a server pushing to the wrong environment gets for every token).
    public var invalidatesPushToken: Bool {
        switch self {
        case .unregistered, .malformedToken: return true
        default: return false
        }
    }

    /// Classifies an APNs answer.
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - headers: The response headers, names in lowercase.
    ///   - body: The response body (APNs sends `{"reason": ..., "timestamp": ...}` on errors).
    ///   - now: The current time, for an HTTP-date `Retry-After`.
    /// - Returns: The classification.
    public static func classify(status: Int, headers: [String: String], body: Data, now: Date = Date()) -> APNsResult {
        let error = ErrorBody(body)
        let reason = error.reason ?? "HTTP \(status)"
        switch status {
        case 200..<300:
            return .delivered(apnsID: headers["apns-id"])
        case 410:
            return .unregistered(timestamp: error.timestamp)
        case 400 where error.reason == "BadDeviceToken":
            return .badDeviceToken
        case 403 where error.reason == "ExpiredProviderToken":
            // The client signs a new provider token for the next try (APNsClient discards the refused one).
            return .retryable(status: status, reason: reason, retryAfter: nil)
        case 403:
            // The server's credentials refused (a revoked or mistyped key, `InvalidProviderToken`; the wrong
            // certificate, `BadCertificate`, `BadCertificateEnvironment`; `Forbidden`): kept and tried again later,
            // not dropped, so the updates made meanwhile reach the devices once the credentials are put right.
            return .retryable(status: status, reason: reason, retryAfter: credentialRefusalDelay)
        case 400 where error.reason.map(topicRefusals.contains) ?? false:
            return .retryable(status: status, reason: reason, retryAfter: credentialRefusalDelay)
        case 429, 500..<600:
            return .retryable(status: status, reason: reason, retryAfter: headers["retry-after"].flatMap {
                retryAfterSeconds($0, now: now)
            })
        default:
            return .failed(status: status, reason: reason)
        }
    }

    /// Parses `Retry-After`: delay seconds or an HTTP date (any of the three forms ``Timestamps/HTTPDate`` reads).
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time.
    /// - Returns: Seconds to wait (never negative), or `nil` when unreadable.
    static func retryAfterSeconds(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = TimeInterval(trimmed), seconds.isFinite { return max(0, seconds) }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// APNs's JSON error body: `reason` and, for 410, `timestamp` in milliseconds since 1970.
    struct ErrorBody {
        var reason: String?
        var timestamp: Date?

        init(_ body: Data) {
            guard !body.isEmpty,
                  let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return }
            reason = object["reason"] as? String
            if let milliseconds = (object["timestamp"] as? NSNumber)?.doubleValue {
                timestamp = Date(timeIntervalSince1970: milliseconds / 1000)
            }
        }
    }
}
