import Foundation
public import NIOCore
import Synchronization

/// Signed bundles of the current pass versions, so device fetches do not sign again.
///
/// Keyed by pass and update tag: a new version has a new tag, so stale entries are never served. Bounded by
/// total bytes; the least recently used entries go first. Bundles are kept as `ByteBuffer`s, which responses share
/// without copying (a copy of a 168 KB bundle per download was a measurable part of serving it).
public final class BundleCache: Sendable {
    /// An item's identifiers.
    public struct Key: Hashable, Sendable {
        /// The pass or order type identifier.
        public var passTypeIdentifier: String
        /// The serial number or order identifier.
        public var serialNumber: String

        /// Creates a key.
        public init(passTypeIdentifier: String, serialNumber: String) {
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
        }
    }

    private struct Entry {
        var updateTag: Int64
        var bundle: ByteBuffer
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private struct Flight: Hashable {
        var key: Key
        var updateTag: Int64
    }

    private let state = Mutex(State())
    private let capacity: Int
    /// Versions being built now and the fetches waiting for them, so concurrent fetches of one version wait for one
    /// build.
    private let flights = Mutex([Flight: [CheckedContinuation<ByteBuffer?, any Error>]]())

    /// Creates an empty cache.
    /// - Parameter capacity: Most bytes of bundles kept.
    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The bundle of an item's version, when kept.
    public func bundle(for key: Key, updateTag: Int64) -> ByteBuffer? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.updateTag == updateTag else { return nil }
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return entry.bundle
        }
    }

    /// The bundle of an item's version: kept, or being built for another request (awaited, not built again), or
    /// built now by `build` and kept. After a campaign a crowd of devices fetches the same new versions at once: each
    /// version is signed once, whatever the number of fetches waiting for it. A failed build is not remembered (the
    /// next fetch tries again).
    /// - Parameters:
    ///   - key: The item.
    ///   - updateTag: Its version.
    ///   - build: Builds and signs the version.
    /// - Returns: The bundle.
    public func bundle(
        for key: Key, updateTag: Int64, building build: @Sendable () async throws -> ByteBuffer
    ) async throws -> ByteBuffer {
        let flight = Flight(key: key, updateTag: updateTag)
        while true {
            if let kept = bundle(for: key, updateTag: updateTag) { return kept }
            let leads = flights.withLock { flights -> Bool in
                guard flights[flight] == nil else { return false }
                flights[flight] = []
                return true
            }
            if leads {
                // Built in the fetch's own task (and on its executor), so nothing waits for another thread pool.
                let result: Result<ByteBuffer, any Error>
                do {
                    result = .success(try await build())
                } catch {
                    result = .failure(error)
                }
                if case .success(let bundle) = result { store(bundle, for: key, updateTag: updateTag) }
                let waiting = flights.withLock { $0.removeValue(forKey: flight) ?? [] }
                for waiter in waiting { waiter.resume(with: result.map { Optional($0) }) }
                return try result.get()
            }
            // Another fetch is building it: wait for its outcome (nil: it finished meanwhile, so look again).
            if let built = try await withCheckedThrowingContinuation({ (waiter: CheckedContinuation<ByteBuffer?, any Error>) in
                let waits = flights.withLock { flights -> Bool in
                    guard flights[flight] != nil else { return false }
                    flights[flight]?.append(waiter)
                    return true
                }
                if !waits { waiter.resume(returning: nil) }
            }) {
                return built
            }
        }
    }

    /// How many versions are being built now (for tests and metrics).
    public var buildsInFlight: Int { flights.withLock { $0.count } }

    /// Keeps the bundle of an item's version, unless a newer version is kept already.
    public func store(_ bundle: ByteBuffer, for key: Key, updateTag: Int64) {
        guard bundle.readableBytes <= capacity else { return }
        state.withLock { state in
            if let old = state.entries[key] {
                guard old.updateTag <= updateTag else { return }
                state.bytes -= old.bundle.readableBytes
            }
            state.clock += 1
            state.entries[key] = Entry(updateTag: updateTag, bundle: bundle, lastUse: state.clock)
            state.bytes += bundle.readableBytes
            guard state.bytes > capacity else { return }
            // Evict the older half by last use: amortised, so a full cache does not sort on every store.
            let sorted = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (evicted, entry) in sorted where state.bytes > capacity / 2 {
                state.entries[evicted] = nil
                state.bytes -= entry.bundle.readableBytes
            }
        }
    }
}
