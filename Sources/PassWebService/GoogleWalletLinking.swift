public import Foundation
public import PassStore

/// A pass's Google Wallet side, as the issuer API shows it: the save link and the object's state at Google.
public struct GoogleWalletState: Sendable, Encodable, Equatable {
    /// The "Save to Google Wallet" link, or `nil` when the pass cannot be mapped (``error`` says why).
    public var saveURL: String?
    /// The Google class id.
    public var classId: String
    /// The Google object id.
    public var objectId: String
    /// The object's state: `ACTIVE`, `INACTIVE` (voided) or `COMPLETED` (redeemed).
    public var state: String
    /// Saves to Google Wallet counted from Google's callbacks.
    public var saves: Int
    /// Deletions from Google Wallet counted from Google's callbacks.
    public var deletes: Int
    /// Changes to the pass not yet delivered to Google.
    public var pending: Int
    /// Why the pass has no Google side, when its mapping fails.
    public var error: String?

    /// Creates a state.
    public init(saveURL: String?, classId: String, objectId: String, state: String, saves: Int, deletes: Int, pending: Int,
                error: String? = nil) {
        self.saveURL = saveURL
        self.classId = classId
        self.objectId = objectId
        self.state = state
        self.saves = saves
        self.deletes = deletes
        self.pending = pending
        self.error = error
    }
}

/// Google Wallet as the issuer API sees it (implemented where the server composes Google Wallet's parts).
public protocol GoogleWalletLinking: Sendable {
    /// A pass's Google side.
    /// - Parameter pass: The pass.
    /// - Returns: Its save link and state, or `nil` when Google Wallet does not apply to it.
    func googleState(of pass: PassRecord) async -> GoogleWalletState?

    /// A template image Google fetches, by its content address.
    /// - Parameter sha256: The image's SHA-256 in hex.
    /// - Returns: The PNG, or `nil` when no template has it.
    func image(sha256: String) async -> Data?

    /// One of Google's save and delete callbacks (`POST /google/v1/callbacks`): verified, then counted and recorded.
    /// - Parameter body: The request body.
    /// - Returns: What became of it.
    func receiveCallback(_ body: Data) async -> GoogleCallbackOutcome
}

/// What became of a Google callback.
public enum GoogleCallbackOutcome: Sendable, Equatable {
    /// Verified, counted and recorded.
    case accepted
    /// Verified, but its nonce was seen before: counted once.
    case repeated
    /// Not verified (forged, stale, another issuer's, malformed): the reason.
    case refused(String)
    /// Verified, about an object of no pass here.
    case unknownPass
    /// The store or Google's keys cannot be reached now.
    case unavailable(String)
}
