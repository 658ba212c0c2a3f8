public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore {
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
        let event = WalletEventDraft.registered(
            itemKind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
            deviceLibraryIdentifier: deviceLibraryIdentifier)
        let rows = holdsOrders
            ? try await rows(Register<OrderKind>(
                deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now, event: event))
            : try await rows(Register<PassKind>(
                deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now, event: event))
        guard let (passExists, created) = rows.first, passExists else {
            throw PassStoreError.passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        }
        return created ? .created : .updated
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
        try await transaction { connection in
            // Lock the device first: a registration committed meanwhile is then seen by the orphan check.
            let device = try await connection.query("""
                SELECT 1 FROM \(unescaped: tables.devices) WHERE device_library_identifier = \(deviceLibraryIdentifier) FOR UPDATE
                """, logger: logger).collect()
            guard !device.isEmpty else { return false }
            let deleted = try await connection.query("""
                DELETE FROM \(unescaped: tables.registrations) WHERE device_library_identifier = \(deviceLibraryIdentifier)
                AND pass_type_identifier = \(passTypeIdentifier) AND serial_number = \(serialNumber)
                RETURNING 1
                """, logger: logger).collect()
            _ = try await connection.query("""
                DELETE FROM \(unescaped: tables.devices) WHERE device_library_identifier = \(deviceLibraryIdentifier)
                AND NOT EXISTS (SELECT 1 FROM \(unescaped: tables.registrations) WHERE device_library_identifier = \(deviceLibraryIdentifier))
                """, logger: logger).collect()
            if !deleted.isEmpty {
                try await record([.unregistered(
                    itemKind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                    deviceLibraryIdentifier: deviceLibraryIdentifier, reason: "unregistered")], now: Date(), connection)
            }
            return !deleted.isEmpty
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
        let rows = holdsOrders
            ? try await rows(ChangedSerialNumbers<OrderKind>(
                deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier,
                updatedSince: updatedSince ?? Int64.min))
            : try await rows(ChangedSerialNumbers<PassKind>(
                deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier,
                updatedSince: updatedSince ?? Int64.min))
        var serialNumbers: [String] = []
        var lastUpdated = Int64.min
        for (serialNumber, tag) in rows {
            serialNumbers.append(serialNumber)
            lastUpdated = max(lastUpdated, tag)
        }
        return serialNumbers.isEmpty ? nil : SerialNumberList(serialNumbers: serialNumbers, lastUpdated: lastUpdated)
    }

    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: How many devices are registered for the pass.
    public func registrationCount(passTypeIdentifier: String, serialNumber: String) async throws -> Int {
        let rows = try await rows("""
            SELECT COUNT(*) FROM \(unescaped: tables.registrations)
            WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = \(serialNumber)
            """)
        return try rows.first.map { Int(try $0.decode(Int64.self)) } ?? 0
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
        try await transaction { connection in
            // Lock the devices first, as unregister does.
            let devices = try await connection.query("""
                SELECT device_library_identifier FROM \(unescaped: tables.devices) WHERE push_token = \(pushToken)
                AND (\(unlessRefreshedAfter)::timestamptz IS NULL OR updated_at <= \(unlessRefreshedAfter))
                FOR UPDATE
                """, logger: logger).collect().map { try $0.decode(String.self) }
            guard !devices.isEmpty else { return 0 }
            let deleted = try await connection.query("""
                DELETE FROM \(unescaped: tables.registrations) WHERE pass_type_identifier = \(passTypeIdentifier)
                AND device_library_identifier = ANY(\(devices)) RETURNING device_library_identifier, serial_number
                """, logger: logger).collect().map { try $0.decode((String, String).self) }
            _ = try await connection.query("""
                DELETE FROM \(unescaped: tables.devices) d WHERE d.device_library_identifier = ANY(\(devices)) AND NOT EXISTS (
                    SELECT 1 FROM \(unescaped: tables.registrations) r WHERE r.device_library_identifier = d.device_library_identifier
                )
                """, logger: logger).collect()
            try await record(deleted.map { device, serialNumber in
                .unregistered(itemKind, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                              deviceLibraryIdentifier: device, reason: "pushTokenInvalid")
            }, now: Date(), connection)
            return deleted.count
        }
    }
}
