import Foundation
import PassStore
import Testing

/// The behaviour every ``PassStore`` shares, run against each store (memory, SQLite, PostgreSQL).
@Suite("PassStore conformance")
struct PassStoreConformanceTests {
    @Test("insert stores version 1; a second insert of the serial number is a duplicate", arguments: StoreKind.tested)
    func insertAndDuplicate(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Fixtures.now.addingTimeInterval(0.75)
            let record = try await store.insertPass(Fixtures.newPass("A1"), now: now)
            #expect(record.serialNumber == "A1")
            #expect(record.data == Fixtures.newPass("A1").data)
            #expect(record.updateTag > 0)
            #expect(record.lastModified == Fixtures.now)
            #expect(record.createdAt == Fixtures.now)
            #expect(record.voided == false && record.personalization == nil)

            await #expect(throws: PassStoreError.duplicatePass(passTypeIdentifier: Fixtures.passType, serialNumber: "A1")) {
                _ = try await store.insertPass(Fixtures.newPass("A1"), now: now)
            }
            // Same serial number under another pass type is another pass.
            let other = try await store.insertPass(Fixtures.newPass("A1", passType: Fixtures.otherPassType), now: now)
            #expect(other.updateTag > record.updateTag)

            // A reused download token fails and leaves nothing behind.
            var clash = Fixtures.newPass("A2")
            clash.downloadToken = record.downloadToken
            await #expect(throws: PassStoreError.self) { _ = try await store.insertPass(clash, now: now) }
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "A2") == nil)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "A1") == record)
        }
    }

    @Test("passes are found by serial number and by download token", arguments: StoreKind.tested)
    func lookups(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let records = try await Fixtures.insert(["B1", "B2"], into: store)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "B2") == records[1])
            #expect(try await store.pass(downloadToken: records[0].downloadToken) == records[0])
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "nope") == nil)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.otherPassType, serialNumber: "B1") == nil)
            #expect(try await store.pass(downloadToken: "nope") == nil)
        }
    }

    @Test("an update advances the tag, cuts lastModified to the second and keeps what it does not change",
          arguments: StoreKind.tested)
    func updateAdvancesTag(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let records = try await Fixtures.insert(["C1", "C2"], into: store)
            let later = Fixtures.now.addingTimeInterval(60.9)
            let data = Data(#"{"seat":"12B"}"#.utf8)
            let update = try #require(
                try await store.updatePass(
                    passTypeIdentifier: Fixtures.passType, serialNumber: "C1", change: PassChange(data: data), now: later
                )
            )
            #expect(update.pass.updateTag > records[1].updateTag)
            #expect(update.pass.lastModified == Fixtures.now.addingTimeInterval(60))
            #expect(update.pass.createdAt == Fixtures.now)
            #expect(update.pass.data == data)
            #expect(update.pushesQueued == 0)

            let personalization = Data(#"{"fullName":"Ada"}"#.utf8)
            let second = try #require(
                try await store.updatePass(
                    passTypeIdentifier: Fixtures.passType, serialNumber: "C1",
                    change: PassChange(voided: true, personalization: personalization), now: later
                )
            )
            #expect(second.pass.updateTag > update.pass.updateTag)
            #expect(second.pass.data == data)
            #expect(second.pass.voided)
            #expect(second.pass.personalization == personalization)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "C1") == second.pass)

            let missing = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "nope", change: PassChange(voided: true), now: later
            )
            #expect(missing == nil)
        }
    }

    @Test("concurrent updates get distinct tags", arguments: StoreKind.tested)
    func concurrentUpdates(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let records = try await Fixtures.insert(["D1", "D2", "D3"], into: store)
            let tags = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let update = try await store.updatePass(
                            passTypeIdentifier: Fixtures.passType, serialNumber: records[index % 3].serialNumber,
                            change: PassChange(data: Data(#"{"n":\#(index)}"#.utf8)), now: Fixtures.now
                        )
                        return try #require(update).pass.updateTag
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(Set(tags).count == 50)
            #expect(tags.allSatisfy { $0 > records[2].updateTag })
            var last: Int64 = 0
            for record in records {
                let stored = try #require(
                    try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: record.serialNumber)
                )
                last = max(last, stored.updateTag)
            }
            #expect(last == tags.max())
        }
    }
}
