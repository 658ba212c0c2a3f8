import Foundation
import PassStore
import Testing

extension PassStoreConformanceTests {
    /// Inserts `serialNumbers`, registers devices for the first one: dev-1 and dev-2 share token-a, dev-3 has token-b.
    private func seedQueue(_ store: any PassStore, serialNumbers: [String] = ["Q1"]) async throws {
        try await Fixtures.insert(serialNumbers, into: store)
        _ = try await Fixtures.register("dev-1", token: "token-a", serialNumbers[0], in: store)
        _ = try await Fixtures.register("dev-2", token: "token-a", serialNumbers[0], in: store)
        _ = try await Fixtures.register("dev-3", token: "token-b", serialNumbers[0], in: store)
    }

    private func update(_ store: any PassStore, _ serialNumber: String = "Q1") async throws -> PassUpdate {
        let change = PassChange(data: Data(#"{"n":"\#(UUID())"}"#.utf8))
        let update = try await store.updatePass(
            passTypeIdentifier: Fixtures.passType, serialNumber: serialNumber, change: change, now: Fixtures.now
        )
        return try #require(update)
    }

    @Test("an update queues one push per distinct push token, coalescing with those already queued",
          arguments: StoreKind.tested)
    func updateQueuesPushes(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store, serialNumbers: ["Q1", "Q2"])
            _ = try await Fixtures.register("dev-1", token: "token-a", "Q2", in: store)
            #expect(try await update(store).pushesQueued == 2)
            #expect(try await update(store).pushesQueued == 0)
            #expect(try await update(store, "Q2").pushesQueued == 0)

            let pushes = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(pushes.map(\.pushToken).sorted() == ["token-a", "token-b"])
            #expect(pushes.first(where: { $0.pushToken == "token-a" })?.generation == 3)
            #expect(pushes.first(where: { $0.pushToken == "token-b" })?.generation == 2)
            #expect(pushes.allSatisfy { $0.attempts == 0 && $0.queuedAt == Fixtures.now })
            #expect(pushes.map(\.id) == pushes.map(\.id).sorted())
        }
    }

    @Test("a change coalesced into a push that has been retried for hours gives it a new day of tries, the backoff kept",
          arguments: StoreKind.tested)
    func coalescedChangeRestartsTheWindow(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store)
            _ = try await update(store)
            let failing = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            for push in failing { try await store.retryPush(push, notBefore: Fixtures.now.addingTimeInterval(300)) }
            // 23 hours on, the pass changes again: the same entries, a new generation, their window from now.
            let later = Fixtures.now.addingTimeInterval(23 * 3600)
            let change = PassChange(data: Data(#"{"n":"again"}"#.utf8))
            let update = try await store.updatePass(
                passTypeIdentifier: Fixtures.passType, serialNumber: "Q1", change: change, now: later)
            #expect(update?.pushesQueued == 0, "coalesced, not queued again")
            let pushes = try await store.claimPushes(limit: 10, now: later, lease: 30)
            #expect(pushes.count == 2 && pushes.allSatisfy { $0.queuedAt == later && $0.attempts == 1 && $0.generation == 2 },
                    "\(pushes)")
        }
    }

    @Test("claims lease pushes; completing removes them; retrying puts them back later", arguments: StoreKind.tested)
    func claimCompleteRetry(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store)
            _ = try await update(store)
            let now = Fixtures.now
            let first = try await store.claimPushes(limit: 1, now: now, lease: 30)
            #expect(first.count == 1)
            let second = try await store.claimPushes(limit: 10, now: now.addingTimeInterval(1), lease: 30)
            #expect(second.count == 1)
            #expect(first[0].id != second[0].id)
            #expect(try await store.claimPushes(limit: 10, now: now.addingTimeInterval(29), lease: 30).isEmpty)

            try await store.completePush(first[0])
            try await store.retryPush(second[0], notBefore: now.addingTimeInterval(120))
            #expect(try await store.claimPushes(limit: 10, now: now.addingTimeInterval(119), lease: 30).isEmpty)
            let retried = try await store.claimPushes(limit: 10, now: now.addingTimeInterval(120), lease: 30)
            #expect(retried.map(\.id) == [second[0].id])
            #expect(retried.first?.attempts == 1)
            try await store.completePush(retried[0])
            #expect(try await store.claimPushes(limit: 10, now: now.addingTimeInterval(1000), lease: 30).isEmpty)
            try await store.completePush(retried[0])  // gone already: nothing happens
        }
    }

    @Test("a claim whose lease ended comes back", arguments: StoreKind.tested)
    func leaseExpiry(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store)
            _ = try await update(store)
            let claimed = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(claimed.count == 2)
            #expect(try await store.claimPushes(limit: 10, now: Fixtures.now.addingTimeInterval(29.5), lease: 30).isEmpty)
            let again = try await store.claimPushes(limit: 10, now: Fixtures.now.addingTimeInterval(30), lease: 30)
            #expect(again.map(\.id) == claimed.map(\.id))
            #expect(try await store.claimPushes(limit: 0, now: Fixtures.now.addingTimeInterval(100), lease: 30).isEmpty)
        }
    }

    @Test("a claim whose lease ran out before its send ended neither releases nor retries the push another claim now holds",
          arguments: StoreKind.tested)
    func staleClaimLeavesTheNewOne(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store)
            _ = try await update(store)
            let now = Fixtures.now
            let stale = try await store.claimPushes(limit: 10, now: now, lease: 30)
            let current = try await store.claimPushes(limit: 10, now: now.addingTimeInterval(31), lease: 30)
            #expect(stale.count == 2 && current.map(\.id) == stale.map(\.id))
            #expect(stale.allSatisfy { $0.claimedUntil != nil } && stale.map(\.claimedUntil) != current.map(\.claimedUntil))

            // The first claimer's send ends late, failed for the moment: the push is the second claimer's now.
            try await store.retryPush(stale[0], notBefore: now.addingTimeInterval(35))
            // Another change bumps both entries; the first claimer completes the other one late: not released either.
            _ = try await update(store)
            try await store.completePush(stale[1])
            let meanwhile = try await store.claimPushes(limit: 10, now: now.addingTimeInterval(45), lease: 30)
            #expect(meanwhile.isEmpty, "a stale claim released the current one: \(meanwhile)")

            // The current claim's own results still count: released for the newer change, claimed again at once.
            for push in current { try await store.completePush(push) }
            let next = try await store.claimPushes(limit: 10, now: now.addingTimeInterval(46), lease: 30)
            #expect(next.map(\.id) == current.map(\.id) && next.allSatisfy { $0.attempts == 0 && $0.generation == 2 })
        }
    }

    @Test("a change during a push's flight bumps its generation, so completing the old claim keeps it queued",
          arguments: StoreKind.tested)
    func generationBump(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store)
            _ = try await update(store)
            let inFlight = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(inFlight.count == 2 && inFlight.allSatisfy { $0.generation == 1 })
            #expect(try await update(store).pushesQueued == 0)

            for push in inFlight { try await store.completePush(push) }
            // The claims were released: the newer change goes out at once, as the next generation.
            let next = try await store.claimPushes(limit: 10, now: Fixtures.now.addingTimeInterval(1), lease: 30)
            #expect(next.map(\.id) == inFlight.map(\.id))
            #expect(next.allSatisfy { $0.generation == 2 })
            for push in next { try await store.completePush(push) }
            #expect(try await store.claimPushes(limit: 10, now: Fixtures.now.addingTimeInterval(100), lease: 30).isEmpty)
            #expect(try await update(store).pushesQueued == 2)
        }
    }
}

