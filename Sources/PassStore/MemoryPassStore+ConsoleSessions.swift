public import Foundation

extension MemoryPassStore: ConsoleSessionStore {
    public func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        guard consoleSessions[session.secretHash] == nil else {
            throw PassStoreError.invalidData("a console session with this secret exists")
        }
        consoleSessions[session.secretHash] = session
    }

    public func consoleSession(secretHash: Data, now: Date) async throws -> (session: ConsoleSessionRecord, key: APIKeyRecord?)? {
        guard let session = consoleSessions[secretHash], session.expiresAt > now else { return nil }
        guard let keyID = session.keyID else { return (session, nil) }
        guard let key = apiKeyRecords.first(where: { $0.record.id == keyID && $0.revokedAt == nil })?.record else { return nil }
        return (session, key)
    }

    public func deleteConsoleSession(secretHash: Data) async throws -> Bool {
        consoleSessions.removeValue(forKey: secretHash) != nil
    }

    public func deleteEndedConsoleSessions(now: Date) async throws -> Int {
        let live = Set(apiKeyRecords.filter { $0.revokedAt == nil }.map(\.record.id))
        let ended = consoleSessions.values.filter { $0.expiresAt <= now || $0.keyID.map { !live.contains($0) } == true }
        for session in ended { consoleSessions.removeValue(forKey: session.secretHash) }
        return ended.count
    }
}
