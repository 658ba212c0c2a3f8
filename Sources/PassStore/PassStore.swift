public import Foundation

/// Storage of the pass web service: passes, device registrations and the queue of pushes owed.
///
/// Every method is one transaction: either all of its effect is stored or none. Implementations: ``MemoryPassStore``
/// (tests), `SQLiteStore` (the default, one file) and `PostgresStore` (several server instances on one database).
/// Times are passed in (`now`) so callers and tests control the clock.
public protocol PassStore: Sendable {
    /// Creates the store's tables or brings them up to date. Safe to call on every start.
    func migrate() async throws

    /// Stores a new pass as version 1 (a fresh update tag, `lastModified` = `now` to the second).
    /// - Throws: ``PassStoreError/duplicatePass(passTypeIdentifier:serialNumber:)`` when the serial number exists.
    /// - Returns: the stored pass.
    func insertPass(_ pass: NewPass, now: Date) async throws -> PassRecord

    /// - Returns: the pass with this pass type and serial number, or `nil`.
    func pass(passTypeIdentifier: String, serialNumber: String) async throws -> PassRecord?

    /// Looks a pass up for a credential check, doing the same work whether or not it exists: when there is no such
    /// pass, another stored pass is read in its place and its token offered for the (constant-time) comparison, so a
    /// wrong token on an existing serial number and any token on a missing one take the same time.
    /// - Returns: the pass (or `nil`) and the token to compare the given credential with.
    func passForAuthentication(passTypeIdentifier: String, serialNumber: String) async throws -> PassLookup

    /// - Returns: the pass whose holder download link carries this token, or `nil`.
    func pass(downloadToken: String) async throws -> PassRecord?

    /// Applies a change as a new version: advances the update tag, sets `lastModified` to `now` (to the second) but
    /// at least one second after the previous version's, so `Last-Modified` always moves forward and a device never
    /// gets 304 for a version it has not seen; and queues one push per push token registered for the pass, all in one
    /// transaction.
    /// - Returns: the new version and the pushes queued, or `nil` when there is no such pass (or, with
    ///   ``PassChange/onlyIfNotPersonalized``, when it is already personalized, or with ``PassChange/onlyIfUpdateTag``,
    ///   when another change came first: nothing changes).
    func updatePass(passTypeIdentifier: String, serialNumber: String, change: PassChange, now: Date) async throws
        -> PassUpdate?

    /// Registers a device for a pass's updates, or updates its push token when already registered.
    /// - Throws: ``PassStoreError/passNotFound(passTypeIdentifier:serialNumber:)`` when there is no such pass.
    /// - Returns: whether the registration is new.
    func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date
    ) async throws -> RegistrationOutcome

    /// Registers a device for a pass's updates, as ``register(deviceLibraryIdentifier:pushToken:passTypeIdentifier:serialNumber:now:)``
    /// does, only when `authenticate` accepts the pass's authentication token: the device's credential checked in
    /// the same step as the write (a store with one writer checks it there, and skips a read of its own).
    ///
    /// `authenticate` is called exactly once: with the pass's token, or, when there is no such pass, with a stand-in
    /// token (another pass's, or ``PassLookup/standInToken``), so a missing pass and a wrong credential cost the same
    /// and answer the same.
    /// - Returns: whether the registration is new, or `nil` (nothing written) when there is no such pass or
    ///   `authenticate` refused its token.
    func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date,
        authenticate: @escaping @Sendable (String) -> Bool
    ) async throws -> RegistrationOutcome?

    /// Removes a registration; a device left with none is removed too.
    /// - Returns: whether a registration existed.
    @discardableResult
    func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String) async throws
        -> Bool

    /// The passes of a type registered on a device that changed after `updatedSince` (all of them when `nil`).
    /// - Returns: the serial numbers and the greatest tag among them, or `nil` when there are none.
    func serialNumbers(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws
        -> SerialNumberList?

    /// - Returns: how many devices are registered for the pass.
    func registrationCount(passTypeIdentifier: String, serialNumber: String) async throws -> Int

    /// Claims up to `limit` pushes that are due (`notBefore` reached, not claimed by a live lease), leasing them until
    /// `now + lease` so other server instances skip them. A crashed sender's claims come back when the lease ends.
    func claimPushes(limit: Int, now: Date, lease: TimeInterval) async throws -> [PendingPush]

    /// Removes a sent push from the queue, unless another change queued it again meanwhile (its generation moved),
    /// in which case the claim is released so it goes out again.
    func completePush(_ push: PendingPush) async throws

    /// ``completePush(_:)`` for several pushes at once, in one store transaction where the store has them.
    func completePushes(_ pushes: [PendingPush]) async throws

    /// Puts a push back for a later try (`attempts` incremented, due at `notBefore`).
    func retryPush(_ push: PendingPush, notBefore: Date) async throws

    /// Deletes the registrations of a push token for a pass type (APNs said the token is no longer valid), except
    /// when the device registered again after `unlessRefreshedAfter` (APNs' 410 timestamp). Devices left with no
    /// registration are removed.
    /// - Returns: how many registrations were deleted.
    @discardableResult
    func removeRegistrations(pushToken: String, passTypeIdentifier: String, unlessRefreshedAfter: Date?) async throws
        -> Int
}

/// What ``PassStore/passForAuthentication(passTypeIdentifier:serialNumber:)`` found.
public struct PassLookup: Sendable, Equatable {
    /// The pass, or `nil` when there is none.
    public var pass: PassRecord?
    /// The token to compare the caller's credential with: the pass's, or a stand-in of the same length.
    public var comparisonToken: String

    /// Creates a lookup result.
    public init(pass: PassRecord?, comparisonToken: String) {
        self.pass = pass
        self.comparisonToken = comparisonToken
    }

    /// The stand-in compared when there is no pass to read in place of the missing one.
    public static let standInToken = String(repeating: "-", count: 32)
}

extension PassStore {
    /// One ``completePush(_:)`` after another, for stores without a cheaper way.
    public func completePushes(_ pushes: [PendingPush]) async throws {
        for push in pushes { try await completePush(push) }
    }

    /// The lookup for the credential, then the registration: two steps, for stores without a cheaper way.
    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, now: Date,
        authenticate: @escaping @Sendable (String) -> Bool
    ) async throws -> RegistrationOutcome? {
        let lookup = try await passForAuthentication(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        let accepted = authenticate(lookup.comparisonToken)
        guard lookup.pass != nil, accepted else { return nil }
        do {
            return try await register(deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken,
                                      passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, now: now)
        } catch let error as PassStoreError
            where error == .passNotFound(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        {
            return nil  // deleted between the two steps
        }
    }

    /// A plain lookup; stores whose reads cost more for a found pass than for a missing one override it.
    public func passForAuthentication(passTypeIdentifier: String, serialNumber: String) async throws -> PassLookup {
        let pass = try await pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        return PassLookup(pass: pass, comparisonToken: pass?.authenticationToken ?? PassLookup.standInToken)
    }
}
