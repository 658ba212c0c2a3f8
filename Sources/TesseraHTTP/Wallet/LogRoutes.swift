import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// `POST /v1/log`: problems Wallet reports about the web service, written to the server log with device library
/// identifiers, serial numbers and tokens redacted. Rate limited per client address (``WebServiceRequestContext/clientAddress``).
struct LogRoutes: Sendable {
    let maximumBodySize: Int
    let limiter: RateLimiter
    let now: @Sendable () -> Date

    /// At most this many messages of a request are logged, each cut to `maximumMessageLength`.
    static let maximumMessages = 50
    static let maximumMessageLength = 1000

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.post("log", use: log)
    }

    private struct LogBody: Decodable {
        var logs: [String]
    }

    @Sendable func log(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        if let wait = limiter.retryAfter(context.clientAddress, now: now()) {
            throw WebServiceError.rateLimited("too many log requests", retryAfter: wait)
        }
        let body = try await JSONBody.decode(LogBody.self, from: request, limit: maximumBodySize)
        for message in body.logs.prefix(Self.maximumMessages) {
            let text = LogRedactor.redact(String(message.prefix(Self.maximumMessageLength)))
            context.logger.warning("wallet log", metadata: ["message": .string(text)])
        }
        return Response(status: .ok)
    }
}

/// A token bucket per key: `burst` requests at once, refilled at `perMinute`.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let buckets = Mutex([String: Bucket]())
    private let burst: Double
    private let perSecond: Double

    init(burst: Int, perMinute: Int) {
        self.burst = Double(burst)
        self.perSecond = Double(perMinute) / 60
    }

    /// Takes one request from `key`'s bucket.
    /// - Returns: `nil` when the request is allowed, else the whole seconds until the bucket holds one again (the
    ///   answer's `Retry-After`).
    func retryAfter(_ key: String, now: Date) -> Int? {
        buckets.withLock { buckets in
            if buckets.count > 10_000 {
                // Forget full buckets so the table cannot grow without bound.
                buckets = buckets.filter { now.timeIntervalSince($0.value.updated) * perSecond + $0.value.tokens < burst }
            }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
            bucket.updated = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            buckets[key] = bucket
            guard !allowed else { return nil }
            guard perSecond > 0 else { return 3600 }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }
}
