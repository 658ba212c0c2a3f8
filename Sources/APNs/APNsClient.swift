public import Foundation
public import Logging
import NIOCore
import Synchronization

/// Tells Wallet devices that a pass changed: one empty notification (`{}`) per push token, sent over HTTP/2 to
/// `/3/device/<pushToken>` with the pass type identifier as `apns-topic`.
///
/// Authenticates with the Pass Type ID certificate as TLS client certificate or with an ES256 provider token.
/// Run it as a `Service` in a `ServiceGroup`, or call ``shutdown()`` when done.
public final class APNsClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration
    /// The connections pushes go out on (``Configuration/connections``), each opened when first needed.
    let connections: [APNsConnection]
    let providerToken: APNsProviderToken?
    let logger: Logger
    let now: @Sendable () -> Date

    /// Creates a client and reads its credentials; nothing is connected until the first ``send(pushToken:topic:expiration:)``.
    /// - Parameters:
    ///   - configuration: Host, authentication, trust roots and timeouts.
    ///   - logger: Where the client logs; push tokens are logged redacted.
    ///   - now: The clock, for `apns-expiration` and provider token age; tests inject one.
    /// - Throws: ``APNsError`` when a certificate, key or `.p8` file cannot be read.
    public init(configuration: Configuration, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) throws(APNsError) {
        self.configuration = configuration
        self.logger = logger
        self.now = now
        if case .token(let p8Path, let keyID, let teamID) = configuration.authentication {
            let pem: String
            do {
                pem = try String(contentsOfFile: p8Path, encoding: .utf8)
            } catch {
                throw .invalidCredentials("cannot read the .p8 key at \(p8Path)", underlying: error)
            }
            providerToken = try APNsProviderToken(p8PEM: pem, keyID: keyID, teamID: teamID,
                                                  refreshInterval: configuration.effectiveTokenRefreshInterval, now: now)
        } else {
            providerToken = nil
        }
        do {
            let tls = try configuration.makeTLSConfiguration()
            connections = try (0..<configuration.effectiveConnections).map { _ in
                try APNsConnection(host: configuration.host, port: configuration.port, tls: tls,
                                   connectTimeout: .milliseconds(Int64(configuration.connectTimeout * 1000)))
            }
        } catch let error as APNsError {
            throw error
        } catch {
            throw .invalidCredentials("cannot set up TLS for \(configuration.host)", underlying: error)
        }
    }

    /// Sends the pass update notification for one device.
    /// - Parameters:
    ///   - pushToken: The device's push token (hexadecimal), as registered with the web service.
    ///   - topic: The pass type identifier.
    ///   - expiration: Until when APNs may hold the notification for an offline device; `nil` uses
    ///     now + ``Configuration/expirationInterval``.
    /// - Returns: What APNs answered, classified; network failures come back as ``APNsResult/retryable(status:reason:retryAfter:)``.
    /// - Throws: ``APNsError`` before anything is sent: a malformed push token or topic, an unsignable provider
    ///   token, or a client already shut down.
    public func send(pushToken: String, topic: String, expiration: Date? = nil) async throws(APNsError) -> APNsResult {
        // Refused before anything is sent, where a batch answers malformedToken for the one token.
        try APNsPushToken.validate(pushToken)
        return try await send(pushTokens: [pushToken], topic: topic, expiration: expiration)[0]
    }

    /// The connection the next pushes go on: the one with the fewest unanswered, the first of those on a tie, so a
    /// quiet client keeps to one connection and the others open only when pushes are waiting on it.
    var leastBusyConnection: APNsConnection {
        var chosen = connections[0]
        var fewest = chosen.inFlight.load(ordering: .relaxed)
        for connection in connections.dropFirst() where fewest > 0 {
            let count = connection.inFlight.load(ordering: .relaxed)
            if count < fewest { (chosen, fewest) = (connection, count) }
        }
        return chosen
    }

    /// The payload of every pass update push: an empty JSON dictionary.
    static let body = ByteBuffer(string: "{}")

    /// A topic's request headers (besides the HTTP/2 pseudo-headers), the same for every push token.
    func requestHeaders(topic: String, expiration: Date?) async throws(APNsError) -> [(String, String)] {
        var headers: [(String, String)] = [("content-type", "application/json"), ("apns-topic", topic)]
        let expiresAt = expiration ?? now().addingTimeInterval(configuration.expirationInterval)
        let expirationValue = configuration.expirationInterval == 0 && expiration == nil ? 0 : Int(expiresAt.timeIntervalSince1970)
        headers.append(("apns-expiration", String(expirationValue)))
        if let priority = configuration.priority { headers.append(("apns-priority", String(priority))) }
        if let pushType = configuration.pushType { headers.append(("apns-push-type", pushType)) }
        if let providerToken {
            let jwt = try await providerToken.token()
            headers.append(("authorization", "bearer \(jwt)"))
        }
        return headers
    }

    static func validate(topic: String) throws(APNsError) {
        guard !topic.isEmpty else { throw .invalidTopic("the topic (pass type identifier) is empty") }
        guard topic.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidTopic("the topic \(topic.debugDescription) holds spaces, control or non-ASCII characters")
        }
    }

    /// Logs a push's result with its token (redacted) and topic. The metadata is made only when the level is logged:
    /// a delivered push, the common case, is a debug line.
    func log(_ result: APNsResult, pushToken: String, topic: String) {
        func metadata(_ extra: Logger.Metadata) -> Logger.Metadata {
            extra.merging(["apns.push_token": "\(APNsPushToken.redacted(pushToken))", "apns.topic": "\(topic)"]) { $1 }
        }
        switch result {
        case .delivered(let apnsID):
            logger.debug("APNs accepted the notification", metadata: metadata(["apns.id": "\(apnsID ?? "-")"]))
        case .unregistered(let timestamp):
            logger.info("APNs: push token unregistered",
                        metadata: metadata(["apns.timestamp": "\(timestamp.map { "\($0)" } ?? "-")"]))
        case .badDeviceToken:
            logger.info("APNs: bad device token", metadata: metadata([:]))
        case .malformedToken:
            logger.info("APNs: malformed push token, not sent", metadata: metadata([:]))
        case .retryable(let status, let reason, let retryAfter):
            // Said once per batch by the push dispatcher (with how many pushes): per push, an outage floods the log.
            logger.debug("APNs: temporary failure", metadata: metadata([
                "apns.status": "\(status.map(String.init) ?? "none")", "apns.reason": "\(reason)",
                "apns.retry_after": "\(retryAfter.map { "\($0)" } ?? "-")",
            ]))
        case .failed(let status, let reason):
            logger.error("APNs refused the notification",
                         metadata: metadata(["apns.status": "\(status)", "apns.reason": "\(reason)"]))
        }
    }
}
