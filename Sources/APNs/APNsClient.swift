import AsyncHTTPClient
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1

/// Tells Wallet devices that a pass changed: one empty notification (`{}`) per push token, sent over HTTP/2 to
/// `/3/device/<pushToken>` with the pass type identifier as `apns-topic`.
///
/// Authenticates with the Pass Type ID certificate as TLS client certificate or with an ES256 provider token.
/// Run it as a `Service` in a `ServiceGroup`, or call ``shutdown()`` when done.
public final class APNsClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration
    let httpClient: HTTPClient
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
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.tlsConfiguration = try configuration.makeTLSConfiguration()
        httpConfiguration.timeout = .init(connect: .milliseconds(Int64(configuration.connectTimeout * 1000)),
                                          read: .milliseconds(Int64(configuration.requestTimeout * 1000)))
        httpConfiguration.httpVersion = .automatic
        httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration,
                                backgroundActivityLogger: logger)
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
        try APNsPushToken.validate(pushToken)
        try Self.validate(topic: topic)
        var logger = logger
        logger[metadataKey: "apns.push_token"] = "\(APNsPushToken.redacted(pushToken))"
        logger[metadataKey: "apns.topic"] = "\(topic)"

        let request = try await makeRequest(pushToken: pushToken, topic: topic, expiration: expiration)
        let result: APNsResult
        do {
            let response = try await httpClient.execute(request, timeout: .milliseconds(Int64(configuration.requestTimeout * 1000)),
                                                        logger: logger)
            let body = try await response.body.collect(upTo: 64 * 1024)
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = value }
            result = APNsResult.classify(status: Int(response.status.code), headers: headers,
                                         body: Data(body.readableBytesView), now: now())
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            throw APNsError(.clientShutDown, "the APNs client was shut down", underlying: error)
        } catch {
            result = .retryable(status: nil, reason: "\(error)", retryAfter: nil)
        }
        log(result, logger: logger)
        return result
    }

    func makeRequest(pushToken: String, topic: String, expiration: Date?) async throws(APNsError) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "\(configuration.baseURL)/3/device/\(pushToken)")
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "apns-topic", value: topic)
        let expiresAt = expiration ?? now().addingTimeInterval(configuration.expirationInterval)
        let expirationValue = configuration.expirationInterval == 0 && expiration == nil ? 0 : Int(expiresAt.timeIntervalSince1970)
        request.headers.add(name: "apns-expiration", value: String(expirationValue))
        if let priority = configuration.priority { request.headers.add(name: "apns-priority", value: String(priority)) }
        if let pushType = configuration.pushType { request.headers.add(name: "apns-push-type", value: pushType) }
        if let providerToken {
            let jwt = try await providerToken.token()
            request.headers.add(name: "authorization", value: "bearer \(jwt)")
        }
        request.body = .bytes(ByteBuffer(string: "{}"))
        return request
    }

    static func validate(topic: String) throws(APNsError) {
        guard !topic.isEmpty else { throw .invalidTopic("the topic (pass type identifier) is empty") }
        guard topic.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidTopic("the topic \(topic.debugDescription) holds spaces, control or non-ASCII characters")
        }
    }

    private func log(_ result: APNsResult, logger: Logger) {
        switch result {
        case .delivered(let apnsID):
            logger.debug("APNs accepted the notification", metadata: ["apns.id": "\(apnsID ?? "-")"])
        case .unregistered(let timestamp):
            logger.info("APNs: push token unregistered", metadata: ["apns.timestamp": "\(timestamp.map { "\($0)" } ?? "-")"])
        case .badDeviceToken:
            logger.info("APNs: bad device token")
        case .retryable(let status, let reason, let retryAfter):
            logger.warning("APNs: temporary failure", metadata: [
                "apns.status": "\(status.map(String.init) ?? "none")", "apns.reason": "\(reason)",
                "apns.retry_after": "\(retryAfter.map { "\($0)" } ?? "-")",
            ])
        case .failed(let status, let reason):
            logger.error("APNs refused the notification", metadata: ["apns.status": "\(status)", "apns.reason": "\(reason)"])
        }
    }
}
