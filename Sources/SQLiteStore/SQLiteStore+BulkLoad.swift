public import Foundation
internal import GRDB
public import PassStore

/// A device's registration for a pass, as ``SQLiteStore/bulkLoad(passes:registrations:now:)`` takes it (and as one
/// waits for the writer with the others arriving at the same time).
public struct DeviceRegistration: Sendable, Equatable {
    /// The device.
    public var deviceLibraryIdentifier: String
    /// The device's APNs push token.
    public var pushToken: String
    /// The pass type.
    public var passTypeIdentifier: String
    /// The serial number.
    public var serialNumber: String

    /// Creates a registration.
    /// - Parameters:
    ///   - deviceLibraryIdentifier: The device.
    ///   - pushToken: The device's APNs push token.
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    public init(deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pushToken = pushToken
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
    }
}

extension SQLiteStore {
    /// Stores many passes and registrations in one transaction, with the same effect as calling
    /// ``insertPass(_:now:)`` and then ``register(deviceLibraryIdentifier:pushToken:passTypeIdentifier:serialNumber:now:)``
    /// for each, but without one commit per row: for seeding benchmarks and imports.
    /// - Parameters:
    ///   - passes: The passes to create (each gets its own update tag, in order).
    ///   - registrations: Registrations of devices for those passes or for passes already stored.
    ///   - now: The creation and registration time.
    /// - Throws: The first error of a single call (duplicate pass, unknown pass); nothing is stored then.
    public func bulkLoad(passes: [NewPass], registrations: [DeviceRegistration], now: Date) async throws {
        try await write { [tables] db in
            for pass in passes {
                _ = try Self.insertPass(pass, now: now, tables, db)
            }
            for registration in registrations {
                _ = try Self.register(
                    deviceLibraryIdentifier: registration.deviceLibraryIdentifier, pushToken: registration.pushToken,
                    passTypeIdentifier: registration.passTypeIdentifier, serialNumber: registration.serialNumber,
                    now: now, tables, db
                )
            }
        }
    }
}
