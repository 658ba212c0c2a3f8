import AsyncHTTPClient
public import Foundation
public import Logging
import Metrics
public import NIOCore
import NIOHTTP1
import NIOPosix
public import PassStore
public import ServiceLifecycle
import Synchronization

/// Posts every event of the log to the issuer's webhook endpoint, in order, at least once.
///
/// The outbox is the event log itself (each event committed with its change) and a cursor per endpoint in the same
/// store (``PassStore/WebhookOutboxStore``): a process takes the endpoint's lease, posts the events after the cursor
/// one after another and moves the cursor on as they are accepted. Every server process runs one; the lease lets one
/// deliver at a time (no event is sent by two processes at once), and when its process dies the lease runs out and
/// another continues from the last saved cursor (events posted but not yet saved are posted again: at least once).
/// Delivery is in log order, so a pass's events arrive in the order they happened.
///
/// A timeout, a connection error, 408, 429 or 5xx is retried with exponential backoff (1 s, 2 s, 4 s, ... at most
/// 10 minutes apart) until 24 hours after the event was recorded, holding back the events after it; then the event is
/// given up on (logged) and delivery goes on. The window is the event's own, kept in the log, so a restart or another
/// process taking over does not open it again (and an outage of days gives each event it held back at least one try,
/// not a day each). Any other answer that is not 2xx is the receiver refusing the event: logged, not retried.
/// Redirects are not followed.
public final class WebhookDispatcher: Service, Sendable {
    /// Where and how events are posted.
    public struct Configuration: Sendable {
        /// The receiver.
        public var destination: WebhookDestination
        /// The HMAC secret of the `Tessera-Signature` header.
        public var secret: Data
        /// How long one post may take.
        public var timeout: TimeAmount
        /// How long a failing event is retried.
        public var retryWindow: TimeInterval
        /// The first retry's delay; each next one doubles, up to ``longestRetryDelay``.
        public var firstRetryDelay: Duration
        public var longestRetryDelay: Duration
        /// How long a process's lease on delivery lasts without being renewed.
        public var lease: TimeInterval
        /// How often the log is read when there was nothing to send.
        public var pollInterval: Duration
        /// Events read per round.
        public var batchSize: Int
        /// Whether this process is the only one on its store (SQLite): a lease a previous process left is taken at
        /// once rather than when it runs out.
        public var exclusiveStore = false

        /// Creates a configuration.
        public init(destination: WebhookDestination, secret: Data, timeout: TimeAmount = .seconds(10),
                    retryWindow: TimeInterval = 86_400, firstRetryDelay: Duration = .seconds(1),
                    longestRetryDelay: Duration = .seconds(600), lease: TimeInterval = 30,
                    pollInterval: Duration = .milliseconds(250), batchSize: Int = 200) {
            self.destination = destination
            self.secret = secret
            self.timeout = timeout
            self.retryWindow = retryWindow
            self.firstRetryDelay = firstRetryDelay
            self.longestRetryDelay = longestRetryDelay
            self.lease = lease
            self.pollInterval = pollInterval
            self.batchSize = batchSize
        }
    }

    /// What one post came to.
    enum Outcome: Equatable {
        /// 2xx, with the status.
        case delivered(Int)
        /// Not 2xx and not worth retrying.
        case refused(Int)
        /// Worth retrying: why, and the status when the receiver answered.
        case retry(String, Int?)
    }

    private struct LeaseLost: Error {}

    private let configuration: Configuration
    private let store: any WebhookOutboxStore & EventStore
    /// When a delivered post was last noted (see ``record(_:at:_:status:detail:next:)``).
    private let lastDeliveredRecord = Mutex(Date.distantPast)
    /// Where posts are noted and retries asked for, when the store keeps them.
    private var attempts: (any WebhookAttemptStore)? { store as? any WebhookAttemptStore }
    private let client: HTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Date
    /// This process's name in the lease: unique, or on a store only one process uses, the same for every process (a
    /// restarted one takes over its predecessor's lease at once).
    private let owner: String
    private var endpoint: String { configuration.destination.url.absoluteString }
    private let delivered = Counter(label: "tessera_webhook_events_total", dimensions: [("result", "delivered")])
    private let refused = Counter(label: "tessera_webhook_events_total", dimensions: [("result", "refused")])
    private let abandoned = Counter(label: "tessera_webhook_events_total", dimensions: [("result", "abandoned")])
    private let retries = Counter(label: "tessera_webhook_retries_total")

