public import Foundation

extension APNsStandIn {
    /// The requests received so far for `topic`, waiting until `until` holds for them or `seconds` have passed (then
    /// what arrived by then). The wait runs on a thread of its own, so it holds no cooperative thread.
    /// - Parameters:
    ///   - topic: The `apns-topic` (a pass or order type identifier).
    ///   - seconds: The longest wait.
    ///   - until: Whether the requests so far are what the caller waits for.
    public func requests(
        topic: String, within seconds: Double, until: @escaping @Sendable ([RecordedRequest]) -> Bool
    ) async throws -> [RecordedRequest] {
        try await offCooperativePool {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let received = self.requests.filter { $0.headers["apns-topic"] == topic }
                if until(received) || Date() >= deadline { return received }
                usleep(50_000)
            }
        }
    }
}
