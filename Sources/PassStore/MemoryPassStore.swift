public import Foundation

/// A ``PassStore`` in memory, for tests and trials: nothing survives the process.
public actor MemoryPassStore: PassStore, CampaignStore, TemplateVersionStore, EventStore, RedemptionStore,
    AnalyticsStore
{
    struct PassKey: Hashable {
        var passTypeIdentifier: String
        var serialNumber: String
    }

    private struct Device {
        var pushToken: String
        var updatedAt: Date
        var passes: Set<PassKey>
    }

    struct QueuedPush {
        var push: PendingPush
        var notBefore: Date
        var claimedUntil: Date?
    }

    var passes: [PassKey: PassRecord] = [:]
    private var downloadTokens: [String: PassKey] = [:]
    private var devices: [String: Device] = [:]
    var queue: [Int64: QueuedPush] = [:]
    private var lastTag: Int64 = 0
    private var lastPushID: Int64 = 0
    private var campaignsByID: [String: CampaignRecord] = [:]
    private var campaignKeys: [String: String] = [:]
    /// The pushes each campaign owes, by push token and pass type.
    var campaignPushes: [String: [String: CampaignPushState]] = [:]
    private var lastCampaignSequence: Int64 = 0
    /// Template contents by name and version.
    private var templateContents: [String: [String: Data]] = [:]
    /// The kind of item held, for the events' names.
    let kind: WalletItemKind
    /// The event log, in id order.
    var eventLog: [WalletEvent] = []
    var lastEventNumber: Int64 = 0
    /// Every scan, in order.
    var scans: [MemoryScan] = []
    var apiKeyRecords: [(record: APIKeyRecord, revokedAt: Date?)] = []
    /// Analytics rollups, the registration mirror and the fold's cursor.
    var analytics = MemoryAnalytics()
    /// Webhook endpoints' delivery cursors and leases.
    var webhookDeliveries: [String: MemoryWebhookDelivery] = [:]
    var googleCallbacks: [String: GoogleCallbackRecord] = [:]
    var consoleSessions: [Data: ConsoleSessionRecord] = [:]
    var webhookAttempts: [WebhookAttempt] = []
    var webhookRetryRequests: [String: Date] = [:]

    /// Creates an empty store.
    /// - Parameter kind: What it holds: passes, or orders (the events say `order.*`).
    public init(kind: WalletItemKind = .pass) {
        self.kind = kind
    }

    public func migrate() async throws {}

    public func insertPass(_ new: NewPass, now: Date) async throws -> PassRecord {
        let key = PassKey(passTypeIdentifier: new.passTypeIdentifier, serialNumber: new.serialNumber)
        guard passes[key] == nil else {
            throw PassStoreError.duplicatePass(passTypeIdentifier: new.passTypeIdentifier, serialNumber: new.serialNumber)
        }
        guard downloadTokens[new.downloadToken] == nil else {
            throw PassStoreError.invalidData("download token already in use")
        }
        lastTag += 1
        let record = PassRecord(
            passTypeIdentifier: new.passTypeIdentifier, serialNumber: new.serialNumber,
            authenticationToken: new.authenticationToken, template: new.template, data: new.data,
            downloadToken: new.downloadToken, updateTag: lastTag, lastModified: now.wholeSeconds,
            createdAt: now.wholeSeconds, templateVersion: new.templateVersion
        )
        passes[key] = record
        downloadTokens[new.downloadToken] = key
        log([.created(kind, record: record)], now: now)
        return record
    }

    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> PassRecord? {
        passes[PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)]
    }

    public func pass(downloadToken: String) async throws -> PassRecord? {
        downloadTokens[downloadToken].flatMap { passes[$0] }
    }

    public func updatePass(passTypeIdentifier: String, serialNumber: String, change: PassChange, now: Date)
        async throws -> PassUpdate?
    {
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        guard var record = passes[key], !(change.onlyIfNotPersonalized && record.personalization != nil),
              change.onlyIfUpdateTag.map({ $0 == record.updateTag }) ?? true
        else { return nil }
        let before = record
        lastTag += 1
        if let data = change.data { record.data = data }
        if let voided = change.voided { record.voided = voided }
        if let personalization = change.personalization { record.personalization = personalization }
        if let version = change.templateVersion { record.templateVersion = version }
        record.updateTag = lastTag
        record.lastModified = max(now.wholeSeconds, record.lastModified.addingTimeInterval(1))
        log(WalletEventDraft.change(kind, before: before, after: record, campaign: nil), now: now)
        passes[key] = record

        let tokens = Set(devices.values.filter { $0.passes.contains(key) }.map(\.pushToken))
        var queued = 0
        for token in tokens.sorted() where queuePush(token: token, passTypeIdentifier: passTypeIdentifier, now: now) {
            queued += 1
        }
        return PassUpdate(pass: record, pushesQueued: queued)
    }

    /// Queues a push, or bumps the queued one's generation. - Returns: Whether a new entry was queued.
    func queuePush(token: String, passTypeIdentifier: String, now: Date) -> Bool {
        if let id = queue.first(where: {
            $0.value.push.pushToken == token && $0.value.push.passTypeIdentifier == passTypeIdentifier
        })?.key {
            queue[id]?.push.generation += 1
            queue[id]?.push.queuedAt = now  // the new change's own day of tries
            return false
        }
        lastPushID += 1
        let push = PendingPush(
            id: lastPushID, pushToken: token, passTypeIdentifier: passTypeIdentifier, generation: 1, attempts: 0,
            queuedAt: now
        )
        queue[lastPushID] = QueuedPush(push: push, notBefore: now, claimedUntil: nil)
        return true
    }

    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date
    ) async throws -> RegistrationOutcome {
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        guard passes[key] != nil else {
            throw PassStoreError.passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        }
        var device = devices[deviceLibraryIdentifier] ?? Device(pushToken: pushToken, updatedAt: now, passes: [])
        if device.pushToken != pushToken {
            let shared = devices.contains { $0.key != deviceLibraryIdentifier && $0.value.pushToken == device.pushToken }
            movePushes(from: device.pushToken, to: pushToken, shared: shared, now: now)
        }
        device.pushToken = pushToken
        device.updatedAt = now
        let (inserted, _) = device.passes.insert(key)
        devices[deviceLibraryIdentifier] = device
        if inserted {
            log([.registered(kind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                                deviceLibraryIdentifier: deviceLibraryIdentifier)], now: now)
        }
        return inserted ? .created : .updated
    }

    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String)
        async throws -> Bool
    {
        guard var device = devices[deviceLibraryIdentifier] else { return false }
        let removed = device.passes.remove(PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber))
        devices[deviceLibraryIdentifier] = device.passes.isEmpty ? nil : device
        if removed != nil {
            log([.unregistered(kind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                                  deviceLibraryIdentifier: deviceLibraryIdentifier, reason: "unregistered")], now: Date())
        }
        return removed != nil
    }

    public func serialNumbers(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?)
        async throws -> SerialNumberList?
    {
        guard let device = devices[deviceLibraryIdentifier] else { return nil }
        let changed = device.passes
            .filter { $0.passTypeIdentifier == passTypeIdentifier }
            .compactMap { passes[$0] }
            .filter { $0.updateTag > (updatedSince ?? Int64.min) }
            .sorted { $0.updateTag < $1.updateTag }
        guard let last = changed.last else { return nil }
        return SerialNumberList(serialNumbers: changed.map(\.serialNumber), lastUpdated: last.updateTag)
    }

    public func registrationCount(passTypeIdentifier: String, serialNumber: String) async throws -> Int {
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        return devices.values.filter { $0.passes.contains(key) }.count
    }

    public func claimPushes(limit: Int, now: Date, lease: TimeInterval) async throws -> [PendingPush] {
        let due = queue.values
            .filter { $0.notBefore <= now && ($0.claimedUntil.map { $0 <= now } ?? true) }
            .sorted { $0.push.id < $1.push.id }
            .prefix(limit)
        let until = now.addingTimeInterval(lease)
        for entry in due { queue[entry.push.id]?.claimedUntil = until }
        return due.map { entry in
            var push = entry.push
            push.claimedUntil = until
            return push
        }
    }

    public func completePush(_ push: PendingPush) async throws {
        guard let entry = queue[push.id] else { return }
        if entry.push.generation == push.generation {
            queue[push.id] = nil
            // The push covers every campaign that owed this device one (not a released one: the change that bumped
            // it is still to be pushed).
            let pushKey = push.pushToken + "\u{0}" + push.passTypeIdentifier
            for id in campaignPushes.keys where campaignPushes[id]?[pushKey] == .queued { campaignPushes[id]?[pushKey] = .sent }
        } else if Self.holds(push, entry) {
            queue[push.id]?.claimedUntil = nil
        }
    }

    /// Whether the entry's claim is still the one that read `push` (see ``PendingPush/claimedUntil``).
    private static func holds(_ push: PendingPush, _ entry: QueuedPush) -> Bool {
        guard let claim = push.claimedUntil else { return true }
        guard let current = entry.claimedUntil else { return false }
        return abs(current.timeIntervalSince(claim)) <= 0.001
    }

    public func retryPush(_ push: PendingPush, notBefore: Date) async throws {
        guard let entry = queue[push.id], Self.holds(push, entry) else { return }
        if entry.push.generation == push.generation {
            queue[push.id]?.push.attempts += 1
            queue[push.id]?.notBefore = notBefore
        }
        queue[push.id]?.claimedUntil = nil
    }

    public func removeRegistrations(pushToken: String, passTypeIdentifier: String, unlessRefreshedAfter: Date?)
        async throws -> Int
    {
        var removed = 0
        for (identifier, var device) in devices where device.pushToken == pushToken {
            if let cutoff = unlessRefreshedAfter, device.updatedAt > cutoff { continue }
            let gone = device.passes.filter { $0.passTypeIdentifier == passTypeIdentifier }
            device.passes.subtract(gone)
            removed += gone.count
            devices[identifier] = device.passes.isEmpty ? nil : device
            log(gone.sorted { $0.serialNumber < $1.serialNumber }.map {
                .unregistered(kind, typeIdentifier: $0.passTypeIdentifier, identifier: $0.serialNumber,
                              deviceLibraryIdentifier: identifier, reason: "pushTokenInvalid")
            }, now: Date())
        }
        return removed
    }

    // MARK: Campaigns

    public func insertCampaign(_ campaign: NewCampaign, now: Date) async throws -> (campaign: CampaignRecord, inserted: Bool) {
        if let key = campaign.idempotencyKey, let id = campaignKeys[key], let existing = campaignsByID[id] {
            return (withSent(existing), false)
        }
        guard campaignsByID[campaign.id] == nil else { throw PassStoreError.invalidData("campaign \(campaign.id) exists") }
        lastCampaignSequence += 1
        let record = CampaignRecord(
            id: campaign.id, sequence: lastCampaignSequence, specification: campaign.specification,
            requestHash: campaign.requestHash, idempotencyKey: campaign.idempotencyKey, state: .scheduled,
            createdAt: now, scheduledAt: campaign.scheduledAt)
        campaignsByID[campaign.id] = record
        if let key = campaign.idempotencyKey { campaignKeys[key] = campaign.id }
        return (record, true)
    }

    public func campaign(idempotencyKey: String) async throws -> CampaignRecord? {
        campaignKeys[idempotencyKey].flatMap { campaignsByID[$0] }.map(withSent)
    }

    public func campaign(id: String) async throws -> CampaignRecord? {
        campaignsByID[id].map(withSent)
    }

    public func campaigns(state: CampaignState?, limit: Int, beforeSequence: Int64?) async throws -> [CampaignRecord] {
        Array(campaignsByID.values
            .filter { record in
                (state == nil || record.state == state) && (beforeSequence.map { record.sequence < $0 } ?? true)
            }
            .sorted { $0.sequence > $1.sequence }
            .prefix(max(0, limit))
            .map { Self.listed(withSent($0)) })
    }

    public func cancelCampaign(id: String, now: Date) async throws -> CampaignRecord? {
        guard var record = campaignsByID[id] else { return nil }
        if !record.state.isFinal {
            record.state = .cancelled
            record.finishedAt = now
            campaignsByID[id] = record
            log([.campaignFinished(withSent(record))], now: now)
        }
        return withSent(record)
    }

    public func startDueCampaigns(now: Date) async throws -> [CampaignRecord] {
        for (id, record) in campaignsByID where record.state == .scheduled && (record.scheduledAt ?? now) <= now {
            campaignsByID[id]?.state = .running
            campaignsByID[id]?.startedAt = now
        }
        return campaignsByID.values.filter { $0.state == .running }.sorted { $0.sequence < $1.sequence }.map(withSent)
    }

    public func nextScheduledCampaign() async throws -> Date? {
        // One without a time is due at once (as the SQL stores answer: the Unix epoch).
        campaignsByID.values.filter { $0.state == .scheduled }
            .map { $0.scheduledAt ?? Date(timeIntervalSince1970: 0) }.min()
    }

    public func failCampaign(id: String, reason: String, now: Date) async throws {
        guard var record = campaignsByID[id], !record.state.isFinal else { return }
        record.state = .failed
        record.finishedAt = now
        record.errors = CampaignRecord.errors(record.errors, failedBecause: reason)
        campaignsByID[id] = record
        log([.campaignFinished(withSent(record))], now: now)
    }

    public func campaignPasses(_ selection: CampaignPassSelection, after cursor: String?, limit: Int) async throws -> [PassRecord] {
        let candidates: [PassRecord]
        switch selection {
        case .template(let name):
            candidates = passes.values.filter { $0.template == name }
        case .serialNumbers(let passTypeIdentifier, let serials):
            candidates = Set(serials).compactMap { passes[PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: $0)] }
        }
        return Array(candidates.filter { cursor == nil || $0.serialNumber > cursor! }
            .sorted { $0.serialNumber < $1.serialNumber }.prefix(max(0, limit)))
    }

    public func writeCampaignBatch(_ batch: CampaignBatch, now: Date) async throws -> CampaignBatchOutcome {
        guard var record = campaignsByID[batch.campaignID], record.state == .running, record.cursor == batch.expectedCursor
        else { return .cursorMoved }
        for change in batch.changes {
            let key = PassKey(passTypeIdentifier: batch.passTypeIdentifier, serialNumber: change.serialNumber)
            guard passes[key]?.updateTag == change.updateTag else { return .passChanged }
        }
        var queued = 0
        var owed = campaignPushes[batch.campaignID] ?? [:]
        for change in batch.changes {
            let key = PassKey(passTypeIdentifier: batch.passTypeIdentifier, serialNumber: change.serialNumber)
            guard var pass = passes[key] else { continue }
            lastTag += 1
            if let data = change.data { pass.data = data }
            if let voided = change.voided { pass.voided = voided }
            if let version = change.templateVersion { pass.templateVersion = version }
            pass.updateTag = lastTag
            pass.lastModified = max(now.wholeSeconds, pass.lastModified.addingTimeInterval(1))
            passes[key] = pass
            log(change.events(campaign: batch.campaignID, newUpdateTag: lastTag), now: now)
            for token in Set(devices.values.filter { $0.passes.contains(key) }.map(\.pushToken)).sorted() {
                let pushKey = token + "\u{0}" + batch.passTypeIdentifier
                guard owed[pushKey] == nil else { continue }
                owed[pushKey] = .held
                queued += 1
            }
        }
        campaignPushes[batch.campaignID] = owed
        record.cursor = batch.cursor
        record.matched += batch.matched
        record.changed += batch.changes.count
        record.failed += batch.failures.count
        record.errors += batch.failures.prefix(max(0, CampaignRecord.keptErrors - record.errors.count))
        record.pushesQueued += queued
        if batch.finishes {
            record.state = .done
            record.finishedAt = now
        }
        campaignsByID[batch.campaignID] = record
        if batch.finishes { log([.campaignFinished(withSent(record))], now: now) }
        return .written(withSent(record))
    }

    public func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int {
        // One campaign per call, the oldest ended one holding any, as the SQL stores release them.
        let ended = campaignsByID.values.filter { $0.state.isFinal }.sorted { $0.sequence < $1.sequence }
        guard let campaign = ended.first(where: { campaignPushes[$0.id]?.values.contains(.held) == true }) else { return 0 }
        let held = (campaignPushes[campaign.id] ?? [:]).filter { $0.value == .held }.keys.sorted().prefix(max(1, limit))
        for pushKey in held {
            let parts = pushKey.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            _ = queuePush(token: parts[0], passTypeIdentifier: parts[1], now: now)
            campaignPushes[campaign.id]?[pushKey] = .queued
        }
        return held.count
    }

    private func withSent(_ record: CampaignRecord) -> CampaignRecord {
        var record = record
        record.pushesSent = campaignPushes[record.id]?.values.filter { $0 == .sent }.count ?? 0
        return record
    }

    public func saveTemplateVersion(name: String, version: String, content: Data, now: Date) async throws -> Int {
        if templateContents[name]?[version] == nil { templateContents[name, default: [:]][version] = content }
        var pinned = 0
        for (key, pass) in passes where pass.template == name && pass.templateVersion == nil {
            passes[key]?.templateVersion = version
            pinned += 1
        }
        return pinned
    }

    public func templateVersionContent(name: String, version: String) async throws -> Data? {
        templateContents[name]?[version]
    }
}

/// Where a push a campaign owes a device is: held until the campaign ends, then queued, then sent.
enum CampaignPushState {
    case held, queued, sent
}
