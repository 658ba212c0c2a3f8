public import Foundation
public import Logging
import Metrics
public import PassStore
public import ServiceLifecycle
import Synchronization

/// Sends the pushes the store queued with each change, on every server instance at once without sending one twice
/// (claims are leased), and cleans up registrations APNs says are dead.
public final class PushDispatcher: Service, Sendable {
    /// How the dispatcher paces itself.
    public struct Configuration: Sendable {
        /// How often the queue is read when no change was announced (other instances' changes, retries).
        public var pollInterval: Duration
        /// Pushes claimed per round.
        public var batchSize: Int
        /// Pushes of one batch in flight at once (the next batch is claimed and starts while one finishes).
        public var concurrency: Int
        /// Pushes of one pass type handed to the sender together (``PushSender/sendPassUpdates(pushTokens:passTypeIdentifier:)``):
        /// one hop to the APNs connection and one back for all of them. At most `concurrency` are in flight.
        public var pushesPerSend: Int
        /// How long a claim lasts before another instance may take the push over.
        public var lease: TimeInterval
        /// How long a push that keeps failing temporarily (APNs unreachable, 429, 5xx) is tried again, counted from
        /// when it was queued: an outage of APNs or of the network loses no update shorter than this. At the backoff's
        /// cap of 5 minutes, a day is about 300 tries.
        public var retryWindow: TimeInterval

