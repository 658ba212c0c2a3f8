public import Foundation

extension MemoryPassStore: WebhookAttemptStore, ItemEventStore {
    public func recordWebhookAttempt(_ attempt: WebhookAttempt, keep: Int) async throws {
        webhookAttempts.append(attempt)
        let mine = webhookAttempts.indices.filter { webhookAttempts[$0].endpoint == attempt.endpoint }
        if mine.count > keep {
            let drop = Set(mine.prefix(mine.count - keep))
            webhookAttempts = webhookAttempts.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        }
    }

    public func webhookAttempts(endpoint: String, limit: Int) async throws -> [WebhookAttempt] {
        Array(webhookAttempts.filter { $0.endpoint == endpoint }.reversed().prefix(limit))
    }

    public func requestWebhookRetry(endpoint: String, at: Date) async throws {
        webhookRetryRequests[endpoint] = at
    }

    public func webhookRetryRequested(endpoint: String) async throws -> Date? {
        webhookRetryRequests[endpoint]
    }

    public func events(typeIdentifier: String, identifier: String, limit: Int) async throws -> [WalletEvent] {
        Array(eventLog.reversed().lazy.filter { event in
            let data = (try? JSONSerialization.jsonObject(with: event.data)) as? [String: Any] ?? [:]
            let type = (data["passTypeIdentifier"] ?? data["orderTypeIdentifier"]) as? String
            let item = (data["serialNumber"] ?? data["orderIdentifier"]) as? String
            return type == typeIdentifier && item == identifier
        }.prefix(limit))
    }
}
