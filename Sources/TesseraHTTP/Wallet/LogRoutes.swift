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

/// A token bucket per client: `burst` requests at once, refilled at `perMinute`.
///
/// A client is its IPv4 address, or its IPv6 address's /64 (one subscriber's or host's network: a client with a /64
/// has 2^64 addresses to take a fresh bucket with each). The table is swept of full buckets once it doubles in size
/// since the last sweep (so a request's cost stays constant on average), and holds at most ``maximumBuckets``: past
/// that, clients not yet in it share one bucket, so a crowd of new addresses is limited together rather than growing
/// the table without end (and a full table is swept again at most once a second, so buckets that refilled make room).
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private struct Table {
        var buckets: [String: Bucket] = [:]
        var sweepAt = RateLimiter.firstSweep
        var lastSweep = Date.distantPast
    }

    static let firstSweep = 10_000
    static let maximumBuckets = 100_000
    private static let overflowKey = "(new clients past the table's size)"

    private let table = Mutex(Table())
    private let burst: Double
    private let perSecond: Double

    init(burst: Int, perMinute: Int) {
        self.burst = Double(burst)
        self.perSecond = Double(perMinute) / 60
    }

    /// The bucket's key for a client address: an IPv6 address's first 64 bits (an IPv4-mapped one's IPv4 address),
    /// anything else as given.
    static func clientKey(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String(format: "%02x", $0) }.joined() + "::/64"
    }

    /// Takes one request from the bucket of the client at `address`.
    /// - Parameter taking: `false` to only look whether one would be allowed, taking nothing.
    /// - Returns: `nil` when the request is allowed, else the whole seconds until the bucket holds one again (the
    ///   answer's `Retry-After`).
    func retryAfter(_ address: String, now: Date, taking: Bool = true) -> Int? {
        var key = Self.clientKey(address)
        return table.withLock { table in
            // Swept when it doubled since the last sweep, and, once full, when a new client comes at most once a
            // second: a sweep that left more than half the table would otherwise set the next one past the cap, and
            // every new client would share the overflow bucket until a restart.
            let full = table.buckets[key] == nil && table.buckets.count >= Self.maximumBuckets
            if table.buckets.count > table.sweepAt || (full && now.timeIntervalSince(table.lastSweep) >= 1) {
                // Forget full buckets (perMinute 0: none ever refills, none is forgotten but by the cap below).
                let perSecond = self.perSecond, burst = self.burst
                table.buckets = table.buckets.filter {
                    perSecond == 0 || now.timeIntervalSince($0.value.updated) * perSecond + $0.value.tokens < burst
                }
                table.sweepAt = max(Self.firstSweep, table.buckets.count * 2)
                table.lastSweep = now
            }
            if table.buckets[key] == nil, table.buckets.count >= Self.maximumBuckets { key = Self.overflowKey }
            var bucket = table.buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
            bucket.updated = now
            let allowed = bucket.tokens >= 1
            if allowed && taking { bucket.tokens -= 1 }
            table.buckets[key] = bucket
            guard !allowed else { return nil }
            guard perSecond > 0 else { return 3600 }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }

    /// Gives back a request taken from the bucket of the client at `address` (one that turned out not to count: a
    /// sign-in that succeeded). Taken before the attempt and given back after, so attempts running at once are each
    /// counted, none slipping past a check made before the others were charged.
    func giveBack(_ address: String) {
        let key = Self.clientKey(address)
        table.withLock { table in
            guard var bucket = table.buckets[key] else { return }
            bucket.tokens = min(burst, bucket.tokens + 1)
            table.buckets[key] = bucket
        }
    }
}
