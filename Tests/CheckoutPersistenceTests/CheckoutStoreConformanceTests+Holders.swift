import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    @Test("holders: a live process keeps its authorizations; a silent one's are recovered, once; at an exclusive start-up every other holder's; an expired lease anyone's",
          arguments: CheckoutStoreKind.tested)
    func holders(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let now = CheckoutFixtures.now
            let held: [(id: String, holder: String?)] = [("hl-live", "srv_live"), ("hl-dead", "srv_dead"), ("hl-none", nil)]
            for (index, (id, holder)) in held.enumerated() {
                let session = CheckoutFixtures.session(id)
                _ = try await store.insertSession(session)
                #expect(try await store.claimAuthorization(
                    CheckoutFixtures.claimed(session, orderId: "o-\(id)", transaction: "tx-\(id)"),
                    transactionIdentifier: "tx-\(id)", holder: holder, at: now.addingTimeInterval(Double(index) - 30))
                    == .claimed)
            }
            // A claim is a sign of life: a holder that claimed within the window is alive before its first heartbeat.
            #expect(try await store.leaseRecoverableAuthorizations(
                .init(leaseExpiredBefore: now.addingTimeInterval(-120), otherHolders: .silentSince(now.addingTimeInterval(-40))),
                holder: "srv_taker", now: now, limit: 10).isEmpty)
            try await store.recordHeartbeat(holder: "srv_live", at: now)
            try await store.recordHeartbeat(holder: "srv_dead", at: now.addingTimeInterval(-60))
            try await store.recordHeartbeat(holder: "srv_taker", at: now)
            let silence = RecoverableAuthorizations(leaseExpiredBefore: now.addingTimeInterval(-120),
                                                    otherHolders: .silentSince(now.addingTimeInterval(-8)))

            // Only the silent holder's; none held before holders were recorded (their lease decides).
            let recovered = try await store.leaseRecoverableAuthorizations(silence, holder: "srv_taker", now: now, limit: 10)
            #expect(recovered.map(\.id) == ["hl-dead"])
            #expect(recovered.first?.authorization?.idempotencyKey == "hl-dead-1")
            // Now the taker holds it, and beats: nobody takes it again, and the taker never takes its own by silence.
            #expect(try await store.leaseRecoverableAuthorizations(silence, holder: "srv_other", now: now, limit: 10)
                .isEmpty)
            #expect(try await store.leaseRecoverableAuthorizations(silence, holder: "srv_taker", now: now, limit: 10)
                .isEmpty)
            // Without heartbeat rules, only leases count.
            #expect(try await store.leaseRecoverableAuthorizations(
                .init(leaseExpiredBefore: now.addingTimeInterval(-120)), holder: "srv_other", now: now, limit: 10).isEmpty)

            // Starting up on a store no other process uses: every authorization another process held.
            let startUp = try await store.leaseRecoverableAuthorizations(
                .init(leaseExpiredBefore: now.addingTimeInterval(-120), otherHolders: .all), holder: "srv_taker",
                now: now, limit: 10)
            #expect(Set(startUp.map(\.id)) == ["hl-live", "hl-none"])

            // The last resort: leases older than the bound, whoever holds them.
            let later = now.addingTimeInterval(200)
            // (Leases renewed at `now` above; every one is older than 120 s by `later`.)
            let expired = try await store.leaseRecoverableAuthorizations(
                .init(leaseExpiredBefore: later.addingTimeInterval(-120), otherHolders: .none), holder: "srv_late",
                now: later, limit: 10)
            #expect(Set(expired.map(\.id)) == ["hl-live", "hl-dead", "hl-none"])
            #expect(try await store.leaseRecoverableAuthorizations(
                .init(leaseExpiredBefore: later.addingTimeInterval(-120)), holder: "srv_late", now: later, limit: 10)
                .isEmpty)
        }
    }
}
