public import Foundation
import Synchronization

/// Certificate chains that already verified against a set of trusted roots, so that signatures from the same signer
/// skip rebuilding and re-checking the chain.
///
/// A server verifying many signatures from one signer (every Apple Pay token of a period is signed by the same leaf
/// under Apple Application Integration CA - G3) would otherwise repeat the chain's signature checks for each one;
/// for Apple Root CA - G3 that is an ECDSA P-384 verification, the most expensive step of a token. An entry is keyed
/// by the exact bytes of the roots, the signer and every offered certificate, and is used only while the verification
/// time lies inside every chain certificate's validity period; anything else is verified in full again.
public final class VerifiedChainCache: Sendable {
    private struct Entry {
        var chain: [Certificate]
        var validFrom: Date
        var validUntil: Date
    }

    private let entries = Mutex<[Data: Entry]>([:])
    /// How many chains are kept; when full, the cache starts over.
    public let capacity: Int

    /// Creates an empty cache.
    /// - Parameter capacity: How many distinct chains to keep (signers rotate rarely, so a few suffice).
    public init(capacity: Int = 32) {
        self.capacity = max(1, capacity)
    }

    /// The number of chains remembered.
    public var count: Int { entries.withLock { $0.count } }

    /// The chain remembered under `key`, if it is valid at `time`.
    func chain(for key: Data, at time: Date) -> [Certificate]? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.validFrom <= time, time <= entry.validUntil else { return nil }
            return entry.chain
        }
    }

    /// Remembers a chain that verified; `chain` runs from the signer to the trusted root.
    func insert(_ chain: [Certificate], for key: Data) {
        let starts = chain.compactMap(\.notBefore), ends = chain.compactMap(\.notAfter)
        guard !chain.isEmpty, starts.count == chain.count, ends.count == chain.count,
              let validFrom = starts.max(), let validUntil = ends.min(), validFrom <= validUntil
        else { return }
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(chain: chain, validFrom: validFrom, validUntil: validUntil)
        }
    }
}
