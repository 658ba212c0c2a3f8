public import Foundation

/// A signed-in console session: who signed in (the admin token, or an API key by its id) and until when. The session's
/// secret is the browser's cookie; the store keeps only its SHA-256, so a copy of the database signs nobody in.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the session's secret.
    public var secretHash: Data
    /// The API key it was opened with; `nil` for the admin token.
    public var keyID: String?
    /// When it was opened.
    public var createdAt: Date
    /// When it ends, whatever happens before.
    public var expiresAt: Date

    /// Creates a record.
    public init(secretHash: Data, keyID: String?, createdAt: Date, expiresAt: Date) {
        self.secretHash = secretHash
        self.keyID = keyID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Where console sessions live, shared by every server process: signing out, or revoking the key a session was opened
/// with, ends it on all of them at once.
public protocol ConsoleSessionStore: Sendable {
    /// Stores a new session.
    func insertConsoleSession(_ session: ConsoleSessionRecord) async throws
    /// The session whose secret hashes to `secretHash`, unless it expired at `now` or its API key was revoked; with
    /// that key (`nil` for an admin session).
    func consoleSession(secretHash: Data, now: Date) async throws -> (session: ConsoleSessionRecord, key: APIKeyRecord?)?
    /// Ends a session; `false` when there was none.
    @discardableResult
    func deleteConsoleSession(secretHash: Data) async throws -> Bool
    /// Deletes the sessions that ended before `now`, or whose key was revoked.
    /// - Returns: How many.
    @discardableResult
    func deleteEndedConsoleSessions(now: Date) async throws -> Int
}
