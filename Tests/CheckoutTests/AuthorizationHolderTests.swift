import Checkout
import Foundation
import HummingbirdTesting
import ServiceLifecycle
import Testing
import TesseraTestSupport

/// Recovery by holder: an authorization held by another server process is retried as soon as that process has been
/// silent (no heartbeat, no claim) for ``CheckoutService/Configuration/holderSilence``, never while it is alive; on a
/// store no other process uses, whatever an earlier process held is retried at start-up.
@Suite("Authorizations held by a process that is gone")
struct AuthorizationHolderTests {
    /// Leaves what a process `holder` (the store's default holder when `nil`) that claimed the session and was then
    /// killed leaves behind: authorizing, with its attempt.
    static func claimAsAnotherProcess(_ fixture: CheckoutFixture, _ client: LiveTestClient, holder: String?)
        async throws -> String
    {
        let id = try await AuthorizationStateTests.ticketSession(client)
        var claimed = try #require(await fixture.store.session(id: id))
        claimed.state = .authorizing
        claimed.authorizationAttempts = 1
        claimed.authorization = AuthorizationAttempt(
            orderId: "ord_\(holder ?? "crashed")00000000000000", idempotencyKey: "\(id)-1", transactionIdentifier: "tx-\(id)",
            startedAt: fixture.clock.now, total: Decimal(string: "48.71")!, lineItems: [], shippingMethod: nil,
            couponCode: nil,
            payment: try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                         shippingContact: CheckoutFixture.ticketContact))
        #expect(try await fixture.store.claimAuthorization(claimed, transactionIdentifier: "tx-\(id)", holder: holder,
                                                           at: fixture.clock.now) == .claimed)
        return id
    }

    @Test("The heartbeat goes on while recovery waits on a slow processor, so no other process takes this one for dead")
    func heartbeatBesideRecovery() async throws {
        // Longer than a loaded machine can hold this test's task (the first minute of a full run on two cores).
        let processor = CountingProcessor(delay: .seconds(60))
        let fixture = try CheckoutFixture(processor: processor, configuration: .init(
            recoveryInterval: .milliseconds(100), heartbeatInterval: .milliseconds(100), exclusiveStore: true))
        try await fixture.withClient { client in
            // Left by an earlier process on a store only this one uses: recovered at start-up, through the processor.
            let id = try await Self.claimAsAnotherProcess(fixture, client, holder: "srv_before")
            let services = Task {
                try await withThrowingDiscardingTaskGroup { group in
                    for service in fixture.service.services { group.addTask { try await service.run() } }
                }
            }
            defer { services.cancel() }
            let called = ContinuousClock.now + .seconds(TestTime.seconds(50))
            while processor.calls.isEmpty, ContinuousClock.now < called { try await Task.sleep(for: .milliseconds(10)) }
            try #require(processor.calls.count == 1, "recovery is waiting on the processor")
            // While that call takes its minute, time moves on and the heartbeat records it.
            fixture.clock.advance(5)
            let moved = fixture.clock.now
            var beats = await fixture.store.lastHeartbeats
            let beaten = ContinuousClock.now + .seconds(TestTime.seconds(50))
            while !beats.values.contains(moved), ContinuousClock.now < beaten {
                try await Task.sleep(for: .milliseconds(20))
                beats = await fixture.store.lastHeartbeats
            }
            // Seen before the recovered payment committed: the heartbeat did not wait for the processor.
            let state = try #require(await fixture.store.session(id: id)).state
            #expect(beats.values.contains(moved), "\(beats)")
            #expect(state != .authorized, "the heartbeat came only after recovery's processor call")
        }
    }

    @Test("A dead holder's authorization is recovered after 8 s of silence, once; a live holder's is left alone until its lease runs out")
    func deadAndLiveHolders() async throws {
        let processor = CountingProcessor()
        let fixture = try CheckoutFixture(processor: processor)
        try await fixture.withClient { client in
            let dead = try await Self.claimAsAnotherProcess(fixture, client, holder: "srv_dead")
            let live = try await Self.claimAsAnotherProcess(fixture, client, holder: "srv_live")
            await fixture.service.recordHeartbeat()
            // Just claimed: a sign of life, heartbeat or not.
            #expect(await fixture.service.recoverAuthorizations() == 0)
            for _ in 0..<4 {
                fixture.clock.advance(3)
                try await fixture.store.recordHeartbeat(holder: "srv_live", at: fixture.clock.now)
                await fixture.service.recordHeartbeat()
                _ = await fixture.service.recoverAuthorizations()
            }
            // 12 s on: the dead holder's was retried with its key and committed; the live one's never reached the
            // processor.
            #expect(processor.calls.map(\.idempotencyKey) == ["\(dead)-1"])
            #expect(try #require(await fixture.store.session(id: dead)).state == .authorized)
            #expect(try #require(await fixture.store.session(id: live)).state == .authorizing)
            #expect(await fixture.service.recoverAuthorizations() == 0)

            // The lease (120 s) is the last resort, whoever holds it.
            fixture.clock.advance(120)
            try await fixture.store.recordHeartbeat(holder: "srv_live", at: fixture.clock.now)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            #expect(processor.calls.map(\.idempotencyKey) == ["\(dead)-1", "\(live)-1"])
        }
    }

    @Test("On a store no other process uses, start-up recovers what an earlier process held, at once; a shared store waits for the silence")
    func exclusiveStartUp() async throws {
        for exclusive in [true, false] {
            let processor = CountingProcessor()
            let fixture = try CheckoutFixture(processor: processor, configuration: .init(exclusiveStore: exclusive))
            try await fixture.withClient { client in
                let id = try await Self.claimAsAnotherProcess(fixture, client, holder: "srv_earlier")
                #expect(await fixture.service.recoverAuthorizations(startingUp: true) == (exclusive ? 1 : 0))
                #expect(processor.calls.map(\.idempotencyKey) == (exclusive ? ["\(id)-1"] : []))
            }
        }
    }
}
