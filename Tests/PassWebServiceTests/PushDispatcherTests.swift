import Foundation
import PassStore
@testable import PassWebService
import Testing
import Logging
import PassCrypto
import PassModel
import Synchronization
import TesseraTestSupport

@Suite("Push dispatcher")
struct PushDispatcherTests {
    private func registeredPass(_ fixture: WebServiceFixture, tokens: [String: String]) async throws -> PassRecord {
        let pass = try await fixture.createPass(serial: "P-\(UUID().uuidString.prefix(8))")
        for (device, token) in tokens {
            _ = try await fixture.store.register(
                deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: pass.passTypeIdentifier,
                serialNumber: pass.serialNumber, now: fixture.clock.now)
        }
        return pass
    }

    private func change(_ fixture: WebServiceFixture, _ pass: PassRecord, seat: String) async throws {
        _ = try await fixture.issuer.changePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
            data: ["fields": .object(["seat": .string(seat)])])
    }

    @Test("one push per push token and pass type per change batch")
    func coalesces() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1", "d2": "t2"])
        try await change(fixture, pass, seat: "1A")
        try await change(fixture, pass, seat: "1B")
        try await fixture.dispatcher.sendDueBatch()
        #expect(fixture.pushes.sent.map(\.pushToken).sorted() == ["t1", "t2"])
        #expect(try await fixture.dispatcher.sendDueBatch() == 0)
    }

    @Test("410 Unregistered removes the registration unless the device registered again after the timestamp")
    func unregistered() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1"])
        let stale = try await registeredPass(fixture, tokens: ["d2": "t2"])
        // t1's 410 is older than its registration: kept. t2's 410 is newer: removed.
        fixture.pushes.answer(.unregistered(timestamp: fixture.clock.now.addingTimeInterval(-60)), for: "t1")
        fixture.pushes.answer(.unregistered(timestamp: fixture.clock.now.addingTimeInterval(60)), for: "t2")
        try await change(fixture, pass, seat: "2A")
        try await change(fixture, stale, seat: "2B")
        try await fixture.dispatcher.sendDueBatch()
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber) == 1)
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: stale.passTypeIdentifier, serialNumber: stale.serialNumber) == 0)
    }

    @Test("400 BadDeviceToken drops the push but keeps the registration (a server pushing to the sandbox gets it for every production token); a malformed token's registrations go")
    func badDeviceToken() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1"])
        let broken = try await registeredPass(fixture, tokens: ["d2": "t2"])
        fixture.pushes.answer(.badDeviceToken, for: "t1")
        fixture.pushes.answer(.malformedToken, for: "t2")
        try await change(fixture, pass, seat: "3A")
        try await change(fixture, broken, seat: "3B")
        #expect(try await fixture.dispatcher.sendDueBatch() == 2)
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber) == 1)
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: broken.passTypeIdentifier, serialNumber: broken.serialNumber) == 0)
        // The refused push is not tried again.
        fixture.clock.advance(600)
        #expect(try await fixture.dispatcher.sendDueBatch() == 0)
    }

    @Test("429 and 5xx are retried later with backoff, not before Retry-After")
    func retries() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1"])
        fixture.pushes.answer(.retryable(reason: "TooManyRequests", retryAfter: 30), for: "t1")
        try await change(fixture, pass, seat: "4A")
        try await fixture.dispatcher.sendDueBatch()
        #expect(fixture.pushes.sent.count == 1)
        fixture.clock.advance(10)
        #expect(try await fixture.dispatcher.sendDueBatch() == 0)  // not due yet
        fixture.pushes.answer(.delivered, for: "t1")
        fixture.clock.advance(25)
        #expect(try await fixture.dispatcher.sendDueBatch() == 1)
        #expect(fixture.pushes.sent.count == 2)
        fixture.clock.advance(600)
        #expect(try await fixture.dispatcher.sendDueBatch() == 0)  // delivered: gone from the queue
    }

    @Test("APNs unreachable for hours: the push is tried again until it goes out; only after a day is it dropped")
    func outageLosesNoPush() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1", "d2": "t2"])
        for token in ["t1", "t2"] { fixture.pushes.answer(.retryable(reason: "cannot reach APNs", retryAfter: nil), for: token) }
        try await change(fixture, pass, seat: "5A")
        // Three hours of outage, the queue read every minute: each push tried again and again, none dropped.
        for _ in 0..<180 {
            _ = try await fixture.dispatcher.sendDueBatch()
            fixture.clock.advance(60)
        }
        let triedDuringOutage = fixture.pushes.sent.filter { $0.pushToken == "t1" }.count
        #expect(triedDuringOutage > 8 && triedDuringOutage < 60, "\(triedDuringOutage) tries in 3 h")
        fixture.pushes.answer(.delivered, for: "t1")
        fixture.clock.advance(300)
        #expect(try await fixture.dispatcher.sendDueBatch() >= 1)
        #expect(fixture.pushes.sent.filter { $0.pushToken == "t1" }.count == triedDuringOutage + 1)
        // t2's APNs answer never comes right: after a day from its queuing it is dropped, and the queue is empty.
        for _ in 0..<(22 * 12) {
            _ = try await fixture.dispatcher.sendDueBatch()
            fixture.clock.advance(300)
        }
        let sent = fixture.pushes.sent.count
        fixture.clock.advance(3600)
        #expect(try await fixture.dispatcher.sendDueBatch() == 0)
        #expect(fixture.pushes.sent.count == sent, "nothing left to try after the retry window")
    }

    @Test("backoff doubles from 1 s to at most 5 minutes and honours Retry-After")
    func backoff() {
        #expect((0.5...1).contains(PushDispatcher.backoff(attempt: 0, retryAfter: nil)))
        #expect((4...8).contains(PushDispatcher.backoff(attempt: 3, retryAfter: nil)))
        #expect(PushDispatcher.backoff(attempt: 30, retryAfter: nil) <= 300)
        #expect(PushDispatcher.backoff(attempt: 0, retryAfter: 120) == 120)
    }

    @Test("pushes put back for a retry are logged once per pass type and reason, with their count, not once each")
    func retriesLoggedTogether() async throws {
        let fixture = try WebServiceFixture()
        let tokens = Dictionary(uniqueKeysWithValues: (1...30).map { ("d\($0)", "t\($0)") })
        let pass = try await registeredPass(fixture, tokens: tokens)
        for token in tokens.values { fixture.pushes.answer(.retryable(reason: "503 ServiceUnavailable", retryAfter: nil), for: token) }
        try await change(fixture, pass, seat: "9Z")
        let logs = RecordedLogs()
        let dispatcher = PushDispatcher(store: fixture.store, sender: fixture.pushes, logger: logs.logger(level: .info),
                                        now: { fixture.clock.now })
        #expect(try await dispatcher.sendDueBatch() == 30)
        let retried = logs.lines.filter { $0.message.contains("retried") }
        #expect(retried.count == 1, "\(retried.map(\.printed))")
        #expect(retried.first?.level == .warning && retried.first?.metadata["pushes"] == "30", "\(retried.map(\.printed))")
        #expect(retried.first?.message.contains("503 ServiceUnavailable") == true)
    }

    @Test("the running dispatcher sends a change's pushes when woken, without waiting for its next poll")
    func wakesUp() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1"])
        // A poll interval far longer than the wait below: only the wake-up can deliver the push in time.
        let dispatcher = PushDispatcher(
            store: fixture.store, sender: fixture.pushes,
            configuration: .init(pollInterval: .seconds(600)), logger: .init(label: "test"))
        let running = Task { try await dispatcher.run() }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(200))  // the dispatcher has polled once and now waits
        try await change(fixture, pass, seat: "5A")
        dispatcher.notify()
        let start = ContinuousClock.now
        while fixture.pushes.sent.isEmpty, ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fixture.pushes.sent.count == 1)
    }

    @Test("a slow APNs: pushes whose turn comes after a quarter of the claim's lease wait for the next claim, none is sent twice")
    func slowSendsLeaveTheRestForTheNextClaim() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1", "d2": "t2", "d3": "t3"])
        try await change(fixture, pass, seat: "8A")
        let sender = SlowSender(clock: fixture.clock)
        let dispatcher = PushDispatcher(
            store: fixture.store, sender: sender, configuration: .init(concurrency: 1, pushesPerSend: 1, lease: 60),
            logger: .init(label: "test"), now: { fixture.clock.now })
        #expect(try await dispatcher.sendDueBatch() == 3)
        #expect(sender.tokens.count == 2, "sends began at 0 s and 10 s; the third's turn came at 20 s")
        // Still claimed until the lease runs out, then claimed again and sent once.
        #expect(try await dispatcher.sendDueBatch() == 0)
        fixture.clock.advance(41)
        #expect(try await dispatcher.sendDueBatch() == 1)
        #expect(sender.tokens.sorted() == ["t1", "t2", "t3"])
        fixture.clock.advance(600)
        #expect(try await dispatcher.sendDueBatch() == 0)
    }

    @Test("a send outlasting the claim's lease: what was sent before is completed as it ends, and not sent again by the next claim")
    func sendOutlastingTheLease() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await registeredPass(fixture, tokens: ["d1": "t1", "d2": "t2"])
        try await change(fixture, pass, seat: "4D")
        let sender = LeaseOutlastingSender(clock: fixture.clock, store: fixture.store)
        let configuration = PushDispatcher.Configuration(concurrency: 2, pushesPerSend: 1, lease: 60)
        let dispatcher = PushDispatcher(
            store: fixture.store, sender: sender, configuration: configuration,
            logger: .init(label: "test"), now: { fixture.clock.now })
        _ = try await dispatcher.sendDueBatch()
        // t1 answered at 35 s, past half the lease; t2 only at 65 s, when another claim took back what was left.
        #expect(sender.takenBack == ["t2"], "sent again by the other claim: \(sender.takenBack)")
    }

    @Test("fewer pushes in flight than a send's group: the groups shrink, the bound holds, each push is sent once")
    func inFlightBelowGroup() async throws {
        let fixture = try WebServiceFixture()
        let tokens = Dictionary(uniqueKeysWithValues: (0..<20).map { ("d\($0)", "t\($0)") })
        let pass = try await registeredPass(fixture, tokens: tokens)
        try await change(fixture, pass, seat: "7C")
        let sender = InFlightCountingSender()
        let dispatcher = PushDispatcher(
            store: fixture.store, sender: sender, configuration: .init(concurrency: 4, pushesPerSend: 16),
            logger: .init(label: "test"), now: { fixture.clock.now })
        #expect(try await dispatcher.sendDueBatch() == 20)
        #expect(sender.tokens.sorted() == tokens.values.sorted())
        #expect(sender.mostAtOnce <= 4, "\(sender.mostAtOnce) pushes were in flight at once")
    }
}

