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
