public import Foundation

extension MemoryPassStore: APIKeyStore {
    public func insertAPIKey(_ key: APIKeyRecord) async throws {
        guard !apiKeyRecords.contains(where: { $0.record.id == key.id || $0.record.secretHash == key.secretHash }) else {
            throw PassStoreError.invalidData("an API key with this id or secret exists")
        }
        apiKeyRecords.append((key, nil))
    }

    public func apiKeys() async throws -> [APIKeyRecord] {
        apiKeyRecords.filter { $0.revokedAt == nil }.map(\.record)
    }

    public func apiKey(secretHash: Data) async throws -> APIKeyRecord? {
        apiKeyRecords.first { $0.record.secretHash == secretHash && $0.revokedAt == nil }?.record
    }

    public func revokeAPIKey(id: String, now: Date) async throws -> Bool {
        guard let index = apiKeyRecords.firstIndex(where: { $0.record.id == id && $0.revokedAt == nil }) else { return false }
        apiKeyRecords[index].revokedAt = now
        return true
    }
}
