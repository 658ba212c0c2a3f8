import Foundation
import PassStore
import PostgresStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// Redemption in every store: the rule's results in order, counting, voiding a used-up pass with its push and events,
/// idempotent repeats, unknown scans, lookups by barcode message, and many scans of one pass at once.
@Suite("RedemptionStore conformance")
struct RedemptionStoreConformanceTests {
    static let kinds: [StoreKind] = StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres }

    func redemptions(_ store: any PassStore) throws -> any RedemptionStore {
        try #require(store as? any RedemptionStore, "the store keeps no redemptions")
    }

    static func attempt(_ serial: String?, rule: RedemptionRule = .once, place: String? = nil, expired: Bool = false,
                        key: String? = nil, hash: String = "h") -> RedemptionAttempt {
        RedemptionAttempt(passTypeIdentifier: serial == nil ? nil : Fixtures.passType, serialNumber: serial,
                          place: place, rule: rule, expired: expired, idempotencyKey: key, requestHash: hash)
    }

    @Test("once: valid, then alreadyRedeemed with the first scan's time and place; voided and expired passes refused",
          arguments: kinds)
    func once(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            try await Fixtures.insert(["R1", "R2", "R3"], into: store)
            let first = try await redemptions.redeem(Self.attempt("R1", place: "Gate A"), now: Fixtures.now)
            #expect(first.result == .valid && first.redemptions == 1 && first.pass?.serialNumber == "R1")
            #expect(first.first == RedemptionSummary(redemptions: 1, firstRedeemedAt: Fixtures.now, firstPlace: "Gate A"))
            let later = Fixtures.now.addingTimeInterval(60)
            let second = try await redemptions.redeem(Self.attempt("R1", place: "Gate B"), now: later)
            #expect(second.result == .alreadyRedeemed && second.redemptions == 1)
            #expect(second.first?.firstPlace == "Gate A" && second.first?.firstRedeemedAt == Fixtures.now)
            #expect(second.scannedAt == later)

            _ = try await Fixtures.void("R2", in: store)
            #expect(try await redemptions.redeem(Self.attempt("R2"), now: later).result == .voided)
            #expect(try await redemptions.redeem(Self.attempt("R3", expired: true), now: later).result == .expired)
            #expect(try await redemptions.redemptionSummary(passTypeIdentifier: Fixtures.passType, serialNumber: "R3") == nil)
            let unknown = try await redemptions.redeem(Self.attempt(nil), now: later)
            #expect(unknown.result == .unknown && unknown.pass == nil && unknown.redemptions == 0)
            let missing = try await redemptions.redeem(Self.attempt("nope"), now: later)
            #expect(missing.result == .unknown && missing.pass == nil)
        }
    }

    @Test("count: every scan counts up to the limit; the last one voids the pass, queues its push, records events",
          arguments: kinds)
    func countAndVoid(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            let events = try #require(store as? any EventStore)
            try await Fixtures.insert(["P1", "U1"], into: store)
            #expect(try await Fixtures.register("device-p", token: "push-p", "P1", in: store) == .created)
            let punch = RedemptionRule(limit: 3, voidsWhenUsedUp: true)
            var results: [RedemptionOutcome] = []
            for _ in 0..<4 { results.append(try await redemptions.redeem(Self.attempt("P1", rule: punch), now: Fixtures.now)) }
            #expect(results.map(\.result) == [.valid, .valid, .valid, .alreadyRedeemed])
            #expect(results.map(\.redemptions) == [1, 2, 3, 3])
            #expect(results[1].pass?.voided == false && results[2].pass?.voided == true)
            #expect(results[2].pushesQueued == 1, "the voided version is pushed to the holder's device")
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "P1")?.voided == true)

            let unlimited = RedemptionRule(limit: nil, voidsWhenUsedUp: false)
            for expected in 1...5 {
                #expect(try await redemptions.redeem(Self.attempt("U1", rule: unlimited), now: Fixtures.now).redemptions == expected)
            }

            let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
            var recorded: [WalletEvent] = []
            while recorded.filter({ $0.type == "pass.redeemed" }).count < 8, ContinuousClock.now < deadline {
                recorded = try await events.events(after: .start, types: ["pass.redeemed", "pass.voided"], limit: 100)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(recorded.map(\.type) == Array(repeating: "pass.redeemed", count: 3) + ["pass.voided"]
                + Array(repeating: "pass.redeemed", count: 5))
            let third = try #require(try JSONSerialization.jsonObject(with: recorded[2].data) as? [String: Any])
            #expect(third["redemptions"] as? Int == 3 && third["limit"] as? Int == 3 && third["serialNumber"] as? String == "P1")
        }
    }

    @Test("an idempotency key answers a repeat as the first time, and refuses another scan", arguments: kinds)
    func idempotency(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            try await Fixtures.insert(["K1"], into: store)
            let first = try await redemptions.redeem(Self.attempt("K1", key: "scan-1", hash: "a"), now: Fixtures.now)
            let repeated = try await redemptions.redeem(
                Self.attempt("K1", key: "scan-1", hash: "a"), now: Fixtures.now.addingTimeInterval(5))
            #expect(first.result == .valid && !first.replayed)
            #expect(repeated.result == .valid && repeated.replayed && repeated.redemptions == 1)
            #expect(repeated.scannedAt == Fixtures.now)
            await #expect(throws: PassStoreError.idempotencyConflict("scan-1")) {
                _ = try await redemptions.redeem(Self.attempt("K1", key: "scan-1", hash: "b"), now: Fixtures.now)
            }
            #expect(try await redemptions.redeem(Self.attempt("K1"), now: Fixtures.now).result == .alreadyRedeemed)
            let unknown = try await redemptions.redeem(Self.attempt(nil, key: "scan-2"), now: Fixtures.now)
            #expect(try await redemptions.redeem(Self.attempt(nil, key: "scan-2"), now: Fixtures.now).replayed)
            #expect(unknown.result == .unknown)

            // Read back before anything is looked up: the first answer, a conflict, or nothing for a new key.
            let earlier = try #require(try await redemptions.earlierRedemption(idempotencyKey: "scan-1", requestHash: "a"))
            #expect(earlier.replayed && earlier.result == .valid && earlier.redemptions == 1)
            #expect(earlier.scannedAt == Fixtures.now && earlier.pass?.serialNumber == "K1")
            #expect(earlier.first?.firstRedeemedAt == Fixtures.now)
            #expect(try await redemptions.earlierRedemption(idempotencyKey: "scan-2", requestHash: "h")?.result == .unknown)
            #expect(try await redemptions.earlierRedemption(idempotencyKey: "scan-3", requestHash: "a") == nil)
            await #expect(throws: PassStoreError.idempotencyConflict("scan-1")) {
                _ = try await redemptions.earlierRedemption(idempotencyKey: "scan-1", requestHash: "b")
            }
        }
    }

    @Test("passes are found by the barcode message their data sets", arguments: kinds)
    func barcodeLookup(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            for (serial, data) in [
                ("B1", #"{"barcodeMessage":"MSG-1"}"#), ("B2", #"{"barcodes":[{"message":"MSG-2","format":"PKBarcodeFormatQR"}]}"#),
                ("B3", #"{"fields":{"seat":"1"}}"#), ("B4", #"{"barcodeMessage":"SHARED"}"#), ("B5", #"{"barcodeMessage":"SHARED"}"#),
            ] {
                var pass = Fixtures.newPass(serial)
                pass.data = Data(data.utf8)
                _ = try await store.insertPass(pass, now: Fixtures.now)
            }
            #expect(try await redemptions.passes(barcodeMessage: "MSG-1", limit: 2).map(\.serialNumber) == ["B1"])
            #expect(try await redemptions.passes(barcodeMessage: "MSG-2", limit: 2).map(\.serialNumber) == ["B2"])
            #expect(try await redemptions.passes(barcodeMessage: "SHARED", limit: 2).map(\.serialNumber) == ["B4", "B5"])
            #expect(try await redemptions.passes(barcodeMessage: "nothing", limit: 2).isEmpty)
            _ = try await store.updatePass(passTypeIdentifier: Fixtures.passType, serialNumber: "B3",
                                           change: PassChange(data: Data(#"{"barcodeMessage":"MSG-3"}"#.utf8)), now: Fixtures.now)
            #expect(try await redemptions.passes(barcodeMessage: "MSG-3", limit: 2).map(\.serialNumber) == ["B3"],
                    "a changed message is found at once")
            // A QR code's signed token of 2,800 characters (past what a B-tree index entry holds), written and found.
            let token = (0..<2_800).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".randomElement()! }
            var long = Fixtures.newPass("B6")
            long.data = try JSONSerialization.data(withJSONObject: ["barcodeMessage": String(token)])
            _ = try await store.insertPass(long, now: Fixtures.now)
            #expect(try await redemptions.passes(barcodeMessage: String(token), limit: 2).map(\.serialNumber) == ["B6"])
        }
    }

    @Test("32 scans of one ticket at once give exactly one valid", arguments: kinds)
    func concurrentScans(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            try await Fixtures.insert(["C1"], into: store)
            let results = try await withThrowingTaskGroup(of: RedemptionResult.self) { group in
                for gate in 0..<32 {
                    group.addTask {
                        try await redemptions.redeem(Self.attempt("C1", place: "Gate \(gate)"), now: Fixtures.now).result
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .valid }.count == 1)
            #expect(results.filter { $0 == .alreadyRedeemed }.count == 31)
        }
    }

    @Test("scans that void the pass they use up, beside changes of the same passes, all complete (no lock cycle)",
          arguments: kinds)
    func voidingScansBesideChanges(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let redemptions = try redemptions(store)
            let serials = (0..<24).map { "V\($0)" }
            try await Fixtures.insert(serials, into: store)
            // Once: the first scan voids. Twice: two scans that both see a count of 0 before they lock the pass, so the
            // second learns only under the lock that it uses the pass up.
            let once = RedemptionRule(limit: 1, voidsWhenUsedUp: true), twice = RedemptionRule(limit: 2, voidsWhenUsedUp: true)
            let results = try await withThrowingTaskGroup(of: RedemptionResult?.self) { group in
                for (index, serial) in serials.enumerated() {
                    let rule = index % 2 == 0 ? once : twice
                    for _ in 0..<2 {
                        group.addTask { try await redemptions.redeem(Self.attempt(serial, rule: rule), now: Fixtures.now).result }
                    }
                    group.addTask {
                        _ = try await store.updatePass(passTypeIdentifier: Fixtures.passType, serialNumber: serial,
                                                       change: PassChange(data: Data(#"{"seat":"\#(index)"}"#.utf8)),
                                                       now: Fixtures.now)
                        return nil
                    }
                }
                return try await group.reduce(into: [RedemptionResult]()) { if let result = $1 { $0.append(result) } }
            }
            #expect(results.filter { $0 == .valid }.count == 12 + 24, "once: one valid each; twice: two each")
            for serial in serials {
                let pass = try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: serial)
                #expect(pass?.voided == true && pass.map { String(decoding: $0.data, as: UTF8.self).contains("seat") } == true,
                        "\(serial)")
            }
        }
    }

    @Test("two PostgreSQL stores scanning one ticket together give one valid; one key used by both is answered once")
    func twoProcesses() async throws {
        guard !TestPostgres.skipped else { return }
        try await withPostgresStores(count: 2) { stores in
            try await Fixtures.insert(["D1", "D2"], into: stores[0])
            let results = try await withThrowingTaskGroup(of: RedemptionOutcome.self) { group in
                for scan in 0..<32 {
                    group.addTask {
                        try await stores[scan % 2].redeem(Self.attempt("D1"), now: Fixtures.now)
                    }
                    group.addTask {
                        try await stores[scan % 2].redeem(Self.attempt("D2", key: "same-key"), now: Fixtures.now)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let d1 = results.filter { $0.pass?.serialNumber == "D1" && !$0.replayed }
            let seen = results.map { "\($0.pass?.serialNumber ?? "-"):\($0.result.rawValue):\($0.redemptions)\($0.replayed ? "r" : "")" }
            let valid = d1.filter { $0.result == RedemptionResult.valid }.count
            #expect(valid == 1, "\(seen)")
            #expect(d1.count == 32, "\(seen)")
            let keyed = results.filter { $0.pass?.serialNumber == "D2" }
            #expect(keyed.count == 32 && keyed.allSatisfy { $0.result == .valid })
            #expect(keyed.filter { !$0.replayed }.count == 1, "one scan counted, 31 repeats answered from it")
            #expect(try await stores[1].redemptionSummary(passTypeIdentifier: Fixtures.passType, serialNumber: "D2")?.redemptions == 1)
        }
    }
}
