import Foundation
import PassStore
import Testing
import TesseraTestSupport

/// The recent posts to webhook endpoints, retry requests, and the events of one item, as every store keeps them.
@Suite("WebhookAttemptStore and ItemEventStore conformance")
struct WebhookAttemptConformanceTests {
    static let kinds: [StoreKind] = StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres }

    @Test("posts newest first, the newest kept per endpoint; a retry request is remembered", arguments: kinds)
    func attempts(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let attempts = try #require(store as? any WebhookAttemptStore)
            let endpoint = "https://hooks.example.com/tessera"
            let t0 = Fixtures.now
            for index in 0..<5 {
                try await attempts.recordWebhookAttempt(WebhookAttempt(
                    endpoint: endpoint, eventID: Int64(index), eventType: "pass.updated", attemptedAt: t0.addingTimeInterval(Double(index)),
                    outcome: index < 4 ? .retrying : .delivered, status: index < 4 ? 503 : 200,
                    detail: index < 4 ? "the receiver answered 503" : nil,
                    nextAttemptAt: index < 4 ? t0.addingTimeInterval(Double(index) + 1) : nil), keep: 3)
            }
            try await attempts.recordWebhookAttempt(WebhookAttempt(
                endpoint: "https://other.example.com", eventID: 9, eventType: "pass.created", attemptedAt: t0, outcome: .refused,
                status: 400), keep: 3)
            let newest = try await attempts.webhookAttempts(endpoint: endpoint, limit: 10)
            #expect(newest.map(\.eventID) == [4, 3, 2])
            #expect(newest.first?.outcome == .delivered && newest.first?.status == 200 && newest.first?.detail == nil)
            #expect(newest[1].outcome == .retrying && newest[1].nextAttemptAt == t0.addingTimeInterval(4) && newest[1].detail == "the receiver answered 503")
            #expect(try await attempts.webhookAttempts(endpoint: endpoint, limit: 1).map(\.eventID) == [4])
            #expect(try await attempts.webhookAttempts(endpoint: "https://other.example.com", limit: 10).map(\.outcome) == [.refused])

            #expect(try await attempts.webhookRetryRequested(endpoint: endpoint) == nil)
            try await attempts.requestWebhookRetry(endpoint: endpoint, at: t0)
            try await attempts.requestWebhookRetry(endpoint: endpoint, at: t0.addingTimeInterval(5))
            #expect(try await attempts.webhookRetryRequested(endpoint: endpoint) == t0.addingTimeInterval(5))
        }
    }

    @Test("one item's events, newest first", arguments: kinds)
    func itemEvents(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let items = try #require(store as? any ItemEventStore)
            let events = try #require(store as? any EventStore)
            try await Fixtures.insert(["IE-1", "IE-2"], into: store)
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "00aa", passTypeIdentifier: Fixtures.passType,
                                         serialNumber: "IE-1", now: Fixtures.now)
            var logged: [WalletEvent] = []
            for _ in 0..<300 where logged.count < 3 {
                logged = try await events.events(after: .start, types: [], limit: 10)
                if logged.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            }
            let first = try await items.events(typeIdentifier: Fixtures.passType, identifier: "IE-1", limit: 10)
            #expect(first.map(\.type) == ["pass.registered", "pass.created"])
            #expect(try await items.events(typeIdentifier: Fixtures.passType, identifier: "IE-1", limit: 1).map(\.type) == ["pass.registered"])
            #expect(try await items.events(typeIdentifier: Fixtures.passType, identifier: "IE-2", limit: 10).map(\.type) == ["pass.created"])
            #expect(try await items.events(typeIdentifier: "pass.other", identifier: "IE-1", limit: 10).isEmpty)
        }
    }
}
