import Foundation
import PassStore

/// Test data shared by the suites.
enum Fixtures {
    static let passType = "pass.com.example.tickets"
    static let otherPassType = "pass.com.example.coupons"
    /// A whole-second time, so every store keeps it exactly.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func newPass(_ serialNumber: String, passType: String = passType) -> NewPass {
        NewPass(
            passTypeIdentifier: passType, serialNumber: serialNumber, authenticationToken: "auth-\(serialNumber)-0123456789",
            template: "event", data: Data(#"{"seat":"\#(serialNumber)"}"#.utf8),
            downloadToken: "dl-\(passType)-\(serialNumber)"
        )
    }

    /// Inserts passes and returns them.
    @discardableResult
    static func insert(_ serialNumbers: [String], passType: String = passType, into store: any PassStore) async throws
        -> [PassRecord]
    {
        var records: [PassRecord] = []
        for serialNumber in serialNumbers {
            records.append(try await store.insertPass(newPass(serialNumber, passType: passType), now: now))
        }
        return records
    }

    static func register(
        _ device: String, token: String, _ serialNumber: String, passType: String = passType, at time: Date = now,
        in store: any PassStore
    ) async throws -> RegistrationOutcome {
        try await store.register(
            deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: passType, serialNumber: serialNumber,
            now: time
        )
    }

    static func serialNumbers(
        _ device: String, passType: String = passType, since: Int64? = nil, in store: any PassStore
    ) async throws -> SerialNumberList? {
        try await store.serialNumbers(deviceLibraryIdentifier: device, passTypeIdentifier: passType, updatedSince: since)
    }

    static func count(_ serialNumber: String, passType: String = passType, in store: any PassStore) async throws -> Int {
        try await store.registrationCount(passTypeIdentifier: passType, serialNumber: serialNumber)
    }

    static func unregister(_ device: String, _ serialNumber: String, in store: any PassStore) async throws -> Bool {
        try await store.unregister(deviceLibraryIdentifier: device, passTypeIdentifier: passType, serialNumber: serialNumber)
    }

    static func void(_ serialNumber: String, in store: any PassStore) async throws -> PassUpdate? {
        try await store.updatePass(
            passTypeIdentifier: passType, serialNumber: serialNumber, change: PassChange(voided: true), now: now
        )
    }
}
