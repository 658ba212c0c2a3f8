public import Foundation

/// A ``PassStore`` in memory, for tests and trials: nothing survives the process.
public actor MemoryPassStore: PassStore {
    private struct PassKey: Hashable {
        var passTypeIdentifier: String
        var serialNumber: String
    }

    private struct Device {
        var pushToken: String
        var updatedAt: Date
        var passes: Set<PassKey>
    }

    private struct QueuedPush {
        var push: PendingPush
        var notBefore: Date
        var claimedUntil: Date?
    }

    private var passes: [PassKey: PassRecord] = [:]
    private var downloadTokens: [String: PassKey] = [:]
    private var devices: [String: Device] = [:]
    private var queue: [Int64: QueuedPush] = [:]
    private var lastTag: Int64 = 0
    private var lastPushID: Int64 = 0

    /// Creates an empty store.
    public init() {}

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
            createdAt: now.wholeSeconds
        )
        passes[key] = record
        downloadTokens[new.downloadToken] = key
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
        lastTag += 1
        if let data = change.data { record.data = data }
        if let voided = change.voided { record.voided = voided }
        if let personalization = change.personalization { record.personalization = personalization }
        record.updateTag = lastTag
        record.lastModified = max(now.wholeSeconds, record.lastModified.addingTimeInterval(1))
        passes[key] = record

        let tokens = Set(devices.values.filter { $0.passes.contains(key) }.map(\.pushToken))
        var queued = 0
        for token in tokens.sorted() {
            if let id = queue.first(where: {
                $0.value.push.pushToken == token && $0.value.push.passTypeIdentifier == passTypeIdentifier
            })?.key {
                queue[id]?.push.generation += 1
                continue
            }
            lastPushID += 1
            let push = PendingPush(
                id: lastPushID, pushToken: token, passTypeIdentifier: passTypeIdentifier, generation: 1, attempts: 0,
                queuedAt: now
            )
            queue[lastPushID] = QueuedPush(push: push, notBefore: now, claimedUntil: nil)
            queued += 1
        }
        return PassUpdate(pass: record, pushesQueued: queued)
    }

    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date
    ) async throws -> RegistrationOutcome {
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        guard passes[key] != nil else {
            throw PassStoreError.passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        }
        var device = devices[deviceLibraryIdentifier] ?? Device(pushToken: pushToken, updatedAt: now, passes: [])
        device.pushToken = pushToken
        device.updatedAt = now
        let (inserted, _) = device.passes.insert(key)
        devices[deviceLibraryIdentifier] = device
        return inserted ? .created : .updated
    }

    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String)
        async throws -> Bool
    {
        guard var device = devices[deviceLibraryIdentifier] else { return false }
        let removed = device.passes.remove(PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber))
        devices[deviceLibraryIdentifier] = device.passes.isEmpty ? nil : device
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
        for entry in due { queue[entry.push.id]?.claimedUntil = now.addingTimeInterval(lease) }
        return due.map(\.push)
    }

    public func completePush(_ push: PendingPush) async throws {
        guard let entry = queue[push.id] else { return }
        if entry.push.generation == push.generation {
            queue[push.id] = nil
        } else {
            queue[push.id]?.claimedUntil = nil
        }
    }

    public func retryPush(_ push: PendingPush, notBefore: Date) async throws {
        guard queue[push.id] != nil else { return }
        queue[push.id]?.push.attempts += 1
        queue[push.id]?.notBefore = notBefore
        queue[push.id]?.claimedUntil = nil
    }

    public func removeRegistrations(pushToken: String, passTypeIdentifier: String, unlessRefreshedAfter: Date?)
        async throws -> Int
    {
        var removed = 0
        for (identifier, var device) in devices where device.pushToken == pushToken {
            if let cutoff = unlessRefreshedAfter, device.updatedAt > cutoff { continue }
            let before = device.passes.count
            device.passes = device.passes.filter { $0.passTypeIdentifier != passTypeIdentifier }
            removed += before - device.passes.count
            devices[identifier] = device.passes.isEmpty ? nil : device
        }
        return removed
    }
}
