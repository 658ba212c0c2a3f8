import Foundation
import PassStore
import PostgresStore
import Testing
import TesseraTestSupport

/// Analytics rollups in every store: installs, removals and updates folded from the event log once each, active passes
/// and devices by the hour they changed in, fetch and push counts added, and two PostgreSQL stores folding together.
@Suite("AnalyticsStore conformance")
struct AnalyticsStoreConformanceTests {
    static let kinds: [StoreKind] = StoreKind.tested.filter { $0 == .memory || $0 == .sqlite || $0 == .postgres }

    /// Folds until `count` events went in (PostgreSQL shows an event once every older transaction has ended).
    static func foldAll(_ store: any AnalyticsStore, count: Int) async throws {
        var folded = 0
        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
        while folded < count, ContinuousClock.now < deadline {
            let done = try await store.foldAnalytics(limit: 3)
            folded += done
            if done == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(folded == count, "folded \(folded) of \(count) events")
    }

    @Test("registrations, removals and updates fold into hourly rows with active counts; usage adds up", arguments: kinds)
    func rollups(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let analytics = try #require(store as? any AnalyticsStore)
            try await Fixtures.insert(["A1", "A2", "A3"], into: store)
            let hour = Fixtures.now
            // Device a has A1 and A2, b has A1; then a removes A2 and b removes A1 (A1 stays active through a).
            for (device, serial) in [("a", "A1"), ("a", "A2"), ("b", "A1")] {
                _ = try await Fixtures.register(device, token: "t-\(device)", serial, at: hour, in: store)
            }
            _ = try await Fixtures.register("a", token: "t-a2", "A1", at: hour, in: store)  // not a new install
            _ = try await store.updatePass(passTypeIdentifier: Fixtures.passType, serialNumber: "A3",
                                           change: PassChange(data: Data(#"{"x":1}"#.utf8)), now: hour)
            #expect(try await Fixtures.unregister("a", "A2", in: store))
            #expect(try await Fixtures.unregister("b", "A1", in: store))
            // The three passes' creations, then six device and issuer events; SQLite folded each in the transaction
            // that recorded it (its fold was never behind), so its worker finds none.
            try await Self.foldAll(analytics, count: kind == .sqlite ? 0 : 9)
            #expect(try await analytics.foldAnalytics(limit: 100) == 0, "each event is folded once")

            try await analytics.addUsage([
                UsageCount(kind: .fetch, hour: UsageCount.hour(of: hour), passTypeIdentifier: Fixtures.passType,
                           template: "event", count: 5),
                UsageCount(kind: .push, hour: UsageCount.hour(of: hour), passTypeIdentifier: Fixtures.passType,
                           template: "", count: 2),
            ])
            let filter = AnalyticsFilter(template: "event", templatePassType: Fixtures.passType)
            let all = try await analytics.analyticsRows(filter, from: hour.addingTimeInterval(-86_400),
                                                        to: Date().addingTimeInterval(86_400))
            #expect(all.baseline == ActiveCounts())
            let total = all.rows.reduce(into: AnalyticsRow(hour: hour)) { $0.add($1) }
            #expect(total.installs == 3 && total.removals == 2 && total.updates == 1)
            #expect(total.fetches == 5 && total.pushesSent == 2)
            #expect(total.activePassesChange == 1 && total.activeDevicesChange == 1, "A1 on device a")
            #expect(all.rows.first?.hour == Date(timeIntervalSince1970: Double(UsageCount.hour(of: hour))))

            let later = try await analytics.analyticsRows(filter, from: Date().addingTimeInterval(86_400 * 2),
                                                          to: Date().addingTimeInterval(86_400 * 3))
            #expect(later.rows.isEmpty && later.baseline == ActiveCounts(passes: 1, devices: 1))
            let other = try await analytics.analyticsRows(AnalyticsFilter(passTypeIdentifier: "pass.other"),
                                                          from: hour.addingTimeInterval(-86_400), to: Date())
            #expect(other.rows.isEmpty)
            #expect(try await analytics.activeCounts() == [
                ActiveGauge(passTypeIdentifier: Fixtures.passType, template: "event", counts: ActiveCounts(passes: 1, devices: 1)),
            ])
        }
    }

    @Test("a Google Wallet save counts as a device that has the pass; a repeated save or a delete of nothing counts nothing",
          arguments: kinds)
    func googleSaves(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let analytics = try #require(store as? any AnalyticsStore)
            let callbacks = try #require(store as? any GoogleCallbackStore)
            try await Fixtures.insert(["G1"], into: store)
            let hour = Fixtures.now
            func callback(_ nonce: String, save: Bool, at seconds: Double) async throws {
                _ = try await callbacks.recordGoogleCallback(
                    GoogleCallbackRecord(nonce: nonce, passTypeIdentifier: Fixtures.passType, serialNumber: "G1",
                                         objectId: "3388.\(Fixtures.passType).G1", isSave: save),
                    now: hour.addingTimeInterval(seconds))
            }
            try await callback("n1", save: true, at: 1)
            try await callback("n2", save: true, at: 2)  // saved again: nothing new
            // An iPhone adds it too: not a newly active pass (Google has it), a newly active device.
            _ = try await Fixtures.register("a", token: "t-a", "G1", at: hour.addingTimeInterval(3), in: store)
            try await callback("n3", save: false, at: 4)
            try await callback("n4", save: false, at: 5)  // deleted again: nothing
            try await Self.foldAll(analytics, count: kind == .sqlite ? 0 : 6)
            let filter = AnalyticsFilter(template: "event", templatePassType: Fixtures.passType)
            let all = try await analytics.analyticsRows(filter, from: hour.addingTimeInterval(-86_400),
                                                        to: Date().addingTimeInterval(86_400))
            let total = all.rows.reduce(into: AnalyticsRow(hour: hour)) { $0.add($1) }
            #expect(total.installs == 2 && total.removals == 1, "\(total)")
            #expect(total.activePassesChange == 1 && total.activeDevicesChange == 1, "\(total)")
        }
    }

    @Test("two PostgreSQL stores folding at once fold each event once")
    func twoFolders() async throws {
        guard !TestPostgres.skipped else { return }
        try await withPostgresStores(count: 2) { stores in
            try await Fixtures.insert((0..<40).map { "F\($0)" }, into: stores[0])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        _ = try await Fixtures.register("device-\(index)", token: "t", "F\(index)", in: stores[index % 2])
                    }
                }
                try await group.waitForAll()
            }
            let folded = try await withThrowingTaskGroup(of: Int.self) { group in
                for store in stores {
                    group.addTask {
                        var total = 0
                        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
                        while ContinuousClock.now < deadline {
                            total += try await store.foldAnalytics(limit: 5)
                            try await Task.sleep(for: .milliseconds(5))
                            let rows = try await store.analyticsRows(AnalyticsFilter(), from: Fixtures.now.addingTimeInterval(-3600),
                                                                     to: Date().addingTimeInterval(3600)).rows
                            if rows.reduce(0, { $0 + $1.installs }) >= 40 { break }
                        }
                        return total
                    }
                }
                return try await group.reduce(0, +)
            }
            // Forty creations, forty registrations.
            #expect(folded == 80)
            let rows = try await stores[1].analyticsRows(AnalyticsFilter(), from: Fixtures.now.addingTimeInterval(-3600),
                                                         to: Date().addingTimeInterval(3600)).rows
            #expect(rows.reduce(0) { $0 + $1.installs } == 40 && rows.reduce(0) { $0 + $1.activeDevicesChange } == 40)
        }
    }
}