        /// Creates a configuration.
        public init(
            pollInterval: Duration = .seconds(1), batchSize: Int = 1000, concurrency: Int = 64, pushesPerSend: Int = 16,
            lease: TimeInterval = 60, retryWindow: TimeInterval = 24 * 3600
        ) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.concurrency = concurrency
            self.pushesPerSend = pushesPerSend
            self.lease = lease
            self.retryWindow = retryWindow
        }
    }

    private let store: any PassStore
    private let sender: any PushSender
    private let configuration: Configuration
    private let logger: Logger
    private let now: @Sendable () -> Date
    /// Told the pass type of each push APNs accepted (analytics counts them).
    private let onDelivered: @Sendable (String) -> Void
    private let wakeUp = WakeUpSignal()

    /// Creates a dispatcher.
    public init(
        store: any PassStore, sender: any PushSender, configuration: Configuration = .init(), logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init, onDelivered: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.onDelivered = onDelivered
        self.sender = sender
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    /// Tells the dispatcher a change queued pushes, so it sends them now rather than at the next poll.
    public func notify() { wakeUp.signal() }

    /// Sends pushes until the service group shuts down. The next batch is claimed while the one before is still
    /// being sent, so the queue's reads and writes overlap the sends rather than pausing them.
    public func run() async throws {
        logger.info("push dispatcher started")
        await cancelWhenGracefulShutdown {
            var sending: Task<Void, Never>?
            while !Task.isCancelled {
                let claimedAt = self.now()
                let pushes = (try? await self.claimDue()) ?? []
                if pushes.isEmpty {
                    await sending?.value
                    sending = nil
                    await self.wakeUp.wait(timeout: self.configuration.pollInterval)
                    continue
                }
                let previous = sending
                sending = Task { await self.deliver(pushes, claimedAt: claimedAt) }
                await previous?.value
            }
            await sending?.value
        }
        logger.info("push dispatcher stopped")
    }

    /// Claims and sends one batch of due pushes, then records every result that needs no more than removing the
    /// push from the queue in one store call.
    /// - Returns: How many pushes were handled.
    @discardableResult
    public func sendDueBatch() async throws -> Int {
        let claimedAt = now()
        let pushes = try await claimDue()
        await deliver(pushes, claimedAt: claimedAt)
        return pushes.count
    }

    private func claimDue() async throws -> [PendingPush] {
        do {
            return try await store.claimPushes(limit: configuration.batchSize, now: now(), lease: configuration.lease)
        } catch {
            logger.error("cannot read the push queue", metadata: ["error": "\(error)"])
            throw error
        }
    }

    /// Sends claimed pushes, `concurrency` at a time in groups of `pushesPerSend` of one pass type, and completes the
    /// sent ones in one store call. A group whose turn comes when a quarter of the claim's lease has passed (APNs
    /// answering slowly) is left unsent for the next claim: once the lease runs out another claim (this process's
    /// next, or another process's) takes those pushes, and a send begun late, waiting out APNs' 30 s answer time,
    /// would be completed after it and reach the device twice.
    private func deliver(_ pushes: [PendingPush], claimedAt: Date) async {
        guard !pushes.isEmpty else { return }
        let perSend = max(1, min(configuration.pushesPerSend, configuration.concurrency))
        // Pushes put back for a retry, said once per pass type and reason when the batch is done: during an APNs
        // outage a line per push (a campaign's hundreds of thousands, again at every try) would flood the log.
        let retries = RetryTally()
        defer { retries.log(to: logger) }
        let groups = Dictionary(grouping: pushes, by: \.passTypeIdentifier).values.flatMap { pushes in
            stride(from: 0, to: pushes.count, by: perSend).map { Array(pushes[$0..<min(pushes.count, $0 + perSend)]) }
        }
        let sendsInFlight = max(1, configuration.concurrency / perSend)
        let completed = await withTaskGroup(of: [PendingPush].self) { group in
            var completed: [PendingPush] = []
            completed.reserveCapacity(pushes.count)
            var inFlight = 0
            var leftForLater = 0
            // Sends answered slowly (APNs holding streams back, a handshake) can take the batch past its lease: from
            // half of it, what is sent is completed as each send ends, so a claim taking the rest back does not send
            // again what had gone long before.
            func add(_ done: [PendingPush]) async {
                completed += done
                guard now().timeIntervalSince(claimedAt) >= configuration.lease / 2, !completed.isEmpty else { return }
                await complete(completed)
                completed.removeAll(keepingCapacity: true)
            }
            for pushes in groups {
                if inFlight == sendsInFlight, let done = await group.next() {
                    inFlight -= 1
                    await add(done)
                }
                guard now().timeIntervalSince(claimedAt) < configuration.lease / 4 else {
                    leftForLater += pushes.count
                    continue
                }
                group.addTask { await self.send(pushes, retries: retries) }
                inFlight += 1
            }
            for await done in group { await add(done) }
            if leftForLater > 0 {
                logger.notice("pushes left for the next claim: a quarter of the claim's lease has passed",
                              metadata: ["pushes": "\(leftForLater)", "lease": "\(configuration.lease)"])
            }
            return completed
        }
        await complete(completed)
    }

    private func complete(_ completed: [PendingPush]) async {
        guard !completed.isEmpty else { return }
        do {
            try await store.completePushes(completed)
        } catch {
            // The claims run out and the pushes go again: better twice than never.
            logger.error("cannot record push results", metadata: ["error": "\(error)", "pushes": "\(completed.count)"])
        }
    }

    /// Sends pushes of one pass type together and handles what needs more than completing them.
    /// - Returns: The pushes to be completed (removed from the queue); those put back for a retry are left out.
    private func send(_ pushes: [PendingPush], retries: RetryTally) async -> [PendingPush] {
        guard let passTypeIdentifier = pushes.first?.passTypeIdentifier else { return [] }
        let outcomes = await sender.sendPassUpdates(pushTokens: pushes.map(\.pushToken), passTypeIdentifier: passTypeIdentifier)
        var counts: [String: Int64] = [:]
        var completed: [PendingPush] = []
        completed.reserveCapacity(pushes.count)
        for (push, outcome) in zip(pushes, outcomes) {
            let (complete, result) = await handle(outcome, of: push, retries: retries)
            counts[result, default: 0] += 1
            if complete { completed.append(push) }
        }
        for (name, count) in counts {
            Counter(label: "tessera_apns_pushes_total", dimensions: [("result", name)]).increment(by: count)
        }
        return completed
    }

    /// Handles one push's outcome beyond completing it.
    /// - Returns: Whether the push is to be completed (removed from the queue; `false` when it was put back), and
    ///   the result it counts as in `tessera_apns_pushes_total` (the outcome's name; `dropped` for a push given up
    ///   once its retry window is over).
    private func handle(_ outcome: PushOutcome, of push: PendingPush, retries: RetryTally) async -> (complete: Bool, result: String) {
        var metadata: Logger.Metadata {
            ["passTypeIdentifier": .string(push.passTypeIdentifier), "pushToken": .string(Self.redacted(push.pushToken))]
        }
        do {
            switch outcome {
            case .delivered:
                onDelivered(push.passTypeIdentifier)
            case .unregistered(let timestamp):
                let removed = try await store.removeRegistrations(
                    pushToken: push.pushToken, passTypeIdentifier: push.passTypeIdentifier,
                    unlessRefreshedAfter: timestamp)
                logger.info("push token unregistered", metadata: metadata.merging(["removed": "\(removed)"]) { $1 })
            case .badDeviceToken:
                // Not taken as the token's end: APNs answers this for every token of the other environment, and a
                // server pointed at the sandbox would otherwise forget every device. Wallet's tokens are production
                // tokens; a token that is really dead is answered 410 by the production host.
                logger.error("""
                    push refused: BadDeviceToken (a broken token, or one of another APNs environment than the host \
                    pushed to; Wallet passes and orders use the production host): registrations kept
                    """, metadata: metadata)
            case .malformedToken:
                try await store.removeRegistrations(
                    pushToken: push.pushToken, passTypeIdentifier: push.passTypeIdentifier, unlessRefreshedAfter: nil)
                logger.warning("malformed push token: registrations removed", metadata: metadata)
            case .retryable(let reason, let retryAfter):
                let delay = Self.backoff(attempt: push.attempts, retryAfter: retryAfter)
                let age = now().timeIntervalSince(push.queuedAt)
                if age + delay > configuration.retryWindow {
                    logger.error("push dropped after \(push.attempts + 1) tries over \(Int(age)) s: \(reason)", metadata: metadata)
                    return (true, "dropped")
                } else {
                    logger.debug("push will be retried in \(Int(delay)) s: \(reason)", metadata: metadata)
                    retries.add(passTypeIdentifier: push.passTypeIdentifier, reason: reason, delay: delay)
                    try await store.retryPush(push, notBefore: now().addingTimeInterval(delay))
                    return (false, outcome.name)
                }
            case .failed(let reason):
                logger.error("push refused: \(reason)", metadata: metadata)
            }
        } catch {
            // The claim runs out and the push goes again: better twice than never.
            logger.error("cannot record a push result", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return (false, outcome.name)
        }
        return (true, outcome.name)
    }

    /// Exponential backoff with jitter, 1 s doubling up to 5 minutes, never sooner than `Retry-After`.
    static func backoff(attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let base = min(300, pow(2, Double(min(attempt, 9))))
        let jittered = base * Double.random(in: 0.5...1.0)
        return max(jittered, retryAfter ?? 0)
    }

    /// A push token shortened for logs.
    static func redacted(_ token: String) -> String {
        token.count <= 8 ? "…" : token.prefix(8) + "…"
    }
}

/// The pushes of one batch put back for a retry, by pass type and reason, logged together when the batch is done.
final class RetryTally: Sendable {
    private struct Key: Hashable {
        var passTypeIdentifier: String
        var reason: String
    }

    private let counts = Mutex([Key: (pushes: Int, soonest: TimeInterval, latest: TimeInterval)]())

    func add(passTypeIdentifier: String, reason: String, delay: TimeInterval) {
        counts.withLock { counts in
            let key = Key(passTypeIdentifier: passTypeIdentifier, reason: reason)
            let seen = counts[key] ?? (0, delay, delay)
            counts[key] = (seen.pushes + 1, min(seen.soonest, delay), max(seen.latest, delay))
        }
    }

    /// One line per pass type and reason: how many pushes, and when they go again.
    func log(to logger: Logger) {
        let counts = counts.withLock { $0 }
        for (key, seen) in counts.sorted(by: { ($0.key.passTypeIdentifier, $0.key.reason) < ($1.key.passTypeIdentifier, $1.key.reason) }) {
            let when = Int(seen.soonest) == Int(seen.latest) ? "\(Int(seen.soonest)) s" : "\(Int(seen.soonest))-\(Int(seen.latest)) s"
            logger.warning("pushes will be retried in \(when): \(key.reason)", metadata: [
                "passTypeIdentifier": "\(key.passTypeIdentifier)", "pushes": "\(seen.pushes)",
            ])
        }
    }
}

/// A wake-up call that a waiting task gets at once, or at its timeout.
final class WakeUpSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled (or already signalled since the last wait), after `timeout`, or when cancelled.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForSignal() }
            await group.next()
            group.cancelAll()  // the waiting child's cancellation handler releases it
            self.state.withLock { $0.pending = false }
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
