import Foundation
import PassStore
import PostgresStore
import Testing

/// `Last-Modified` is all a device sends back (`If-Modified-Since`, whole seconds): every version's must be later
/// than the one before, even when several changes fall in the same second, or a device keeps a stale pass (304).
@Suite("PassStore lastModified moves forward")
struct LastModifiedConformanceTests {
    @Test("changes in the same second each get a later lastModified", arguments: StoreKind.tested)
    func sameSecondChanges(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let inserted = try await store.insertPass(Fixtures.newPass("LM1"), now: Fixtures.now.addingTimeInterval(0.1))
            var previous = inserted.lastModified
            for step in 0..<3 {
                let update = try #require(try await store.updatePass(
                    passTypeIdentifier: Fixtures.passType, serialNumber: "LM1",
                    change: PassChange(data: Data(#"{"step":\#(step)}"#.utf8)), now: Fixtures.now.addingTimeInterval(0.5)))
                #expect(update.pass.lastModified >= previous.addingTimeInterval(1), "step \(step)")
                #expect(update.pass.lastModified.timeIntervalSince1970 == update.pass.lastModified.timeIntervalSince1970.rounded(.down))
                previous = update.pass.lastModified
            }
            // A clock later than every version so far is used as is.
            let later = Fixtures.now.addingTimeInterval(3600)
            let update = try #require(try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "LM1", change: PassChange(voided: true), now: later))
            #expect(update.pass.lastModified == later)
        }
    }

    @Test("two PostgreSQL instances changing one pass in the same second still move lastModified forward",
          .enabled(if: StoreKind.tested.contains(.postgres), "PostgreSQL tests skipped (TESSERA_SKIP_POSTGRES=1)"))
    func acrossInstances() async throws {
        try await withPostgresStores(count: 2) { stores in
            let inserted = try await stores[0].insertPass(Fixtures.newPass("LM2"), now: Fixtures.now)
            var previous = inserted.lastModified
            for step in 0..<4 {
                let store = stores[step % 2]
                let update = try #require(try await store.updatePass(
                    passTypeIdentifier: Fixtures.passType, serialNumber: "LM2",
                    change: PassChange(data: Data(#"{"step":\#(step)}"#.utf8)), now: Fixtures.now))
                #expect(update.pass.lastModified > previous, "step \(step)")
                let read = try await stores[(step + 1) % 2].pass(passTypeIdentifier: Fixtures.passType, serialNumber: "LM2")
                #expect(read?.lastModified == update.pass.lastModified)
                previous = update.pass.lastModified
            }
        }
    }
}