    /// Creates the dispatcher (and its HTTP client, shut down when ``run()`` ends).
    public init(configuration: Configuration, store: any WebhookOutboxStore & EventStore, logger: Logger,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.now = now
        owner = configuration.exclusiveStore
            ? "tessera serve"
            : "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString)"
        var client = HTTPClient.Configuration(redirectConfiguration: .disallow)
        client.timeout = .init(connect: .seconds(5), read: configuration.timeout)
        // A refused connection is an attempt that failed, retried on the documented backoff (1 s, 2 s, 4 s, ...),
        // not tried again by the client until its 5 s connect timeout before each of those.
        client.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: client)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var start: EventCursor?
            // The cursor this process last saw (saved or read with the lease): while the log has nothing after it,
            // an idle round is one read, with no write (SQLite's writer stays free). Another process may have moved
            // the stored cursor further; the lease then reads the stored one.
            var seen: EventCursor?
            var checked = Date.distantPast
            // The receiver's addresses, checked once a minute (`getaddrinfo` blocks: on NIO's thread pool, not a
            // cooperative thread); while they are refused nothing is posted, and the refusal is logged once a minute.
            var refused = false
            // A store that cannot be read (PostgreSQL down for minutes) is logged once a minute, not every poll.
            var storeTroubleLogged = Date.distantPast
            while !Task.isCancelled {
                do {
                    if self.now().timeIntervalSince(checked) >= 60 {
                        checked = self.now()
                        refused = true
                        let destination = self.configuration.destination
                        try await NIOThreadPool.singleton.runIfActive { try destination.checkAddresses() }
                        refused = false
                    }
                    if refused {
                        try? await Task.sleep(for: self.configuration.pollInterval)
                        continue
                    }
                    if start == nil { start = try await self.store.latestEventCursor() }
                    if let last = seen, try await self.store.events(after: last, types: [], limit: 1).isEmpty {
                        try? await Task.sleep(for: self.configuration.pollInterval)
                        continue
                    }
                    if try await self.deliverRound(start: start ?? .start, seen: &seen) { continue }
                } catch where error is CancellationError || Task.isCancelled {
                    // Shutting down (a store's read cut short says so in its own error).
                    break
                } catch is LeaseLost {
                    self.logger.notice("webhook: another process took over delivery")
                } catch let refusal as WebhookDestination.Refusal {
                    self.logger.error("webhook: not delivering", metadata: ["reason": "\(refusal)"])
                } catch {
                    if self.now().timeIntervalSince(storeTroubleLogged) >= 60 {
                        storeTroubleLogged = self.now()
                        self.logger.error("webhook: cannot read the event log (said once a minute while it lasts)",
                                          metadata: ["error": "\(error)"])
                    }
                }
                try? await Task.sleep(for: self.configuration.pollInterval)
            }
        }
        try? await store.releaseWebhookDelivery(endpoint: endpoint, owner: owner)
        try await client.shutdown()
    }

    /// Takes the lease and posts the next events.
    /// - Returns: Whether there were events (read again at once).
    func deliverRound(start: EventCursor, seen: inout EventCursor?) async throws -> Bool {
        guard var position = try await store.leaseWebhookDelivery(
            endpoint: endpoint, owner: owner, start: start, now: now(), lease: configuration.lease)
        else {
            // Another process delivers. Asking again every poll would be a write each time (PostgreSQL locks the
            // row even when the lease is refused): asked again after a sixth of the lease, so a dead holder's lease
            // is taken over at most that much after it runs out.
            try await Task.sleep(for: .seconds(max(1, configuration.lease / 6)))
            return false
        }
        seen = position
        let events = try await store.events(after: position, types: [], limit: configuration.batchSize)
        guard !events.isEmpty else { return false }
        var saved = ContinuousClock.now
        for event in events {
            let committed = position
            try await deliver(event) {
                // Renews the lease while one event waits for its retries.
                guard try await self.save(committed) else { throw LeaseLost() }
            }
            position = event.cursor
            if ContinuousClock.now - saved > .seconds(1) {
                guard try await save(position) else { throw LeaseLost() }
                saved = .now
            }
        }
        guard try await save(position) else { throw LeaseLost() }
        seen = position
        return true
    }

    private func save(_ cursor: EventCursor) async throws -> Bool {
        try await store.saveWebhookCursor(
            endpoint: endpoint, owner: owner, cursor: cursor, now: now(), lease: configuration.lease)
    }

    /// Posts one event until it is accepted, refused, or its retry window has passed.
    private func deliver(_ event: WalletEvent, renewLease: () async throws -> Void) async throws {
        let body = event.jsonBody()
        // From when the event was recorded (not when this process first tried it): the same for every process.
        let first = min(event.createdAt, now())
        var delay = configuration.firstRetryDelay
        while true {
            try Task.checkCancellation()
            let attemptedAt = now()
            let outcome = await post(body, event: event)
            // A post cut short by a shutdown is neither the receiver's failure nor a reason to give up: the event is
            // posted again after the restart (the cursor was not moved).
            if case .retry = outcome { try Task.checkCancellation() }
            switch outcome {
            case .delivered(let status):
                delivered.increment()
                await record(event, at: attemptedAt, .delivered, status: status)
                return
            case .refused(let status):
                refused.increment()
                await record(event, at: attemptedAt, .refused, status: status, detail: "the receiver answered \(status)")
                logger.warning("webhook: the receiver refused an event; not retried", metadata: [
                    "event": "\(event.id)", "type": "\(event.type)", "status": "\(status)",
                ])
                return
            case .retry(let reason, let status):
                guard now().timeIntervalSince(first) < configuration.retryWindow else {
                    abandoned.increment()
                    await record(event, at: attemptedAt, .abandoned, status: status, detail: reason)
                    logger.error("webhook: gave up on an event after its retry window", metadata: [
                        "event": "\(event.id)", "type": "\(event.type)", "reason": "\(reason)",
                    ])
                    return
                }
                retries.increment()
                await record(event, at: attemptedAt, .retrying, status: status, detail: reason,
                             next: now().addingTimeInterval(TimeInterval(delay.components.seconds)))
                logger.warning("webhook: delivery failed; retrying", metadata: [
                    "event": "\(event.id)", "reason": "\(reason)", "in": "\(delay)",
                ])
                // Sleeps in slices shorter than the lease, renewing it, so no other process takes over meanwhile; and
                // of a second at most when the operator can ask for a retry now (read from the store each slice).
                var left = delay
                let slice = Duration.seconds(attempts == nil ? max(1, configuration.lease / 3) : 1)
                // Asked since this post began: an operator who asked while it was under way (the console still showing
                // the try before) is answered too.
                let waitingSince = attemptedAt
                while left > .zero {
                    let step = min(left, slice)
                    try await Task.sleep(for: step)
                    left -= step
                    try await renewLease()
                    if let asked = try? await attempts?.webhookRetryRequested(endpoint: endpoint), asked > waitingSince {
                        logger.notice("webhook: retrying now, as asked", metadata: ["event": "\(event.id)"])
                        break
                    }
                }
                delay = min(delay * 2, configuration.longestRetryDelay)
            }
        }
    }

    /// Notes a post for the operator (the newest 500 per endpoint); a store that cannot is logged, never fatal. Every
    /// failure is noted; a delivered post at most once a second, so a busy log does not add a store write per event
    /// (on SQLite, the one writer's).
    private func record(_ event: WalletEvent, at attemptedAt: Date, _ outcome: WebhookAttempt.Outcome, status: Int?,
                        detail: String? = nil, next: Date? = nil) async {
        guard let attempts else { return }
        if outcome == .delivered {
            let due = lastDeliveredRecord.withLock { last in
                guard attemptedAt.timeIntervalSince(last) >= 1 else { return false }
                last = attemptedAt
                return true
            }
            guard due else { return }
        }
        do {
            try await attempts.recordWebhookAttempt(WebhookAttempt(
                endpoint: endpoint, eventID: event.id, eventType: event.type, attemptedAt: attemptedAt, outcome: outcome,
                status: status, detail: detail.map { String($0.prefix(500)) }, nextAttemptAt: next), keep: 500)
        } catch {
            logger.warning("webhook: cannot record a delivery attempt", metadata: ["error": "\(error)"])
        }
    }

    /// One post of an event.
    func post(_ body: Data, event: WalletEvent) async -> Outcome {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Tessera-Webhooks/1")
        request.headers.add(name: "Tessera-Event-Id", value: String(event.id))
        request.headers.add(name: "Tessera-Event-Type", value: event.type)
        request.headers.add(name: WebhookSignature.headerName,
                            value: WebhookSignature.header(body: body, secret: configuration.secret, timestamp: now()))
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let deadline = ContinuousClock.now + .nanoseconds(configuration.timeout.nanoseconds)
            let response = try await client.execute(request, timeout: configuration.timeout, logger: logger)
            // The client's timeout ends with the answer's head; its body is read within the same 10 s (a receiver
            // that answers 200 and then sends its body a byte at a time would otherwise hold the post, and the lease
            // it no longer renews, for as long as it likes). Past that the body is dropped with its connection.
            await Self.drain(response.body, until: deadline)
            switch response.status.code {
            case 200..<300: return .delivered(Int(response.status.code))
            case 408, 429, 500...: return .retry("the receiver answered \(response.status.code)", Int(response.status.code))
            default: return .refused(Int(response.status.code))
            }
        } catch {
            return .retry(Self.reason(error), nil)
        }
    }

    /// Reads an answer's body (at most 64 KiB of it) until `deadline`; what is left then is cancelled.
    static func drain(_ body: HTTPClientResponse.Body, until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await body.collect(upTo: 1 << 16) }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Why a post failed, in the system's words where it has them (`Connection refused`), rather than NIO's wrapping.
    static func reason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return "cannot connect: \(reason(first.error))" }
            if let resolution = failure.dnsAAAAError ?? failure.dnsAError { return "the receiver's name does not resolve (\(resolution))" }
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let client = error as? HTTPClientError {
            if client == .connectTimeout { return "cannot connect: no answer within 5 s" }
            if client == .readTimeout || client == .deadlineExceeded { return "the receiver did not answer in time" }
        }
        return "\(error)"
    }
}
