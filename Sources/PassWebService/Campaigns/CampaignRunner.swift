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

        /// Creates a configuration.
        public init(
            batchSize: Int = 500, pollInterval: Duration = .milliseconds(500), releaseSize: Int = 5_000, writesInFlight: Int = 2
        ) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.releaseSize = releaseSize
            self.writesInFlight = writesInFlight
        }
    }

    let issuer: PassIssuer
    private let store: any CampaignStore
    private let configuration: Configuration
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let wakeUp = WakeUpSignal()
    /// The campaigns this process's ``run()`` is running, each in a task of its own.
    private let running = Mutex<Set<String>>([])

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

    /// Queues the pushes held by ended campaigns, a bounded transaction at a time, waking the dispatcher after each.
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
            request = try CampaignRequest(try PassIssuer.document(campaign.specification), now: campaign.createdAt)
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
                    logger.error("campaign failed", metadata: ["campaign": "\(campaign.id)", "reason": "\(error.description)"])
                    try await store.failCampaign(id: campaign.id, reason: error.description, now: now())
                    return
                }
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

    /// Reads the passes after the campaign's cursor and computes their changes.
    private func nextBatch(of campaign: CampaignRecord, request: CampaignRequest, fits: TemplateVersionFits)
        async throws -> CampaignBatch
    {
        let limit = configuration.batchSize
        var passes: [PassRecord]
        var missing: [String] = []
        let nextCursor: String?
        let finishes: Bool
        var passType: String
        var templateFields: [String: JSONValue] = [:]
        var wantedFields: [String: JSONValue] = [:]
        switch request.selection {
        case .template(let name, let fields):
            passes = try await store.campaignPasses(.template(name), after: campaign.cursor, limit: limit)
            finishes = passes.count < limit
            nextCursor = passes.last?.serialNumber ?? campaign.cursor
            let entry: TemplateLibrary.Entry?
            do {
                entry = try await issuer.templateEntry(named: name)
            } catch let error as IssuerError where error.status == .unprocessableContent {
                throw IssuerError.invalid("select.template: the template \"\(name)\" is gone")
            } catch let error as IssuerError where error.status == .internalServerError && request.action != .republishTemplate {
                // The folder no longer loads (an edit broke it): the passes are changed from the versions they are
                // pinned to, and the batch's first pass's version gives the pass type and the fields' defaults.
                if let first = passes.first { entry = try await issuer.templateEntry(for: first) } else { entry = nil }
            }
            passType = entry?.builder.passTypeIdentifier ?? ""
            if !fields.isEmpty {
                wantedFields = fields
                for field in entry.map({ Self.fieldValues(of: $0.builder.template.pass) }) ?? [] {
                    templateFields[field.key] = field.value
                }
            }
        case .serialNumbers(let type, let serials):
            passType = type
            let start = campaign.cursor.map { cursor in serials.partitioningIndex { $0 > cursor } } ?? 0
            let chunk = Array(serials[start..<min(serials.count, start + limit)])
            passes = chunk.isEmpty ? [] : try await store.campaignPasses(.serialNumbers(passTypeIdentifier: type, chunk), after: nil, limit: chunk.count)
            let found = Set(passes.map(\.serialNumber))
            missing = chunk.filter { !found.contains($0) }
            finishes = start + chunk.count >= serials.count
            nextCursor = chunk.last ?? campaign.cursor
        }
        passes = passes.filter { $0.passTypeIdentifier == passType }
        var changes: [CampaignPassChange] = []
        var failures = missing.map { CampaignFailure(serialNumber: $0, reason: "no such pass") }
        var matched = missing.count
        for pass in passes {
            switch request.action {
            case .unvoid: guard pass.voided else { continue }
            default: guard request.includeVoided || !pass.voided else { continue }
            }
            if !wantedFields.isEmpty {
                guard let document = try? PassIssuer.document(pass.data) else { continue }
                let own = document["fields"]?.objectValue ?? [:]
                let matches = wantedFields.allSatisfy { key, wanted in
                    Self.sameValue(own[key] ?? templateFields[key], wanted)
                }
                guard matches else { continue }
            }
            matched += 1
            do {
                if let refusal = issuer.refusal(passTypeIdentifier: pass.passTypeIdentifier) { throw refusal }
                var republishedVersion: String?
                if case .republishTemplate = request.action {
                    republishedVersion = try await issuer.currentTemplateVersion(named: pass.template)
                }
                // A pass its new version would not build for is left as it is and reported: never a version that
                // devices and links could not fetch.
                if let reason = try await misfit(pass, request: request, fits: fits) {
                    failures.append(CampaignFailure(serialNumber: pass.serialNumber, reason: reason))
                    continue
                }
                let changed = try change(pass, request: request, templateVersion: republishedVersion)
                // Nothing to change (voided already, the data as it is, on the current content already): selected,
                // but no new version and no push.
                if changed.data == nil, changed.voided.map({ $0 == pass.voided }) ?? true,
                   changed.templateVersion.map({ $0 == pass.templateVersion }) ?? true {
                    continue
                }
                changes.append(changed)
            } catch let error as PassStoreError {
                // The store failing (a lost connection, a pool timeout) is not the pass's fault: the batch is given
                // up and read again, rather than the pass reported failed and never tried again.
                throw error
            } catch where Task.isCancelled {
                throw CancellationError()
            } catch {
                failures.append(CampaignFailure(serialNumber: pass.serialNumber, reason: "\(error)"))
            }
        }
        return CampaignBatch(
            campaignID: campaign.id, expectedCursor: campaign.cursor, cursor: nextCursor, passTypeIdentifier: passType,
            changes: changes, matched: matched, failures: failures, finishes: finishes)
    }

    /// One pass's new version.
    /// - Parameters:
    ///   - pass: The pass as read.
    ///   - request: The campaign.
    ///   - templateVersion: For `republishTemplate`, its template's current version: the pass is built from it from now on.
    func change(_ pass: PassRecord, request: CampaignRequest, templateVersion: String?) throws -> CampaignPassChange {
        var document = try PassIssuer.document(pass.data)
        var voided: Bool?
        switch request.action {
        case .data(let patch): document = PassIssuer.merging(patch, into: document)
        case .republishTemplate: break
        case .void: voided = true
        case .unvoid: voided = false
        }
        if let message = request.message { document[PassIssuer.messageKey] = .string(message) }
        let data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
        return CampaignPassChange(
            serialNumber: pass.serialNumber, updateTag: pass.updateTag, data: data == pass.data ? nil : data, voided: voided,
            templateVersion: templateVersion, previous: pass)
    }

    static func fieldValues(of pass: Pass) -> [(key: String, value: JSONValue)] {
        [pass.boardingPass, pass.coupon, pass.eventTicket, pass.generic, pass.storeCard]
            .compactMap { $0 }.flatMap(\.allFields).compactMap { field in
                guard let key = field.key, let value = field.value else { return nil }
                switch value {
                case .string(let text): return (key, .string(text))
                case .integer(let number): return (key, .integer(number))
                case .number(let number): return (key, .number(number))
                }
            }
    }

    /// Field values compare as text, or as numbers when both are numbers.
    private static func sameValue(_ value: JSONValue?, _ wanted: JSONValue) -> Bool {
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .integer(let whole)?: Double(whole)
            case .number(let number)?: number
            default: nil
            }
        }
        // As the pass search compares them: text as text, and text against a number by its numeric value, so a value
        // given as text ("120", as the command line sends it) selects the passes whose field holds the number 120.
        if case .string(let expected) = wanted { return PassIssuer.sameValue(value, expected) }
        if case .string(let text)? = value, let b = number(wanted) { return Double(text) == b }
        guard let a = number(value), let b = number(wanted) else { return false }
        return a == b
    }
}

extension Array where Element: Comparable {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the sorted array.
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
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
