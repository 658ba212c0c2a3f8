public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore {
    /// Registers a device for a pass's updates, or updates its push token when already registered.
    /// - Parameters:
    ///   - deviceLibraryIdentifier: The device.
    ///   - pushToken: The device's APNs push token (any length).
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    ///   - now: The time of the registration.
    /// - Throws: ``PassStore/PassStoreError/passNotFound(passTypeIdentifier:serialNumber:)`` when there is no such pass.
    /// - Returns: Whether the registration is new.
    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date
    ) async throws -> RegistrationOutcome {
        try await registrationWrites.write(RegistrationWrite(
            DeviceRegistration(deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
                               passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber),
            now: now, kind: tables.itemKind, authenticate: nil)).outcome
    }

    /// Registers a device when `authenticate` accepts the pass's token, checked by the writer in the registration's
    /// own transaction: no read connection is taken, and none of SQLite's pages is read again by one (a reader's
    /// cache is dropped whenever another connection has committed, so under registrations every read starts cold).
    /// A missing pass is checked against a stand-in pass's token read in its place, in the same time.
    /// - Returns: Whether the registration is new, or `nil` (nothing written) when there is no such pass or
    ///   `authenticate` refused its token.
    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date,
        authenticate: @escaping @Sendable (String) -> Bool
    ) async throws -> RegistrationOutcome? {
        do {
            return try await registrationWrites.write(RegistrationWrite(
                DeviceRegistration(deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
                                   passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber),
                now: now, kind: tables.itemKind, authenticate: authenticate)).outcome
        } catch let error as PassStoreError
            where error == .passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        {
            return nil
        }
    }

    /// One device registration waiting for the writer, with its time and the event it records if new.
    struct RegistrationWrite: Sendable {
        var registration: DeviceRegistration
        var now: Date
        var event: WalletEventDraft
        /// Checks the pass's token before anything is written (the device endpoints' credential); `nil` for callers
        /// that checked it already.
        var authenticate: (@Sendable (String) -> Bool)?

        /// The event (its device hash) is made here, before the write, so SQLite's one writer does not wait on it.
        init(_ registration: DeviceRegistration, now: Date, kind: WalletItemKind,
             authenticate: (@Sendable (String) -> Bool)?) {
            self.registration = registration
            self.now = now
            self.authenticate = authenticate
            event = .registered(kind, typeIdentifier: registration.passTypeIdentifier,
                                identifier: registration.serialNumber,
                                deviceLibraryIdentifier: registration.deviceLibraryIdentifier)
        }
    }

    /// What writing one registration did, and its pass's template for the event the batch records when it is new.
    struct RegistrationWritten: Sendable {
        var outcome: RegistrationOutcome
        var template: String
    }

    /// Registrations that arrive while one is being written are written together (many devices registering at once
    /// share one transaction of SQLite's one writer); each is answered after its transaction commits. The new ones'
    /// events are recorded together at the end of the batch: one check of the analytics fold's cursor, one change
    /// of each hour's rollup and one move of the cursor per batch, not per registration.
    static func registrationWrites(_ pool: DatabasePool, _ tables: Tables)
        -> WriteBatcher<RegistrationWrite, RegistrationWritten>
    {
        // A registration's one refusal, an unknown pass, comes before it writes: no savepoint per registration.
        WriteBatcher(pool: pool, isolation: .refusalsBeforeWrites, apply: { write, db in
            let registration = write.registration
            return try writeRegistration(
                deviceLibraryIdentifier: registration.deviceLibraryIdentifier, pushToken: registration.pushToken,
                passTypeIdentifier: registration.passTypeIdentifier, serialNumber: registration.serialNumber,
                now: write.now, authenticate: write.authenticate, tables, db)
        }, finish: { writes, outcomes, db in
            var events: [RecordedEvent] = []
            for (write, outcome) in zip(writes, outcomes) {
                guard case .success(let written) = outcome, written.outcome == .created else { continue }
                events.append(RecordedEvent(draft: write.event, now: write.now, template: written.template,
                                            deviceLibraryIdentifier: write.registration.deviceLibraryIdentifier))
            }
            try record(events, db)
        })
    }

    /// - Parameter event: The `*.registered` event to record when the registration is new (made by the caller when
    ///   it can be made outside the transaction; otherwise here).
    static func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date,
        event: WalletEventDraft? = nil, _ tables: Tables, _ db: Database
    ) throws -> RegistrationOutcome {
        let written = try writeRegistration(
            deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now, tables, db)
        guard written.outcome == .created else { return written.outcome }
        let draft = event ?? .registered(tables.itemKind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                                         deviceLibraryIdentifier: deviceLibraryIdentifier)
        try record([RecordedEvent(draft: draft, now: now, template: written.template,
                                  deviceLibraryIdentifier: deviceLibraryIdentifier)], db)
        return .created
    }

    /// Writes the device and its registration, recording no event (the caller records the `*.registered` event
    /// when the registration is new).
    /// - Throws: ``PassStore/PassStoreError/passNotFound(passTypeIdentifier:serialNumber:)``, before anything is
    ///   written, when there is no such pass.
    /// - Parameter authenticate: When given, the pass's token must satisfy it (checked against a stand-in's when
    ///   there is no pass, so both cost the same); a refusal throws `passNotFound` before anything is written.
    private static func writeRegistration(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date,
        authenticate: (@Sendable (String) -> Bool)? = nil, _ tables: Tables, _ db: Database
    ) throws -> RegistrationWritten {
        let template: String
        if let authenticate {
            let item = try db.cachedStatement(sql: tables.itemTemplateForAuthentication)
            let row = try Row.fetchOne(item, arguments: [passTypeIdentifier, serialNumber])
            let accepted = authenticate(row?[2] ?? PassLookup.standInToken)
            guard let row, (row[0] as Int64) == 1, accepted else {
                throw PassStoreError.passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
            }
            template = row[1]
        } else {
            let item = try db.cachedStatement(sql: tables.itemTemplate)
            guard let found = try String.fetchOne(item, arguments: [passTypeIdentifier, serialNumber]) else {
                throw PassStoreError.passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
            }
            template = found
        }
        let replaced = try String.fetchOne(
            try db.cachedStatement(sql: tables.replacedPushToken), arguments: [deviceLibraryIdentifier, pushToken])
        let device = try db.cachedStatement(sql: tables.upsertDevice)
        try device.execute(arguments: [deviceLibraryIdentifier, pushToken, now.timeIntervalSince1970])
        if let replaced { try movePushes(from: replaced, to: pushToken, now: now, tables, db) }
        let registration = try db.cachedStatement(sql: tables.insertRegistration)
        try registration.execute(arguments: [
            deviceLibraryIdentifier, passTypeIdentifier, serialNumber, now.timeIntervalSince1970,
        ])
        return RegistrationWritten(outcome: db.changesCount == 1 ? .created : .updated, template: template)
    }

    /// Removes a registration; a device left with none is removed too.
    /// - Parameters:
    ///   - deviceLibraryIdentifier: The device.
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: Whether the registration existed.
    @discardableResult
    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String)
        async throws -> Bool
    {
        try await write { [tables] db in
            let delete = try db.cachedStatement(sql: """
                DELETE FROM \(tables.registrations)
                WHERE device_library_identifier = ? AND pass_type_identifier = ? AND serial_number = ?
                """)
            try delete.execute(arguments: [deviceLibraryIdentifier, passTypeIdentifier, serialNumber])
            let removed = db.changesCount > 0
            if removed {
                let draft = WalletEventDraft.unregistered(
                    tables.itemKind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                    deviceLibraryIdentifier: deviceLibraryIdentifier, reason: "unregistered")
                try Self.record([RecordedEvent(draft: draft, now: Date(), deviceLibraryIdentifier: deviceLibraryIdentifier)],
                                db)
            }
            let orphan = try db.cachedStatement(sql: """
                DELETE FROM \(tables.devices) WHERE device_library_identifier = ?1
                AND NOT EXISTS (SELECT 1 FROM \(tables.registrations) WHERE device_library_identifier = ?1)
                """)
            try orphan.execute(arguments: [deviceLibraryIdentifier])
            return removed
        }
    }

    /// The passes of a type registered on a device that changed after a tag.
    /// - Parameters:
    ///   - deviceLibraryIdentifier: The device.
    ///   - passTypeIdentifier: The pass type.
    ///   - updatedSince: The tag the device last saw, or `nil` for all of its passes.
    /// - Returns: The serial numbers in update order and the greatest tag among them, or `nil` when there are none.
    public func serialNumbers(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?)
        async throws -> SerialNumberList?
    {
        try await read { [tables] db in
            let statement = try db.cachedStatement(sql: tables.changedItems)
            let arguments: StatementArguments = [deviceLibraryIdentifier, passTypeIdentifier, updatedSince ?? Int64.min]
            var serialNumbers: [String] = []
            var lastUpdated = Int64.min
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                serialNumbers.append(row[0])
                lastUpdated = max(lastUpdated, row[1])
            }
            return serialNumbers.isEmpty ? nil : SerialNumberList(serialNumbers: serialNumbers, lastUpdated: lastUpdated)
        }
    }

    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: How many devices are registered for the pass.
    public func registrationCount(passTypeIdentifier: String, serialNumber: String) async throws -> Int {
        try await read { [tables] db in
            let statement = try db.cachedStatement(
                sql: "SELECT COUNT(*) FROM \(tables.registrations) WHERE pass_type_identifier = ? AND serial_number = ?"
            )
            return try Int.fetchOne(statement, arguments: [passTypeIdentifier, serialNumber]) ?? 0
        }
    }

    /// Deletes a push token's registrations for a pass type, sparing devices that registered after a cutoff.
    /// - Parameters:
    ///   - pushToken: The push token APNs rejected.
    ///   - passTypeIdentifier: The pass type.
    ///   - unlessRefreshedAfter: Devices updated after this time keep their registrations (`nil`: none do).
    /// - Returns: How many registrations were deleted.
    @discardableResult
    public func removeRegistrations(pushToken: String, passTypeIdentifier: String, unlessRefreshedAfter: Date?)
        async throws -> Int
    {
        try await write { [tables] db in
            let delete = try db.cachedStatement(sql: """
                DELETE FROM \(tables.registrations) WHERE pass_type_identifier = ?2 AND device_library_identifier IN (
                    SELECT device_library_identifier FROM \(tables.devices)
                    WHERE push_token = ?1 AND (?3 IS NULL OR updated_at <= ?3)
                )
                RETURNING device_library_identifier, serial_number
                """)
            let gone = try Row.fetchAll(delete, arguments: [
                pushToken, passTypeIdentifier, unlessRefreshedAfter?.timeIntervalSince1970,
            ])
            let removed = gone.count
            let now = Date()
            try Self.record(gone.map { row in
                let device: String = row[0]
                return RecordedEvent(
                    draft: .unregistered(tables.itemKind, typeIdentifier: passTypeIdentifier, identifier: row[1],
                                         deviceLibraryIdentifier: device, reason: "pushTokenInvalid"),
                    now: now, deviceLibraryIdentifier: device)
            }, db)
            let orphans = try db.cachedStatement(sql: """
                DELETE FROM \(tables.devices) WHERE push_token = ? AND NOT EXISTS (
                    SELECT 1 FROM \(tables.registrations) r
                    WHERE r.device_library_identifier = \(tables.devices).device_library_identifier
                )
                """)
            try orphans.execute(arguments: [pushToken])
            return removed
        }
    }
}
