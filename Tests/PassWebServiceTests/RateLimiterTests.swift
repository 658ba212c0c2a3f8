import Foundation
@testable import TesseraHTTP
import Testing

@Suite("Rate limits per client")
struct RateLimiterTests {
    @Test("an IPv6 client is its /64, an IPv4-mapped one its IPv4 address")
    func clientKeys() {
        #expect(RateLimiter.clientKey("2001:db8:1:2:aaaa::1") == RateLimiter.clientKey("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(RateLimiter.clientKey("2001:db8:1:2::1") != RateLimiter.clientKey("2001:db8:1:3::1"))
        #expect(RateLimiter.clientKey("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(RateLimiter.clientKey("192.0.2.7") == "192.0.2.7")
        #expect(RateLimiter.clientKey("unknown") == "unknown")
    }

    @Test("fresh addresses of one /64 share its bucket")
    func oneNetworkOneBucket() {
        let limiter = RateLimiter(burst: 3, perMinute: 1)
        let now = Date()
        let answers = (1...5).map { limiter.retryAfter("2001:db8:0:1::\($0)", now: now) }
        #expect(answers.prefix(3).allSatisfy { $0 == nil } && answers.suffix(2).allSatisfy { $0 != nil }, "\(answers)")
        #expect(limiter.retryAfter("2001:db8:0:2::1", now: now) == nil, "another /64 has its own bucket")
    }

    @Test("past the table's size, new clients share one bucket; those in it keep theirs")
    func newClientsPastTheCapShareABucket() {
        let limiter = RateLimiter(burst: 2, perMinute: 0)
        let now = Date()
        #expect(limiter.retryAfter("198.51.100.1", now: now) == nil)
        for index in 0..<(RateLimiter.maximumBuckets - 1) {  // the table full: the known client and these
            _ = limiter.retryAfter("10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)", now: now)
        }
        // Two of the crowd's newcomers use up the shared bucket; a third is refused; the client already known is not.
        #expect(limiter.retryAfter("203.0.113.1", now: now) == nil)
        #expect(limiter.retryAfter("203.0.113.2", now: now) == nil)
        #expect(limiter.retryAfter("203.0.113.3", now: now) != nil)
        #expect(limiter.retryAfter("198.51.100.1", now: now) == nil)
    }

    @Test("a full table is swept again once its clients' buckets refilled: new clients get their own again")
    func aFullTableIsSweptAgain() {
        let limiter = RateLimiter(burst: 2, perMinute: 60)
        let start = Date()
        for index in 0..<RateLimiter.maximumBuckets {
            _ = limiter.retryAfter("10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)", now: start)
        }
        #expect(limiter.retryAfter("203.0.113.1", now: start) == nil)
        #expect(limiter.retryAfter("203.0.113.2", now: start) == nil)
        #expect(limiter.retryAfter("203.0.113.3", now: start) != nil, "the crowd's newcomers share one bucket")
        // Ten seconds on, every bucket of the crowd is full again: forgotten, so newcomers are limited one by one.
        let later = start.addingTimeInterval(10)
        let answers = (1...6).map { limiter.retryAfter("198.51.100.\($0)", now: later) }
        #expect(answers.allSatisfy { $0 == nil }, "\(answers)")
    }
}
