import Foundation
import PassStore
import Testing

/// `passForAuthentication` finds the pass when it exists, and otherwise offers a token to compare with (a stand-in
/// record's, or the fixed stand-in), never a pass.
@Suite("PassStore lookup for authentication")
struct AuthenticationLookupConformanceTests {
    @Test("found, missing and empty-store lookups", arguments: StoreKind.tested)
    func lookups(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let empty = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU1")
            #expect(empty == PassLookup(pass: nil, comparisonToken: PassLookup.standInToken))
            let records = try await Fixtures.insert(["AU1", "AU2"], into: store)
            let found = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU1")
            #expect(found.pass == records[0])
            #expect(found.comparisonToken == records[0].authenticationToken)
            let missing = try await store.passForAuthentication(passTypeIdentifier: Fixtures.passType, serialNumber: "AU9")
            #expect(missing.pass == nil)
            let standIns = records.map(\.authenticationToken) + [PassLookup.standInToken]
            #expect(standIns.contains(missing.comparisonToken))
            let otherType = try await store.passForAuthentication(
                passTypeIdentifier: Fixtures.otherPassType, serialNumber: "AU1")
            #expect(otherType.pass == nil)
        }
    }
}
