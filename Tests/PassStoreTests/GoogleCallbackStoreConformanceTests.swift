import Foundation
import PassStore
import Testing
import TesseraTestSupport

/// Google Wallet's callbacks as every store keeps them: once per nonce, counted per pass, each recorded with its
/// `pass.registered` or `pass.unregistered` event (`wallet: google`) in the same transaction.
@Suite("GoogleCallbackStore conformance")
struct GoogleCallbackStoreConformanceTests {
    static let kinds: [StoreKind] = StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres }

    @Test("a callback is recorded once per nonce, counted, and logged as the pass's registration or removal", arguments: kinds)
    func recordsOncePerNonce(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let callbacks = try #require(store as? any GoogleCallbackStore)
            let events = try #require(store as? any EventStore)
            try await Fixtures.insert(["GC1", "GC2"], into: store)
            func callback(_ nonce: String, _ serial: String, save: Bool) -> GoogleCallbackRecord {
                GoogleCallbackRecord(nonce: nonce, passTypeIdentifier: Fixtures.passType, serialNumber: serial,
                                     objectId: "3388.\(Fixtures.passType).\(serial)", isSave: save)
            }
            #expect(try await callbacks.recordGoogleCallback(callback("n1", "GC1", save: true), now: Fixtures.now))
            #expect(try await !callbacks.recordGoogleCallback(callback("n1", "GC1", save: true), now: Fixtures.now))
            #expect(try await callbacks.recordGoogleCallback(callback("n2", "GC1", save: false), now: Fixtures.now))
            #expect(try await callbacks.recordGoogleCallback(callback("n3", "GC2", save: true), now: Fixtures.now))
            let first = try await callbacks.googleCallbackCounts(passTypeIdentifier: Fixtures.passType, serialNumber: "GC1")
            #expect(first.saves == 1 && first.deletes == 1)
            let second = try await callbacks.googleCallbackCounts(passTypeIdentifier: Fixtures.passType, serialNumber: "GC2")
            #expect(second.saves == 1 && second.deletes == 0)

            var recorded: [WalletEvent] = []
            let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
            while recorded.count < 3, ContinuousClock.now < deadline {
                recorded = try await events.events(after: .start, types: ["pass.registered", "pass.unregistered"], limit: 10)
                if recorded.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(recorded.map(\.type) == ["pass.registered", "pass.unregistered", "pass.registered"])
            for event in recorded {
                let data = try #require(try JSONSerialization.jsonObject(with: event.data) as? [String: Any])
                #expect(data["wallet"] as? String == "google")
                #expect((data["device"] as? String)?.count == 32, "a hash, never the object id")
            }
        }
    }
}
