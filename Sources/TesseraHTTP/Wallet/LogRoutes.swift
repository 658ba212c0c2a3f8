import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// `POST /v1/log`: problems Wallet reports about the web service, written to the server log with device library
/// identifiers, serial numbers and tokens redacted. Rate limited per client address.
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
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        guard limiter.allow(client, now: now()) else {
            throw WebServiceError.rateLimited("too many log requests")
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

    func allow(_ key: String, now: Date) -> Bool {
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
            return allowed
        }
    }
}
