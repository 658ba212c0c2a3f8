public import Foundation

/// Whether a registration was new.
public enum RegistrationOutcome: Sendable, Equatable {
    /// The device was not registered for the pass before (HTTP 201).
    case created
    /// The device was already registered; its push token was updated (HTTP 200).
    case updated
}

/// The answer to a device asking which of its passes changed.
public struct SerialNumberList: Sendable, Equatable {
    /// Serial numbers of the registered passes changed after the tag asked for, in ascending update order.
    public var serialNumbers: [String]
    /// The greatest update tag among them, to send as `passesUpdatedSince` next time.
    public var lastUpdated: Int64

    /// Creates a list.
    public init(serialNumbers: [String], lastUpdated: Int64) {
        self.serialNumbers = serialNumbers
        self.lastUpdated = lastUpdated
    }
}

/// A push owed to a device: "the passes of this type you hold changed".
public struct PendingPush: Sendable, Equatable {
    /// Identifier of the queue entry.
    public var id: Int64
    /// The device's APNs push token.
    public var pushToken: String
    /// The pass type identifier (the push's `apns-topic`).
    public var passTypeIdentifier: String
    /// Bumped whenever another change queues the same push while this one is in flight, so completing an older
    /// claim does not drop the newer change.
    public var generation: Int64
    /// How many times sending was tried and failed temporarily.
    public var attempts: Int
    /// When the push was first queued.
    public var queuedAt: Date
    /// When the claim that returned this push runs out: what marks the claim as this one. A send that outlasts its
    /// claim finds the push claimed again by someone else, and its retry or release leaves that newer claim alone
    /// (the stores compare this to within a millisecond; two claims of one entry are at least a lease apart).
    /// `nil` for a push not read by a claim: then nothing is compared.
    public var claimedUntil: Date?

    /// Creates a pending push.
    public init(
        id: Int64, pushToken: String, passTypeIdentifier: String, generation: Int64, attempts: Int, queuedAt: Date,
        claimedUntil: Date? = nil
    ) {
        self.id = id
        self.pushToken = pushToken
        self.passTypeIdentifier = passTypeIdentifier
        self.generation = generation
        self.attempts = attempts
        self.queuedAt = queuedAt
        self.claimedUntil = claimedUntil
    }
}
