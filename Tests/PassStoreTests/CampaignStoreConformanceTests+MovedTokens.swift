import Foundation
import PassStore
import Testing

extension CampaignStoreConformanceTests {
    @Test("a push a running campaign holds for a device that replaces its token goes to the new token, and counts as sent",
          arguments: StoreKind.campaignKinds)
    func heldPushFollowsTheToken(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            try await Fixtures.insert(["M1", "M2"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "M1", in: store)
            _ = try await Fixtures.register("dev-1", token: "token-a", "M2", in: store)
            _ = try await running("MV", in: store)
            let current = try await passes(["M1", "M2"], in: store)
            _ = try written(try await store.writeCampaignBatch(
                batch("MV", after: nil, to: "M1", [change(current[0], data: #"{"m":1}"#)]), now: Fixtures.now))
            // The phone is restored while the campaign runs: it registers again with a new token.
            _ = try await Fixtures.register("dev-1", token: "token-b", "M2", in: store)
            let done = try written(try await store.writeCampaignBatch(
                batch("MV", after: "M1", to: "M2", [change(current[1], data: #"{"m":2}"#)], finishes: true), now: Fixtures.now))
            #expect(done.state == .done && done.pushesQueued == 1, "one push for the device: \(done)")
            #expect(try await store.releaseCampaignPushes(limit: 100, now: Fixtures.now) == 1)
            let pushes = try await claimAll(store)
            #expect(pushes.map(\.pushToken) == ["token-b"], "\(pushes)")
            for push in pushes { try await store.completePush(push) }
            #expect(try await store.campaign(id: "MV")?.pushesSent == 1)
        }
    }
}

extension CampaignStoreConformanceTests {
    @Test("a listing gives a selection by serial numbers as their count; the campaign read alone gives the list",
          arguments: StoreKind.campaignKinds)
    func listingCountsSerialNumbers(kind: StoreKind) async throws {
        try await withCampaignStore(kind) { store in
            let serials = (1...5_000).map { "S-\($0)" }
            let specification = try JSONSerialization.data(withJSONObject: [
                "select": ["passTypeIdentifier": Fixtures.passType, "serialNumbers": serials], "void": true,
                "message": "Cancelled",
            ], options: [.sortedKeys])
            _ = try await store.insertCampaign(NewCampaign(
                id: "LIST", specification: specification, requestHash: "h", idempotencyKey: nil, scheduledAt: nil),
                now: Fixtures.now)
            _ = try await store.insertCampaign(newCampaign("PLAIN"), now: Fixtures.now)
            let listed = try await store.campaigns(state: nil, limit: 10, beforeSequence: nil)
            #expect(listed.map(\.id) == ["PLAIN", "LIST"])
            let shown = try #require(try JSONSerialization.jsonObject(with: listed[1].specification) as? [String: Any])
            let select = try #require(shown["select"] as? [String: Any], "\(shown)")
            #expect(select["serialNumbers"] == nil && select["serialNumberCount"] as? Int == 5_000, "\(select)")
            #expect(select["passTypeIdentifier"] as? String == Fixtures.passType)
            #expect(shown["void"] as? Bool == true && shown["message"] as? String == "Cancelled")
            #expect(listed[0].specification == Self.specification)
            #expect(try await store.campaign(id: "LIST")?.specification == specification)
        }
    }
}
