public import Foundation

/// One of Google Wallet's save and delete callbacks, verified: which pass, and whether the holder saved or deleted it.
public struct GoogleCallbackRecord: Sendable, Equatable {
    /// Google's nonce: the same callback delivered twice carries the same one.
    public var nonce: String
    /// The pass type.
    public var passTypeIdentifier: String
    /// The serial number.
    public var serialNumber: String
    /// The Google object's id.
    public var objectId: String
    /// `true` for a save, `false` for a delete.
    public var isSave: Bool

    /// Creates a record.
    public init(nonce: String, passTypeIdentifier: String, serialNumber: String, objectId: String, isSave: Bool) {
        self.nonce = nonce
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.objectId = objectId
        self.isSave = isSave
    }

    /// The event it is recorded as: the same `pass.registered` and `pass.unregistered` as Apple devices' (so analytics
    /// count Google installs and removals too), the Google object as the device, with `wallet: google`.
    public var event: WalletEventDraft {
        let device = "google-wallet:" + objectId
        var draft = isSave
            ? WalletEventDraft.registered(.pass, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                                          deviceLibraryIdentifier: device)
            : WalletEventDraft.unregistered(.pass, typeIdentifier: passTypeIdentifier, identifier: serialNumber,
                                            deviceLibraryIdentifier: device, reason: "deleted")
        if var members = (try? JSONSerialization.jsonObject(with: draft.data)) as? [String: Any] {
            members["wallet"] = "google"
            draft.data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys, .withoutEscapingSlashes])) ?? draft.data
        }
        return draft
    }
}

/// Google Wallet's callbacks as the store keeps them: once per nonce, with their events in the same transaction.
public protocol GoogleCallbackStore: Sendable {
    /// Records a callback and its event, unless its nonce was recorded before.
    /// - Parameters:
    ///   - callback: The verified callback.
    ///   - now: The time.
    /// - Returns: `false` when the nonce was seen already (a repeated delivery, recorded once).
    func recordGoogleCallback(_ callback: GoogleCallbackRecord, now: Date) async throws -> Bool

    /// The saves and deletes recorded for a pass.
    /// - Parameters:
    ///   - passTypeIdentifier: The pass type.
    ///   - serialNumber: The serial number.
    /// - Returns: The counts.
    func googleCallbackCounts(passTypeIdentifier: String, serialNumber: String) async throws -> (saves: Int, deletes: Int)
}