/// Takes 10 s of the fixture's clock per send, as a slow APNs would.
private final class SlowSender: PushSender {
    let clock: TestClock
    private let sentTokens = Mutex([String]())
    var tokens: [String] { sentTokens.withLock { $0 } }

    init(clock: TestClock) { self.clock = clock }

    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        await sendPassUpdates(pushTokens: [pushToken], passTypeIdentifier: passTypeIdentifier)[0]
    }

    func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        sentTokens.withLock { $0 += pushTokens }
        clock.advance(10)
        return pushTokens.map { _ in .delivered }
    }
}

/// Counts the pushes of its sends in flight at once, each send held a moment so that sends started together overlap.
private final class InFlightCountingSender: PushSender {
    private let state = Mutex((inFlight: 0, most: 0, tokens: [String]()))

    var mostAtOnce: Int { state.withLock { $0.most } }
    var tokens: [String] { state.withLock { $0.tokens } }

    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        await sendPassUpdates(pushTokens: [pushToken], passTypeIdentifier: passTypeIdentifier)[0]
    }

    func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        state.withLock {
            $0.inFlight += pushTokens.count
            $0.most = max($0.most, $0.inFlight)
            $0.tokens += pushTokens
        }
        try? await Task.sleep(for: .milliseconds(20))
        state.withLock { $0.inFlight -= pushTokens.count }
        return pushTokens.map { _ in .delivered }
    }
}

/// Answers t1 at 35 s of the fixture's clock; t2 at 65 s, after the claim's lease ran out and another process's claim
/// took back the pushes not completed by then (what it takes back is recorded).
private final class LeaseOutlastingSender: PushSender {
    let clock: TestClock
    let store: any PassStore
    private let taken = Mutex([String]())
    var takenBack: [String] { taken.withLock { $0 } }

    init(clock: TestClock, store: any PassStore) {
        self.clock = clock
        self.store = store
    }

    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        await sendPassUpdates(pushTokens: [pushToken], passTypeIdentifier: passTypeIdentifier)[0]
    }

    func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        if pushTokens == ["t1"] {
            clock.advance(35)
        } else {
            try? await Task.sleep(for: .milliseconds(300))  // t1's answer handled meanwhile
            clock.advance(30)
            let claimed = (try? await store.claimPushes(limit: 10, now: clock.now, lease: 60)) ?? []
            taken.withLock { $0 = claimed.map(\.pushToken).sorted() }
        }
        return pushTokens.map { _ in .delivered }
    }
}
