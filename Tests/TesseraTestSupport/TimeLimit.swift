import Dispatch
import Foundation
import Synchronization

/// `operation` ran out of its time limit.
public struct TimeLimitExceeded: Error, CustomStringConvertible {
    /// What was being waited for, and for how long.
    public let description: String
}

/// Runs `operation` and gives up after `seconds` even when it never returns or ignores cancellation (it is then
/// cancelled and left to finish on its own): a test waiting on a peer that stopped answering fails instead of
/// holding the whole run. The limit is kept by a Dispatch timer, not by Swift's executor.
/// - Parameters:
///   - seconds: The limit.
///   - what: What is being waited for, for the error.
///   - operation: The work.
/// - Returns: What `operation` returns.
/// - Throws: ``TimeLimitExceeded``, or what `operation` throws.
public func withTimeLimit<T: Sendable>(
    _ seconds: Double, _ what: @autoclosure () -> String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let description = "\(what()) took longer than \(Int(seconds)) s"
    return try await withCheckedThrowingContinuation { continuation in
        let pending = Mutex<CheckedContinuation<T, any Error>?>(continuation)
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            pending.withLock { $0.take() }?.resume(with: result)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            guard let waiting = pending.withLock({ $0.take() }) else { return }
            work.cancel()
            waiting.resume(throwing: TimeLimitExceeded(description: description))
        }
    }
}