extension PassStoreConformanceTests {
    @Test("a device that replaces its push token takes what is queued for the old one, also a push in flight; a shared token keeps its own",
          arguments: StoreKind.tested)
    func replacedTokenTakesItsPushes(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store, serialNumbers: ["Q1", "Q2"])
            _ = try await Fixtures.register("dev-3", token: "token-b", "Q2", in: store)
            _ = try await update(store)
            // dev-3 comes back (a restored phone) with a new token before the push went out.
            #expect(try await Fixtures.register("dev-3", token: "token-c", "Q2", in: store) == .updated)
            var pushes = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(pushes.map(\.pushToken).sorted() == ["token-a", "token-c"], "\(pushes)")

            // A send in flight to the old token when the device moves on: completing it leaves the push for the
            // next claim, to the new token.
            for push in pushes where push.pushToken == "token-a" { try await store.completePush(push) }
            for push in pushes where push.pushToken == "token-c" { try await store.retryPush(push, notBefore: Fixtures.now) }
            _ = try await update(store, "Q2")
            let inFlight = try #require(try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30).first)
            #expect(inFlight.pushToken == "token-c")
            _ = try await Fixtures.register("dev-3", token: "token-d", "Q1", in: store)
            try await store.completePush(inFlight)
            pushes = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(pushes.map(\.pushToken) == ["token-d"], "\(pushes)")
            for push in pushes { try await store.completePush(push) }

            // dev-1 and dev-2 share token-a: dev-1 moving on leaves the queued push with dev-2's token, and its new
            // token gets one too.
            _ = try await update(store)
            _ = try await Fixtures.register("dev-1", token: "token-e", "Q1", in: store)
            pushes = try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
            #expect(pushes.map(\.pushToken).sorted() == ["token-a", "token-d", "token-e"], "\(pushes)")
        }
    }

    @Test("a send to the old token failing for the moment does not hold back the push moved to the new token",
          arguments: StoreKind.tested)
    func retryOfAMovedPush(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await seedQueue(store, serialNumbers: ["Q1", "Q2"])
            _ = try await Fixtures.register("dev-3", token: "token-b", "Q2", in: store)
            _ = try await update(store, "Q2")
            let toOld = try #require(try await store.claimPushes(limit: 10, now: Fixtures.now, lease: 30)
                .first { $0.pushToken == "token-b" })
            _ = try await Fixtures.register("dev-3", token: "token-c", "Q2", in: store)
            // APNs answers the old token's send with a 503: the backoff was that send's, not the new token's.
            try await store.retryPush(toOld, notBefore: Fixtures.now.addingTimeInterval(300))
            let due = try await store.claimPushes(limit: 10, now: Fixtures.now.addingTimeInterval(1), lease: 30)
            #expect(due.map(\.pushToken).contains("token-c"), "\(due)")
        }
    }
}
