import Foundation
import PassStore
import Testing

/// The webhook delivery state every store keeps: one lease holder per endpoint, a cursor that only its holder moves,
/// a lease that runs out.
@Suite("WebhookOutboxStore conformance")
struct WebhookOutboxConformanceTests {
    @Test("one owner holds an endpoint's lease until it runs out or is given up; only the holder moves the cursor",
          arguments: StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres })
    func lease(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let outbox = try #require(store as? any WebhookOutboxStore)
            let endpoint = "https://hooks.example.com/tessera"
            let start = EventCursor(transaction: 7, id: 3)
            let t0 = Fixtures.now
            #expect(try await outbox.leaseWebhookDelivery(endpoint: endpoint, owner: "a", start: start, now: t0, lease: 30) == start)
            #expect(try await outbox.leaseWebhookDelivery(endpoint: endpoint, owner: "b", start: .start, now: t0, lease: 30) == nil)
            #expect(try await outbox.saveWebhookCursor(
                endpoint: endpoint, owner: "a", cursor: EventCursor(transaction: 9, id: 5), now: t0, lease: 30))
            #expect(try await !outbox.saveWebhookCursor(
                endpoint: endpoint, owner: "b", cursor: EventCursor(id: 99), now: t0, lease: 30))
            // The holder renews; another owner gets it only once it ran out.
            #expect(try await outbox.leaseWebhookDelivery(
                endpoint: endpoint, owner: "a", start: .start, now: t0.addingTimeInterval(20), lease: 30)
                == EventCursor(transaction: 9, id: 5))
            #expect(try await outbox.leaseWebhookDelivery(
                endpoint: endpoint, owner: "b", start: .start, now: t0.addingTimeInterval(40), lease: 30) == nil)
            #expect(try await outbox.leaseWebhookDelivery(
                endpoint: endpoint, owner: "b", start: .start, now: t0.addingTimeInterval(51), lease: 30)
                == EventCursor(transaction: 9, id: 5))
            #expect(try await !outbox.saveWebhookCursor(
                endpoint: endpoint, owner: "a", cursor: EventCursor(id: 1), now: t0.addingTimeInterval(52), lease: 30))
            // Given up: the next owner takes it at once. Another endpoint has its own cursor.
            try await outbox.releaseWebhookDelivery(endpoint: endpoint, owner: "b")
            #expect(try await outbox.leaseWebhookDelivery(
                endpoint: endpoint, owner: "c", start: .start, now: t0.addingTimeInterval(53), lease: 30)
                == EventCursor(transaction: 9, id: 5))
            #expect(try await outbox.leaseWebhookDelivery(
                endpoint: endpoint + "/other", owner: "c", start: EventCursor(id: 1), now: t0, lease: 30)
                == EventCursor(id: 1))
        }
    }

    @Test("the latest cursor is the last event's, or the start of an empty log",
          arguments: StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres })
    func latest(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let outbox = try #require(store as? any WebhookOutboxStore)
            let events = try #require(store as? any EventStore)
            #expect(try await outbox.latestEventCursor() == .start)
            try await Fixtures.insert(["L1"], into: store)
            _ = try await Fixtures.register("device-l", token: "t", "L1", in: store)
            _ = try await Fixtures.void("L1", in: store)
            // On PostgreSQL events show once older transactions end: wait for the three.
            var all: [WalletEvent] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while all.count < 3, ContinuousClock.now < deadline {
                all = try await events.events(after: .start, types: [], limit: 10)
                if all.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            }
            let latest = try await outbox.latestEventCursor()
            #expect(latest == all.last?.cursor)
            #expect(try await events.events(after: latest, types: [], limit: 10).isEmpty)
        }
    }

    @Test("retention keeps the events a webhook endpoint delivered to lately has not passed; a stale endpoint holds nothing",
          arguments: StoreKind.tested.filter { $0 == .sqlite || $0 == .postgres })
    func retentionWaitsForDelivery(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let outbox = try #require(store as? any WebhookOutboxStore)
            let events = try #require(store as? any EventStore)
            let analytics = try #require(store as? any AnalyticsStore)
            try await Fixtures.insert(["W1"], into: store)
            _ = try await Fixtures.register("device-w", token: "t", "W1", in: store)
            _ = try await Fixtures.void("W1", in: store)
            var all: [WalletEvent] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while all.count < 3, ContinuousClock.now < deadline {
                all = try await events.events(after: .start, types: [], limit: 10)
                _ = try await analytics.foldAnalytics(limit: 100)
                if all.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            }
            while try await analytics.foldAnalytics(limit: 100) > 0 {}
            try #require(all.count >= 3)
            let t0 = Fixtures.now
            // Endpoint a, delivering now, has posted the first event only; endpoint b was last delivered to long ago.
            let a = "https://hooks.example.com/a", b = "https://hooks.example.com/b"
            _ = try await outbox.leaseWebhookDelivery(endpoint: b, owner: "b", start: .start, now: t0.addingTimeInterval(-100), lease: 30)
            _ = try await outbox.leaseWebhookDelivery(endpoint: a, owner: "a", start: .start, now: t0, lease: 30)
            #expect(try await outbox.saveWebhookCursor(endpoint: a, owner: "a", cursor: all[0].cursor, now: t0, lease: 30))
            let cutoff = t0.addingTimeInterval(20)
            #expect(try await events.deleteEvents(createdBefore: cutoff, limit: 100) == 1, "only what a has posted")
            #expect(try await events.events(after: .start, types: [], limit: 10).map(\.id) == all.dropFirst().map(\.id))
            #expect(try await outbox.saveWebhookCursor(endpoint: a, owner: "a", cursor: all.last!.cursor, now: t0, lease: 30))
            #expect(try await events.deleteEvents(createdBefore: cutoff, limit: 100) == all.count - 1)
        }
    }
}
