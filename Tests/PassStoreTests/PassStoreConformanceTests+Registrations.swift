import Foundation
import PassStore
import Testing

extension PassStoreConformanceTests {
    @Test("register answers created then updated, and the new push token is used", arguments: StoreKind.tested)
    func register(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["R1"], into: store)
            #expect(try await Fixtures.register("dev-1", token: "old-token", "R1", in: store) == .created)
            #expect(try await Fixtures.register("dev-1", token: "new-token", "R1", in: store) == .updated)
            #expect(try await Fixtures.count("R1", in: store) == 1)

            _ = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "R1", change: PassChange(voided: true),
                now: Fixtures.now
            )
            let pushes = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(pushes.map(\.pushToken) == ["new-token"])
            #expect(pushes.first?.passTypeIdentifier == Fixtures.passType)
        }
    }

    @Test("registering for a missing pass throws passNotFound and stores nothing", arguments: StoreKind.tested)
    func registerMissingPass(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let error = await #expect(throws: PassStoreError.self) {
                _ = try await Fixtures.register("dev-1", token: "token", "missing", in: store)
            }
            #expect(error?.isPassNotFound == true)
            let list = try await store.serialNumbers(
                deviceLibraryIdentifier: "dev-1", passTypeIdentifier: Fixtures.passType, updatedSince: nil
            )
            #expect(list == nil)
        }
    }

    @Test("concurrent registrations each get their own answer; one for a missing pass fails alone", arguments: StoreKind.tested)
    func concurrentRegistrations(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["C1", "C2"], into: store)
            _ = try await Fixtures.register("dev-again", token: "first", "C1", in: store)
            // 30 new devices, 5 registrations for a pass that does not exist, 1 repeat of an existing registration.
            let results = await withTaskGroup(of: (String, Result<RegistrationOutcome, any Error>).self) { group in
                for index in 0..<30 {
                    group.addTask {
                        ("new", await capture { try await Fixtures.register("dev-\(index)", token: "t\(index)", index.isMultiple(of: 2) ? "C1" : "C2", in: store) })
                    }
                }
                for index in 0..<5 {
                    group.addTask {
                        ("missing", await capture { try await Fixtures.register("lost-\(index)", token: "x", "nope", in: store) })
                    }
                }
                group.addTask { ("again", await capture { try await Fixtures.register("dev-again", token: "second", "C1", in: store) }) }
                var results: [(String, Result<RegistrationOutcome, any Error>)] = []
                for await result in group { results.append(result) }
                return results
            }
            for (kind, result) in results {
                switch (kind, result) {
                case ("new", .success(let outcome)): #expect(outcome == .created)
                case ("again", .success(let outcome)): #expect(outcome == .updated)
                case ("missing", .failure(let error)): #expect((error as? PassStoreError)?.isPassNotFound == true, "\(error)")
                default: Issue.record("\(kind): unexpected \(result)")
                }
            }
            #expect(try await Fixtures.count("C1", in: store) == 16)  // 15 new devices and dev-again
            #expect(try await Fixtures.count("C2", in: store) == 15)
            #expect(try await Fixtures.serialNumbers("lost-0", in: store) == nil)
        }
    }

    @Test("unregister removes the registration, and the device once it has none", arguments: StoreKind.tested)
    func unregister(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["U1", "U2"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token-1", "U1", in: store)
            _ = try await Fixtures.register("dev-1", token: "token-1", "U2", in: store)

            #expect(try await Fixtures.unregister("dev-1", "U1", in: store))
            #expect(!(try await Fixtures.unregister("dev-1", "U1", in: store)))
            let left = try await Fixtures.serialNumbers("dev-1", in: store)
            #expect(left?.serialNumbers == ["U2"])

            #expect(try await Fixtures.unregister("dev-1", "U2", in: store))
            #expect(!(try await Fixtures.unregister("unknown", "U2", in: store)))
            // The device is gone: a change to its former passes owes it no push.
            _ = try await Fixtures.void("U2", in: store)
            #expect(try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30).isEmpty)
            // Registering again makes the registration new.
            #expect(try await Fixtures.register("dev-1", token: "token-1", "U2", in: store) == .created)
        }
    }

    @Test("serialNumbers lists the device's passes of one type changed after a tag", arguments: StoreKind.tested)
    func serialNumbers(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let records = try await Fixtures.insert(["S1", "S2", "S3"], into: store)
            let other = try await Fixtures.insert(["S1"], passType: Fixtures.otherPassType, into: store)
            for serialNumber in ["S1", "S2"] {
                _ = try await Fixtures.register("dev-1", token: "token-1", serialNumber, in: store)
            }
            _ = try await Fixtures.register("dev-1", token: "token-1", "S1", passType: Fixtures.otherPassType, in: store)
            _ = try await Fixtures.register("dev-2", token: "token-2", "S3", in: store)

            func list(_ since: Int64?, device: String = "dev-1") async throws -> SerialNumberList? {
                try await Fixtures.serialNumbers(device, since: since, in: store)
            }
            let all = try #require(try await list(nil))
            #expect(all == SerialNumberList(serialNumbers: ["S1", "S2"], lastUpdated: records[1].updateTag))
            #expect(try await list(records[0].updateTag) == SerialNumberList(serialNumbers: ["S2"], lastUpdated: records[1].updateTag))
            #expect(try await list(all.lastUpdated) == nil)
            #expect(try await list(other[0].updateTag) == nil)
            #expect(try await list(nil, device: "unknown") == nil)

            let update = try #require(
                try await Fixtures.void("S1", in: store)
            )
            #expect(try await list(all.lastUpdated) == SerialNumberList(serialNumbers: ["S1"], lastUpdated: update.pass.updateTag))
            #expect(try await list(nil) == SerialNumberList(serialNumbers: ["S2", "S1"], lastUpdated: update.pass.updateTag))
            let coupons = try await Fixtures.serialNumbers("dev-1", passType: Fixtures.otherPassType, in: store)
            #expect(coupons == SerialNumberList(serialNumbers: ["S1"], lastUpdated: other[0].updateTag))
        }
    }

    @Test("registrationCount counts the devices registered for a pass", arguments: StoreKind.tested)
    func registrationCount(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["N1", "N2"], into: store)
            for device in ["dev-1", "dev-2", "dev-3"] {
                _ = try await Fixtures.register(device, token: "token-\(device)", "N1", in: store)
            }
            _ = try await Fixtures.register("dev-1", token: "token-dev-1", "N2", in: store)
            #expect(try await Fixtures.count("N1", in: store) == 3)
            #expect(try await Fixtures.count("N2", in: store) == 1)
            #expect(try await Fixtures.count("none", in: store) == 0)
        }
    }

    @Test("removeRegistrations deletes a token's registrations for a pass type, sparing refreshed devices",
          arguments: StoreKind.tested)
    func removeRegistrations(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Fixtures.insert(["X1", "X2"], into: store)
            try await Fixtures.insert(["X1"], passType: Fixtures.otherPassType, into: store)
            let early = Fixtures.now, late = Fixtures.now.addingTimeInterval(100)
            _ = try await Fixtures.register("dev-1", token: "bad", "X1", at: early, in: store)
            _ = try await Fixtures.register("dev-1", token: "bad", "X2", at: early, in: store)
            _ = try await Fixtures.register("dev-1", token: "bad", "X1", passType: Fixtures.otherPassType, at: early, in: store)
            _ = try await Fixtures.register("dev-2", token: "bad", "X1", at: late, in: store)
            _ = try await Fixtures.register("dev-3", token: "good", "X1", at: early, in: store)

            // dev-2 registered again after APNs' timestamp: it keeps its registration.
            let removed = try await store.removeRegistrations(
                pushToken: "bad", passTypeIdentifier: Fixtures.passType, unlessRefreshedAfter: early.addingTimeInterval(50)
            )
            #expect(removed == 2)
            #expect(try await Fixtures.count("X1", in: store) == 2)
            #expect(try await Fixtures.count("X2", in: store) == 0)
            #expect(try await Fixtures.count("X1", passType: Fixtures.otherPassType, in: store) == 1)

            #expect(try await store.removeRegistrations(pushToken: "bad", passTypeIdentifier: Fixtures.passType, unlessRefreshedAfter: nil) == 1)
            #expect(try await Fixtures.count("X1", in: store) == 1)
            // dev-2 had nothing else and is gone: registering again is new.
            #expect(try await Fixtures.register("dev-2", token: "fresh", "X1", in: store) == .created)

            #expect(try await store.removeRegistrations(pushToken: "bad", passTypeIdentifier: Fixtures.otherPassType, unlessRefreshedAfter: nil) == 1)
            let gone = try await Fixtures.serialNumbers("dev-1", passType: Fixtures.otherPassType, in: store)
            #expect(gone == nil)
            #expect(try await Fixtures.register("dev-1", token: "bad", "X2", in: store) == .created)
        }
    }
}

/// The outcome of an async call, or its error.
private func capture(_ body: () async throws -> RegistrationOutcome) async -> Result<RegistrationOutcome, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
