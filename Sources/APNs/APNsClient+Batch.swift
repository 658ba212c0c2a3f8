public import Foundation
import Logging
import NIOCore

extension APNsClient {
    /// Sends the pass update notification to several devices of one topic at once.
    ///
    /// The pushes share their headers (one provider token), reach the connection's event loop in one hop and come
    /// back in one, where ``send(pushToken:topic:expiration:)`` takes two hops and a task each. The pushes are
    /// streams on the connection like any others: the peer's limit of concurrent streams and the request timeout
    /// apply to each.
    /// - Parameters:
    ///   - pushTokens: The devices' push tokens. A token that is not hexadecimal is not sent: its result is
    ///     ``APNsResult/malformedToken``, without being sent.
    ///   - topic: The pass type identifier.
    ///   - expiration: As for ``send(pushToken:topic:expiration:)``.
    /// - Returns: One result per token, in the order of `pushTokens`.
    /// - Throws: ``APNsError`` before anything is sent: a malformed topic, an unsignable provider token, or a client
    ///   already shut down.
    public func send(pushTokens: [String], topic: String, expiration: Date? = nil) async throws(APNsError) -> [APNsResult] {
        try Self.validate(topic: topic)
        guard !pushTokens.isEmpty else { return [] }
        var results = [APNsResult?](repeating: nil, count: pushTokens.count)
        var sent: [Int] = []
        sent.reserveCapacity(pushTokens.count)
        for (index, token) in pushTokens.enumerated() {
            do throws(APNsError) {
                try APNsPushToken.validate(token)
                sent.append(index)
            } catch {
                results[index] = .malformedToken
            }
        }
        if !sent.isEmpty {
            let headers = try await requestHeaders(topic: topic, expiration: expiration)
            let answers = await leastBusyConnection.send(
                paths: sent.map { "/3/device/\(pushTokens[$0])" }, headers: headers, body: Self.body,
                timeout: .milliseconds(Int64(configuration.requestTimeout * 1000)))
            var shutDown = 0
            for (index, answer) in zip(sent, answers) {
                switch answer {
                case .success(let response):
                    results[index] = APNsResult.classify(
                        status: response.status, headers: response.headers, body: Data(response.body.readableBytesView),
                        now: now())
                case .failure(.shutDown):
                    // Sent again after a GOAWAY, to a client being shut down: retryable, while the answers already
                    // in hand (a 410, a delivery) are kept.
                    shutDown += 1
                    results[index] = .retryable(status: nil, reason: "the APNs client was shut down", retryAfter: nil)
                case .failure(let failure):
                    results[index] = .retryable(status: nil, reason: "\(failure)", retryAfter: nil)
                }
            }
            if shutDown == sent.count { throw APNsError(.clientShutDown, "the APNs client was shut down") }
            if let providerToken, results.contains(where: {
                // Only a token refused for its age is renewed: one refused for its key (InvalidProviderToken, a key
                // revoked) would be refused again, and APNs takes a new token at most every 20 minutes.
                if case .retryable(403, "ExpiredProviderToken", _) = $0 { true } else { false }
            }), let used = headers.first(where: { $0.0 == "authorization" })?.1.dropFirst("bearer ".count) {
                await providerToken.discard(String(used))
            }
        }
        return zip(pushTokens, results).map { token, result in
            let result = result ?? .retryable(status: nil, reason: "no answer was recorded", retryAfter: nil)
            log(result, pushToken: token, topic: topic)
            return result
        }
    }
}
