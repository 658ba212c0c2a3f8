public import Foundation

extension MemoryPassStore {
    /// Appends events to the log, numbered in order.
    func log(_ drafts: [WalletEventDraft], now: Date) {
        for draft in drafts {
            lastEventNumber += 1
            eventLog.append(WalletEvent(id: lastEventNumber, cursor: EventCursor(id: lastEventNumber), type: draft.type.rawValue, createdAt: now, data: draft.data))
        }
    }

    public func events(after: EventCursor, types: Set<String>, limit: Int) async throws -> [WalletEvent] {
        Array(eventLog.lazy.filter { $0.cursor > after && (types.isEmpty || types.contains($0.type)) }.prefix(max(0, limit)))
    }

    public func deleteEvents(createdBefore: Date, limit: Int) async throws -> Int {
        let old = eventLog.prefix(max(0, limit)).prefix { $0.createdAt < createdBefore }.count
        eventLog.removeFirst(old)
        return old
    }
}
