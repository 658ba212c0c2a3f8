import Foundation
import PassStore
import Testing
import TesseraTestSupport

/// Console sessions as every store keeps them: found by their secret's hash until they expire, gone when signed out,
/// and ended with the API key they were opened with.
@Suite("ConsoleSessionStore conformance")
struct ConsoleSessionStoreConformanceTests {
    static let kinds: [StoreKind] = StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres }

    @Test("a session is found until it expires, ends on sign-out, and ends with its key", arguments: kinds)
    func lifecycle(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let sessions = try #require(store as? any ConsoleSessionStore)
            let keys = try #require(store as? any APIKeyStore)
            let now = Fixtures.now
            let key = APIKeyRecord(id: "key_console", name: "brand-a", secretHash: Data(repeating: 7, count: 32),
                                   identifiers: ["pass.com.brand-a.*"], permissions: ["read"], createdAt: now)
            try await keys.insertAPIKey(key)
            let admin = ConsoleSessionRecord(secretHash: Data(repeating: 1, count: 32), keyID: nil, createdAt: now,
                                             expiresAt: now.addingTimeInterval(3600))
            let keyed = ConsoleSessionRecord(secretHash: Data(repeating: 2, count: 32), keyID: key.id, createdAt: now,
                                             expiresAt: now.addingTimeInterval(3600))
            let old = ConsoleSessionRecord(secretHash: Data(repeating: 3, count: 32), keyID: nil, createdAt: now,
                                           expiresAt: now.addingTimeInterval(60))
            for session in [admin, keyed, old] { try await sessions.insertConsoleSession(session) }
            await #expect(throws: (any Error).self) { try await sessions.insertConsoleSession(admin) }

            let found = try #require(try await sessions.consoleSession(secretHash: admin.secretHash, now: now))
            #expect(found.session.keyID == nil && found.key == nil && found.session.expiresAt == admin.expiresAt)
            let withKey = try #require(try await sessions.consoleSession(secretHash: keyed.secretHash, now: now))
            #expect(withKey.key?.id == key.id && withKey.key?.identifiers == key.identifiers && withKey.key?.permissions == ["read"])
            #expect(try await sessions.consoleSession(secretHash: Data(repeating: 9, count: 32), now: now) == nil)
            // Expired: not found, and swept.
            #expect(try await sessions.consoleSession(secretHash: old.secretHash, now: now.addingTimeInterval(61)) == nil)
            #expect(try await sessions.deleteEndedConsoleSessions(now: now.addingTimeInterval(61)) == 1)
            // The key revoked: its sessions end at once.
            #expect(try await keys.revokeAPIKey(id: key.id, now: now))
            #expect(try await sessions.consoleSession(secretHash: keyed.secretHash, now: now) == nil)
            #expect(try await sessions.deleteEndedConsoleSessions(now: now) == 1)
            // Signed out.
            #expect(try await sessions.deleteConsoleSession(secretHash: admin.secretHash))
            #expect(try await !sessions.deleteConsoleSession(secretHash: admin.secretHash))
            #expect(try await sessions.consoleSession(secretHash: admin.secretHash, now: now) == nil)
        }
    }
}
