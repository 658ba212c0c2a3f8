import Foundation
import NIOCore
import PassWebService
import Synchronization
import Testing
import TesseraTestSupport

/// After a campaign, a crowd of devices fetches the same new versions at once: each version is signed once.
@Suite("Bundle cache: one build per version")
struct BundleCacheSingleFlightTests {
    struct BuildFailed: Error {}

    final class Count: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var current: Int { value.load(ordering: .relaxed) }
    }

    @Test("32 concurrent fetches of one version build it once; all get the same bundle, which is then kept")
    func oneBuild() async throws {
        let cache = BundleCache(capacity: 1 << 20)
        let key = BundleCache.Key(passTypeIdentifier: "pass.example", serialNumber: "S-1")
        let builds = Count()
        let bundles = try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await cache.bundle(for: key, updateTag: 7) {
                        builds.add()
                        try await Task.sleep(for: .milliseconds(200))
                        return ByteBuffer(string: "signed v7")
                    }
                }
            }
            return try await group.reduce(into: [ByteBuffer]()) { $0.append($1) }
        }
        #expect(builds.current == 1)
        #expect(bundles.count == 32 && Set(bundles.map { String(buffer: $0) }) == ["signed v7"])
        #expect(cache.bundle(for: key, updateTag: 7).map { String(buffer: $0) } == "signed v7")
        #expect(cache.buildsInFlight == 0)
        // Another version is another build.
        _ = try await cache.bundle(for: key, updateTag: 8) {
            builds.add()
            return ByteBuffer(string: "signed v8")
        }
        #expect(builds.current == 2)
    }

    @Test("a failed build reaches every waiter and is not remembered: the next fetch builds again")
    func failedBuild() async throws {
        let cache = BundleCache(capacity: 1 << 20)
        let key = BundleCache.Key(passTypeIdentifier: "pass.example", serialNumber: "S-2")
        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await cache.bundle(for: key, updateTag: 1) {
                            try await Task.sleep(for: .milliseconds(100))
                            throw BuildFailed()
                        }
                        return false
                    } catch is BuildFailed {
                        return true
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 8)
        #expect(cache.bundle(for: key, updateTag: 1) == nil)
        #expect(cache.buildsInFlight == 0)
        let retried = try await cache.bundle(for: key, updateTag: 1) { ByteBuffer(string: "signed") }
        #expect(String(buffer: retried) == "signed")
    }
}
