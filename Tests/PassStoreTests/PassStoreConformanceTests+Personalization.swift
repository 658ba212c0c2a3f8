import Foundation
import PassStore
import Testing

/// A personalization is stored once: a change made `onlyIfNotPersonalized` does nothing to a personalized pass.
@Suite("PassStore personalization once")
struct PersonalizationOnceConformanceTests {
    @Test("onlyIfNotPersonalized applies to a fresh pass and then changes nothing", arguments: StoreKind.tested)
    func onlyOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.insertPass(Fixtures.newPass("PZ1"), now: Fixtures.now)
            let first = try #require(try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "PZ1",
                change: PassChange(personalization: Data(#"{"fullName":"A"}"#.utf8), onlyIfNotPersonalized: true),
                now: Fixtures.now))
            let second = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "PZ1",
                change: PassChange(personalization: Data(#"{"fullName":"B"}"#.utf8), onlyIfNotPersonalized: true),
                now: Fixtures.now)
            #expect(second == nil)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "PZ1") == first.pass)
            // Other changes still apply.
            let voided = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "PZ1", change: PassChange(voided: true), now: Fixtures.now)
            #expect(voided?.pass.personalization == first.pass.personalization)
        }
    }
}

/// A change made `onlyIfUpdateTag` applies only to the version it was merged into.
@Suite("PassStore changes to a given version")
struct VersionedChangeConformanceTests {
    @Test("onlyIfUpdateTag applies to the current version; after another change it changes nothing",
          arguments: StoreKind.tested)
    func onlyAtVersion(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let created = try await store.insertPass(Fixtures.newPass("PV1"), now: Fixtures.now)
            let first = try #require(try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "PV1",
                change: PassChange(data: Data(#"{"v":1}"#.utf8), onlyIfUpdateTag: created.updateTag), now: Fixtures.now))
            #expect(first.pass.updateTag > created.updateTag)
            let stale = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "PV1",
                change: PassChange(data: Data(#"{"v":2}"#.utf8), onlyIfUpdateTag: created.updateTag), now: Fixtures.now)
            #expect(stale == nil)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "PV1") == first.pass)
        }
    }
}
