public import Foundation

extension MemoryPassStore: WebhookOutboxStore {
    public func leaseWebhookDelivery(endpoint: String, owner: String, start: EventCursor, now: Date,
                                     lease: TimeInterval) async throws -> EventCursor? {
        var delivery = webhookDeliveries[endpoint] ?? MemoryWebhookDelivery(cursor: start, owner: nil, leaseUntil: now)
        guard delivery.owner == owner || delivery.owner == nil || delivery.leaseUntil <= now else { return nil }
        delivery.owner = owner
        delivery.leaseUntil = now.addingTimeInterval(lease)
        webhookDeliveries[endpoint] = delivery
        return delivery.cursor
    }

    public func saveWebhookCursor(endpoint: String, owner: String, cursor: EventCursor, now: Date,
                                  lease: TimeInterval) async throws -> Bool {
        guard var delivery = webhookDeliveries[endpoint], delivery.owner == owner else { return false }
        delivery.cursor = cursor
        delivery.leaseUntil = now.addingTimeInterval(lease)
        webhookDeliveries[endpoint] = delivery
        return true
    }

    public func releaseWebhookDelivery(endpoint: String, owner: String) async throws {
        if webhookDeliveries[endpoint]?.owner == owner { webhookDeliveries[endpoint]?.owner = nil }
    }

    public func latestEventCursor() async throws -> EventCursor { eventLog.last?.cursor ?? .start }
}

/// A webhook endpoint's delivery state in ``MemoryPassStore``.
struct MemoryWebhookDelivery {
    var cursor: EventCursor
    var owner: String?
    var leaseUntil: Date
}
