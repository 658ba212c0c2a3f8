import Foundation
import Synchronization
import PassStore
import Testing

/// `passForAuthentication` finds the pass when it exists, and otherwise offers a token to compare with (a stand-in
/// record's, or the fixed stand-in), never a pass.
@Suite("PassStore lookup for authentication")
struct AuthenticationLookupConformanceTests {
    @Test("found, missing and empty-store lookups", arguments: StoreKind.tested)
    func lookups(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let empty = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU1")
            #expect(empty == PassLookup(pass: nil, comparisonToken: PassLookup.standInToken))
            let records = try await Fixtures.insert(["AU1", "AU2"], into: store)
            let found = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU1")
            #expect(found.pass == records[0])
            #expect(found.comparisonToken == records[0].authenticationToken)
            let missing = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU9")
            #expect(missing.pass == nil)
            let standIns = records.map(\.authenticationToken) + [PassLookup.standInToken]
            #expect(standIns.contains(missing.comparisonToken))
            let otherType = try await store.passForAuthentication(
                passTypeIdentifier: Fixtures.otherPassType, serialNumber: "AU1")
            #expect(otherType.pass == nil)
        }
    }
}

/// `register(…authenticate:)`: the registration the device endpoints make, the credential checked in the same step as
/// the write (in SQLite's writer; a lookup then the write elsewhere).
@Suite("PassStore registration checked against the pass's token")
struct AuthenticatedRegistrationConformanceTests {
    /// An `authenticate` that accepts `credential` and remembers every token it was asked about.
    final class Check: Sendable {
        let credential: String
        let asked = Mutex<[String]>([])

        init(_ credential: String) { self.credential = credential }

        var closure: @Sendable (String) -> Bool {
            { [self] stored in
                asked.withLock { $0.append(stored) }
                return stored == credential
            }
        }
    }

    func register(_ device: String, _ serialNumber: String, _ check: Check, in store: any PassStore) async throws
        -> RegistrationOutcome?
    {
        try await store.register(deviceLibraryIdentifier: device, pushToken: "push-\(device)",
                                 passTypeIdentifier: Fixtures.passType, serialNumber: serialNumber, now: Fixtures.now,
                                 authenticate: check.closure)
    }

    @Test("a wrong token or a missing pass writes nothing and answers nil; the pass's token registers once",
          arguments: StoreKind.tested)
    func registration(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let empty = Check("anything")
            #expect(try await register("device-r0", "AR1", empty, in: store) == nil, "an empty store has no pass")
            #expect(empty.asked.withLock { $0 } == [PassLookup.standInToken])

            let records = try await Fixtures.insert(["AR1", "AR2"], into: store)
            let wrong = Check("auth-AR1-wrong-token-00")
            #expect(try await register("device-r1", "AR1", wrong, in: store) == nil)
            #expect(wrong.asked.withLock { $0 } == [records[0].authenticationToken], "asked once, with the pass's token")
            // Another pass's token does not open this one.
            #expect(try await register("device-r1", "AR1", Check(records[1].authenticationToken), in: store) == nil)

            // A missing pass: refused even by a check that accepts the token it is shown, asked exactly once.
            let missing = Check("")
            let acceptsAll = Check("")
            let anyToken: @Sendable (String) -> Bool = { stored in _ = acceptsAll.closure(stored); return true }
            #expect(try await store.register(deviceLibraryIdentifier: "device-r1", pushToken: "push",
                                             passTypeIdentifier: Fixtures.passType, serialNumber: "AR9", now: Fixtures.now,
                                             authenticate: anyToken) == nil)
            let standIns = records.map(\.authenticationToken) + [PassLookup.standInToken]
            let shown = acceptsAll.asked.withLock { $0 }
            #expect(shown.count == 1 && standIns.contains(shown[0]))
            #expect(try await register("device-r1", "AR9", missing, in: store) == nil)

            #expect(try await store.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "AR1") == 0)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-r1", passTypeIdentifier: Fixtures.passType,
                                                  updatedSince: nil) == nil, "nothing was written for the refused device")

            let right = Check(records[0].authenticationToken)
            #expect(try await register("device-r1", "AR1", right, in: store) == .created)
            #expect(try await register("device-r1", "AR1", right, in: store) == .updated)
            #expect(try await store.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "AR1") == 1)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-r1", passTypeIdentifier: Fixtures.passType,
                                                  updatedSince: nil)?.serialNumbers == ["AR1"])

            // One registration event: the refused attempts recorded none.
            let log = try #require(store as? any EventStore)
            var registered: [WalletEvent] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while registered.isEmpty, ContinuousClock.now < deadline {
                registered = try await log.events(after: .start, types: ["pass.registered", "order.registered"], limit: 100)
                if registered.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            try await Task.sleep(for: .milliseconds(100))
            registered = try await log.events(after: .start, types: ["pass.registered", "order.registered"], limit: 100)
            #expect(registered.count == 1)
        }
    }
}
