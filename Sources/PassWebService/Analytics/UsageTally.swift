public import Foundation
public import PassStore
import Synchronization

/// Fetches and pushes counted in this process by hour, pass type and template, until ``AnalyticsWorker`` adds them to
/// the store's rollups (every few seconds, and at shutdown). Counting is one locked dictionary increment, so the
/// device fetch path does not write to the store for analytics.
public final class UsageTally: Sendable {
    private struct Key: Hashable {
        var kind: UsageCount.Kind
        var hour: Int64
        var passTypeIdentifier: String
        var template: String
    }

    private let counts = Mutex([Key: Int]())

    /// Creates an empty tally.
    public init() {}

    /// Counts a device's fetch of a pass.
    public func countFetch(passTypeIdentifier: String, template: String, at time: Date) {
        add(Key(kind: .fetch, hour: UsageCount.hour(of: time), passTypeIdentifier: passTypeIdentifier, template: template))
    }

    /// Counts a push APNs accepted (pushes are per pass type, not per template).
    public func countPush(passTypeIdentifier: String, at time: Date) {
        add(Key(kind: .push, hour: UsageCount.hour(of: time), passTypeIdentifier: passTypeIdentifier, template: ""))
    }

    private func add(_ key: Key) {
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// Takes every count so far (the tally starts again from zero).
    public func drain() -> [UsageCount] {
        let taken = counts.withLock { counts in
            defer { counts.removeAll(keepingCapacity: true) }
            return counts
        }
        return taken.map {
            UsageCount(kind: $0.key.kind, hour: $0.key.hour, passTypeIdentifier: $0.key.passTypeIdentifier,
                       template: $0.key.template, count: $0.value)
        }
    }

    /// Puts counts back after the store refused them, so the next flush adds them.
    public func restore(_ usage: [UsageCount]) {
        counts.withLock { counts in
            for count in usage {
                counts[Key(kind: count.kind, hour: count.hour, passTypeIdentifier: count.passTypeIdentifier,
                           template: count.template), default: 0] += count.count
            }
        }
    }
}
