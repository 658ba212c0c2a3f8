public import Foundation
public import Logging
public import PassModel
public import PassStore
public import ServiceLifecycle
import HTTPTypes
import PassBundle
import Synchronization

/// Applies campaigns: starts scheduled ones when due and changes their passes in batches, each batch one
/// transaction with its pushes and progress (see ``PassStore/CampaignStore/writeCampaignBatch(_:now:)``).
///
/// Progress lives in the store, so a restarted process continues where the campaign stopped and no pass changes
/// twice; several processes on one database work on the same campaign, and of two that read the same batch one
/// writes it. Passes are not signed here: a device's fetch signs the new version (and the bundle cache keeps it).
public final class CampaignRunner: Service, Sendable {
    /// How the runner paces itself.
    public struct Configuration: Sendable {
        /// Passes per batch (per transaction).
        public var batchSize: Int
        /// How often the store is read for due campaigns when nothing was announced.
        public var pollInterval: Duration
        /// Pushes queued per transaction once a campaign has ended.
        public var releaseSize: Int
        /// Batches of one campaign handed to the store at once, where the store can begin one while another commits
        /// (``PassStore/CampaignStore/overlapsCampaignBatchWrites``; otherwise one, with the next read and computed
        /// meanwhile). The store applies them in order either way.
        public var writesInFlight: Int
        /// How long a template that cannot be loaded (a server error: its files half-saved by an editor, or not yet
        /// copied to this host) is waited for, from the first failure this process saw, before the campaign fails.
        public var templateTroublePatience: TimeInterval

