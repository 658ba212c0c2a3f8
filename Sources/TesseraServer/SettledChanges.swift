/// Watches something on disk by comparing a fingerprint of it every interval: when it changed and then stayed the same
/// for one more interval (files written while being copied, a renewal replacing several files), `changed` runs.
enum SettledChanges {
    /// Polls until the task is cancelled.
    /// - Parameters:
    ///   - interval: How often the fingerprint is taken.
    ///   - fingerprint: What is compared (paths, sizes, modification times).
    ///   - changed: Run once per settled change.
    static func watch(
        every interval: Duration, fingerprint: () -> [String], changed: () async -> Void
    ) async {
        var last = fingerprint()
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let current = fingerprint()
            guard current != last else { continue }
            do { try await Task.sleep(for: interval) } catch { return }
            let settled = fingerprint()
            guard settled == current else { continue }
            last = settled
            await changed()
        }
    }
}
