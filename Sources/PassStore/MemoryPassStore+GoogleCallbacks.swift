public import Foundation

extension MemoryPassStore: GoogleCallbackStore {
    public func recordGoogleCallback(_ callback: GoogleCallbackRecord, now: Date) async throws -> Bool {
        guard googleCallbacks[callback.nonce] == nil else { return false }
        googleCallbacks[callback.nonce] = callback
        log([callback.event], now: now)
        return true
    }

    public func googleCallbackCounts(passTypeIdentifier: String, serialNumber: String) async throws -> (saves: Int, deletes: Int) {
        let mine = googleCallbacks.values.filter { $0.passTypeIdentifier == passTypeIdentifier && $0.serialNumber == serialNumber }
        return (mine.filter(\.isSave).count, mine.filter { !$0.isSave }.count)
    }
}