        /// Creates a configuration.
        public init(
            batchSize: Int = 500, pollInterval: Duration = .milliseconds(500), releaseSize: Int = 5_000, writesInFlight: Int = 2,
            templateTroublePatience: TimeInterval = 600
        ) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.releaseSize = releaseSize
            self.writesInFlight = writesInFlight
            self.templateTroublePatience = templateTroublePatience
        }
    }

    let issuer: PassIssuer
    let store: any CampaignStore
    let configuration: Configuration
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let wakeUp = WakeUpSignal()
    /// The campaigns this process's ``run()`` is running, each in a task of its own.
    private let running = Mutex<Set<String>>([])
    /// When this process first found a campaign's template unloadable (a server error), by campaign.
    private let templateTrouble = Mutex<[String: Date]>([:])
    /// When a campaign's waiting was last logged, by campaign.
    private let troubleLogged = Mutex<[String: Date]>([:])

    /// Creates a runner.
    public init(
        issuer: PassIssuer, store: any CampaignStore, configuration: Configuration = .init(), logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.issuer = issuer
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    /// Tells the runner a campaign was accepted, so it looks now rather than at the next poll.
    public func notify() { wakeUp.signal() }

    /// Runs campaigns until the service group shuts down.
    ///
    /// Each running campaign runs in a task of its own, so a campaign that comes due (or is accepted) while another
    /// runs starts at once rather than when that one ends: a void at 23:00 does not wait behind an hour-long change.
    /// Every poll starts the due campaigns, runs those this process is not running yet, and queues the pushes of
    /// campaigns that ended. A campaign whose run stops on an error is taken up again at the next poll, from its
    /// cursor.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    do {
                        for campaign in try await self.store.startDueCampaigns(now: self.now())
                        where self.running.withLock({ $0.insert(campaign.id).inserted }) {
                            group.addTask {
                                do {
                                    try await self.run(campaign)
                                } catch is CancellationError {
                                } catch let trouble as TemplateTrouble {
                                    // Waited for at every poll: said when it begins and then once a minute.
                                    if self.troubleLogDue(campaign.id) {
                                        self.logger.warning(
                                            "campaign waiting: its template does not load or its passes cannot be signed for now",
                                            metadata: ["campaign": "\(campaign.id)", "reason": "\(trouble.description)"])
                                    }
                                } catch {
                                    self.logger.error("campaign runner: a campaign stopped; taken up again at the next poll",
                                                      metadata: ["campaign": "\(campaign.id)", "error": "\(error)"])
                                }
                                _ = self.running.withLock { $0.remove(campaign.id) }
                            }
                        }
                        try await self.releaseHeldPushes()
                    } catch is CancellationError {
                        break
                    } catch {
                        self.logger.error("campaign runner: cannot read the campaigns", metadata: ["error": "\(error)"])
                    }
                    await self.wakeUp.wait(timeout: self.configuration.pollInterval)
                }
                group.cancelAll()
            }
        }
    }

    /// Starts the due campaigns and runs every running one to its end (or until another process finishes it), then
    /// queues the pushes that ended campaigns hold (also those of a campaign cancelled, or ended by a process that
    /// stopped before it queued them).
    public func runDueCampaigns() async throws {
        for campaign in try await store.startDueCampaigns(now: now()) {
            try Task.checkCancellation()
            try await run(campaign)
        }
        try await releaseHeldPushes()
    }

    /// Queues the pushes held by ended campaigns, a bounded transaction at a time, waking the dispatcher after each,
    /// until none is left or a scheduled campaign is due.
    ///
    /// A campaign holds the pushes it owes until every pass it changes has changed: a device is pushed once, after
    /// all of its passes changed, so the serial numbers it lists then are all of them.
    func releaseHeldPushes() async throws {
        while true {
            try Task.checkCancellation()
            let released = try await store.releaseCampaignPushes(limit: configuration.releaseSize, now: now())
            guard released > 0 else { return }
            issuer.onPushesQueued()
            logger.debug("campaign pushes queued", metadata: ["pushes": "\(released)"])
            // A campaign due meanwhile starts first (at its time, not after a large campaign's every push is queued);
            // the rest is queued after it.
            if let due = try await store.nextScheduledCampaign(), due <= now() {
                wakeUp.signal()
                return
            }
        }
    }

    /// Runs one campaign batch after batch, with up to ``Configuration/writesInFlight`` batches written at once.
    ///
    /// Each batch is read after the cursor the batch before it moves the campaign to, and written only while the
    /// campaign's cursor is still that one, so the store applies them in order whatever their timing: a batch handed
    /// over before the previous one committed does what it can without the campaign (PostgreSQL finds the devices
    /// it owes pushes), then waits for that commit. When a batch is not written (a pass changed since it was read,
    /// another process wrote it, the campaign was cancelled), the ones after it are not either; the runner waits for
    /// them, reads the campaign again and goes on from its cursor, a poll interval later when another process wrote
    /// the batch (so two processes on one campaign do not each read and compute every batch).
    func run(_ campaign: CampaignRecord) async throws {
        let request: CampaignRequest
        do {
            request = try CampaignRequest(try PassIssuer.document(campaign.specification), now: campaign.createdAt, stored: true)
        } catch {
            try await store.failCampaign(id: campaign.id, reason: "the stored campaign cannot be read: \(error)", now: now())
            return
        }
        var current = campaign
        let fits = TemplateVersionFits()
        // Batches handed to the store, oldest first, each read after the cursor the one before it moves to.
        var writing: [(batch: CampaignBatch, write: Task<CampaignBatchOutcome, any Error>)] = []
        // The batch after the one handed over, read and computed while it is written (one batch at a time).
        var prepared: (cursor: String?, batch: Task<CampaignBatch, any Error>)?
        defer {
            for handed in writing { handed.write.cancel() }
            prepared?.batch.cancel()
        }
        let window = store.overlapsCampaignBatchWrites ? max(1, configuration.writesInFlight) : 1
        while current.state == .running || !writing.isEmpty {
            try Task.checkCancellation()
            // Hand over batches until the window is full or the last one is handed over.
            if current.state == .running, writing.count < window, !(writing.last?.batch.finishes ?? false) {
                let after = current.at(writing.last?.batch.cursor ?? current.cursor)
                let batch: CampaignBatch
                do {
                    if let next = prepared, next.cursor == after.cursor {
                        batch = try await next.batch.value
                    } else {
                        prepared?.batch.cancel()
                        batch = try await nextBatch(of: after, request: request, fits: fits)
                    }
                    prepared = nil
                } catch let error as IssuerError {
                    // A template that does not load for now, or passes no identity signs now (a server error, not a
                    // request's: a half-saved file, an expired certificate) is waited for: the campaign stops here and
                    // is taken up again at the next poll, from its cursor, until the patience runs out. A request's
                    // error (data the template refuses) fails it at once.
                    let failedAt = now()
                    if error.status.code >= 500 {
                        let since = templateTrouble.withLock { trouble in
                            let since = trouble[campaign.id, default: failedAt]
                            trouble[campaign.id] = since
                            return since
                        }
                        if failedAt.timeIntervalSince(since) < configuration.templateTroublePatience {
                            throw TemplateTrouble(description: error.description)
                        }
                    }
                    templateTrouble.withLock { $0[campaign.id] = nil }
                    logger.error("campaign failed", metadata: ["campaign": "\(campaign.id)", "reason": "\(error.description)"])
                    try await store.failCampaign(id: campaign.id, reason: error.description, now: failedAt)
                    return
                }
                templateTrouble.withLock { _ = $0.removeValue(forKey: campaign.id) }
                let store = self.store
                let now = self.now
                writing.append((batch, Task { try await store.writeCampaignBatch(batch, now: now()) }))
                if writing.count < window, !batch.finishes { continue }
            }
            // One batch with the store: read and compute the next meanwhile. (With two, the next is read while the
            // second is written.)
            if window == 1, prepared == nil, current.state == .running, let last = writing.last?.batch, !last.finishes {
                let after = current.at(last.cursor)
                prepared = (last.cursor, Task { try await self.nextBatch(of: after, request: request, fits: fits) })
            }
            let (batch, write) = writing.removeFirst()
            let outcome = try await write.value
            switch outcome {
            case .written(let record):
                logWritten(batch, record)
                current = record
            case .passChanged, .cursorMoved:
                // A pass changed since it was read (read the same batch again), or another process wrote this batch,
                // or the campaign was cancelled. The batches handed over after it find the cursor elsewhere: wait for
                // them, then read where the campaign is.
                logger.debug(
                    outcome.isPassChanged ? "campaign batch to read again" : "campaign batch already written",
                    metadata: ["campaign": "\(campaign.id)", "cursor": "\(batch.expectedCursor ?? "")"])
                // A later batch can still be written: when another process wrote this one, the cursor is where the
                // next one expects it.
                for later in writing {
                    if case .written(let record)? = try? await later.write.value { logWritten(later.batch, record) }
                }
                writing.removeAll()
                prepared?.batch.cancel()
                prepared = nil
                guard let record = try await store.campaign(id: campaign.id) else { return }
                current = record
                if case .cursorMoved = outcome, record.state == .running, record.cursor != batch.expectedCursor {
                    // Another process wrote this batch (the cursor is past it), and has the next one handed over
                    // already: it would win that one too. Follow it a poll interval behind instead of reading and
                    // computing every batch twice; if it stops, this process goes on from its cursor. (A cursor
                    // still where the batch expected it means this process's own batch came to the store before
                    // the one before it: it is read again at once.)
                    logger.debug("campaign written by another process", metadata: ["campaign": "\(campaign.id)"])
                    try await Task.sleep(for: configuration.pollInterval)
                    current = try await store.campaign(id: campaign.id) ?? record
                }
            }
        }
        try await releaseHeldPushes()
    }

    /// Logs a batch the store wrote, and the campaign's end when it was the last.
    private func logWritten(_ batch: CampaignBatch, _ record: CampaignRecord) {
        logger.debug("campaign batch written", metadata: [
            "campaign": "\(record.id)", "changed": "\(batch.changes.count)", "cursor": "\(record.cursor ?? "")",
        ])
        if record.state == .done {
            logger.info("campaign done", metadata: [
                "campaign": "\(record.id)", "matched": "\(record.matched)", "changed": "\(record.changed)",
                "failed": "\(record.failed)", "pushesQueued": "\(record.pushesQueued)",
            ])
        }
    }
}

extension CampaignBatchOutcome {
    fileprivate var isPassChanged: Bool {
        if case .passChanged = self { true } else { false }
    }
}

extension CampaignRecord {
    /// The campaign as a batch read after `cursor` sees it (the cursor a batch still being written moves it to).
    fileprivate func at(_ cursor: String?) -> CampaignRecord {
        var record = self
        record.cursor = cursor
        return record
    }
}

extension CampaignRunner {
    /// Whether a campaign's waiting is to be logged now: at its first poll, then once a minute.
    func troubleLogDue(_ id: String) -> Bool {
        let now = self.now()
        return troubleLogged.withLock { logged in
            if let last = logged[id], now.timeIntervalSince(last) < 60 { return false }
            if logged.count > 1_000 { logged.removeAll() }
            logged[id] = now
            return true
        }
    }
}

/// A campaign's template does not load, or its passes cannot be signed, for now: its run stops and is taken up again
/// at the next poll.
struct TemplateTrouble: Error, CustomStringConvertible {
    var description: String
}
