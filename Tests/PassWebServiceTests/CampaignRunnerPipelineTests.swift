import Foundation
import Logging
import PassModel
import PassStore
import PassWebService
import Synchronization
import Testing
import TesseraTestSupport

/// The campaign runner hands the store a batch while the one before it is still being written, and recovers when
/// one of them is not written: every pass changes exactly once.
@Suite("Campaign runner: batches written while the one before commits")
struct CampaignRunnerPipelineTests {
    /// The fixture's store, with each batch write slowed down and counted, and handed to the store in the order the
    /// writes began (as PostgreSQL's campaign row lock orders them); one write can be preceded by an issuer's change
    /// of one of its passes (as a `PATCH` landing between the batch's read and its write).
    final class PacedStore: CampaignStore {
        let base: MemoryPassStore
        let interfereAtWrite: Int
        private let writes = Atomic<Int>(0)
        private let inFlight = Atomic<Int>(0)
        private let mostInFlight = Atomic<Int>(0)
        private let interfered = Mutex<String?>(nil)
        private let finished = Atomic<Int>(0)

        struct OtherProcessFailed: Error {}

        /// The write this store lets another process win: that process writes the same batch just before it.
        let otherProcessAtWrite: Int

        init(base: MemoryPassStore, interfereAtWrite: Int, overlaps: Bool, otherProcessAtWrite: Int = 0) {
            self.base = base
            self.interfereAtWrite = interfereAtWrite
            self.overlapsCampaignBatchWrites = overlaps
            self.otherProcessAtWrite = otherProcessAtWrite
        }

        /// As PostgreSQL (the runner keeps two batches with it), or as SQLite.
        let overlapsCampaignBatchWrites: Bool
        var writeCount: Int { writes.load(ordering: .relaxed) }
        var mostWritesAtOnce: Int { mostInFlight.load(ordering: .relaxed) }
        var interferedSerial: String? { interfered.withLock { $0 } }

        func writeCampaignBatch(_ batch: CampaignBatch, now: Date) async throws -> CampaignBatchOutcome {
            let number = writes.add(1, ordering: .relaxed).newValue
            let running = inFlight.add(1, ordering: .relaxed).newValue
            var most = mostInFlight.load(ordering: .relaxed)
            while running > most {
                let (exchanged, original) = mostInFlight.compareExchange(expected: most, desired: running, ordering: .relaxed)
                if exchanged { break }
                most = original
            }
            defer {
                inFlight.subtract(1, ordering: .relaxed)
                finished.add(1, ordering: .relaxed)
            }
            try await Task.sleep(for: .milliseconds(40))
            while finished.load(ordering: .relaxed) < number - 1 { try await Task.sleep(for: .milliseconds(2)) }
            if number == interfereAtWrite, let change = batch.changes.first {
                var document = try JSONDecoder().decode([String: JSONValue].self, from: change.previous?.data ?? Data("{}".utf8))
                document["holder"] = .string("changed between read and write")
                let data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
                _ = try await base.updatePass(
                    passTypeIdentifier: batch.passTypeIdentifier, serialNumber: change.serialNumber,
                    change: PassChange(data: data), now: now)
                interfered.withLock { $0 = change.serialNumber }
            }
            if number == otherProcessAtWrite {
                guard case .written = try await base.writeCampaignBatch(batch, now: now) else { throw OtherProcessFailed() }
            }
            return try await base.writeCampaignBatch(batch, now: now)
        }

        func insertCampaign(_ campaign: NewCampaign, now: Date) async throws -> (campaign: CampaignRecord, inserted: Bool) {
            try await base.insertCampaign(campaign, now: now)
        }
        func campaign(id: String) async throws -> CampaignRecord? { try await base.campaign(id: id) }
        func campaign(idempotencyKey: String) async throws -> CampaignRecord? {
            try await base.campaign(idempotencyKey: idempotencyKey)
        }
        func campaigns(state: CampaignState?, limit: Int, beforeSequence: Int64?) async throws -> [CampaignRecord] {
            try await base.campaigns(state: state, limit: limit, beforeSequence: beforeSequence)
        }
        func cancelCampaign(id: String, now: Date) async throws -> CampaignRecord? { try await base.cancelCampaign(id: id, now: now) }
        func startDueCampaigns(now: Date) async throws -> [CampaignRecord] { try await base.startDueCampaigns(now: now) }
        func nextScheduledCampaign() async throws -> Date? { try await base.nextScheduledCampaign() }
        func failCampaign(id: String, reason: String, now: Date) async throws {
            try await base.failCampaign(id: id, reason: reason, now: now)
        }
        func campaignPasses(_ selection: CampaignPassSelection, after cursor: String?, limit: Int) async throws -> [PassRecord] {
            try await base.campaignPasses(selection, after: cursor, limit: limit)
        }
        func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int {
            try await base.releaseCampaignPushes(limit: limit, now: now)
        }
    }

    @Test("a campaign accepted while another runs is run at once, beside it, not after it ends")
    func campaignsRunSideBySide() async throws {
        let fixture = try WebServiceFixture()
        let serials = (1...40).map { String(format: "S%02d", $0) }
        var passType = ""
        for serial in serials { passType = try await fixture.createPass(serial: serial).passTypeIdentifier }
        // Each batch write takes 40 ms or more: the long campaign, a pass a batch, runs for 1.6 s at least.
        let store = PacedStore(base: fixture.store, interfereAtWrite: 0, overlaps: false)
        let clock = fixture.clock
        let service = CampaignService(issuer: fixture.issuer, store: store, now: { clock.now })
        let runner = CampaignRunner(
            issuer: fixture.issuer, store: store, configuration: .init(batchSize: 1, writesInFlight: 1),
            logger: Logger(label: "test.campaigns"), now: { clock.now })
        let running = Task { try await runner.run() }
        defer { running.cancel() }
        let (long, _) = try await service.create(
            body: ["select": .object(["template": .string("event-ticket")]), "data": .object(["fields": .object(["seat": .string("L")])])],
            idempotencyKey: nil)
        runner.notify()
        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(30))
        while try await store.campaign(id: long.id)?.changed ?? 0 < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let (short, _) = try await service.create(
            body: ["select": .object(["passTypeIdentifier": .string(passType), "serialNumbers": .array([.string("S40")])]),
                   "void": .bool(true)],
            idempotencyKey: nil)
        runner.notify()
        var shortState = try await store.campaign(id: short.id)
        while shortState?.state != .done, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            shortState = try await store.campaign(id: short.id)
        }
        let longState = try #require(try await store.campaign(id: long.id))
        #expect(shortState?.state == .done && shortState?.changed == 1)
        #expect(longState.state == .running && longState.changed < serials.count,
                "the short campaign ended while the long one ran (\(longState.changed) of \(serials.count) changed)")
        while try await store.campaign(id: long.id)?.state != .done, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        // Every pass but the one the short campaign voided first (voided passes are left out of a data change).
        #expect(try await store.campaign(id: long.id)?.changed == serials.count - 1)
    }

    @Test("12 passes in batches of 3, two writes at once (one where the store cannot overlap them), the second batch's pass changed before its write",
          arguments: [true, false])
    func pipelined(overlaps: Bool) async throws {
        let fixture = try WebServiceFixture()
        let serials = (1...12).map { String(format: "P%02d", $0) }
        var passType = ""
        for serial in serials { passType = try await fixture.createPass(serial: serial).passTypeIdentifier }
        // Three devices holding four passes each.
        for (index, serial) in serials.enumerated() {
            _ = try await fixture.store.register(
                deviceLibraryIdentifier: "device-\(index / 4)", pushToken: String(repeating: "\(index / 4)", count: 64),
                passTypeIdentifier: passType, serialNumber: serial, now: fixture.clock.now)
        }
        let store = PacedStore(base: fixture.store, interfereAtWrite: 2, overlaps: overlaps)
        let clock = fixture.clock
        let service = CampaignService(issuer: fixture.issuer, store: store, now: { clock.now })
        let runner = CampaignRunner(
            issuer: fixture.issuer, store: store, configuration: .init(batchSize: 3, writesInFlight: 2),
            logger: Logger(label: "test.campaigns"), now: { clock.now })
        let (accepted, _) = try await service.create(
            body: ["select": .object(["template": .string("event-ticket")]), "data": .object(["fields": .object(["seat": .string("9")])])],
            idempotencyKey: nil)
        try await runner.runDueCampaigns()

        let campaign = try #require(try await store.campaign(id: accepted.id))
        #expect(campaign.state == .done)
        #expect(campaign.matched == 12 && campaign.changed == 12 && campaign.failed == 0)
        #expect(campaign.pushesQueued == 3)
        #expect(store.mostWritesAtOnce == (overlaps ? 2 : 1))
        // 4 batches of 3 and an empty last one that finds nothing after P12; the second written twice (its pass
        // changed), and where writes overlap the third, handed over meanwhile, twice too.
        #expect(store.writeCount == (overlaps ? 7 : 6))

        let interfered = try #require(store.interferedSerial)
        var campaignVersions: [String: Int] = [:]
        for event in try await fixture.store.events(after: .start, types: ["pass.updated"], limit: 1_000) {
            let data = try JSONDecoder().decode([String: JSONValue].self, from: event.data)
            guard data["campaign"]?.stringValue == accepted.id, let serial = data["serialNumber"]?.stringValue else { continue }
            campaignVersions[serial, default: 0] += 1
        }
        #expect(campaignVersions == Dictionary(uniqueKeysWithValues: serials.map { ($0, 1) }))
        for serial in serials {
            let pass = try #require(try await fixture.store.pass(passTypeIdentifier: passType, serialNumber: serial))
            let document = try JSONDecoder().decode([String: JSONValue].self, from: pass.data)
            #expect(document["fields"]?.objectValue?["seat"]?.stringValue == "9", "\(serial)")
            // The change made between the read and the write is kept: the batch was read again.
            #expect((document["holder"] != nil) == (serial == interfered), "\(serial)")
        }
    }

    @Test("another process writes the second batch first: the third, handed over meanwhile, is still written, and logged")
    func batchAfterOneWrittenElsewhere() async throws {
        let fixture = try WebServiceFixture()
        let serials = (1...12).map { String(format: "P%02d", $0) }
        for serial in serials { _ = try await fixture.createPass(serial: serial) }
        let store = PacedStore(base: fixture.store, interfereAtWrite: 0, overlaps: true, otherProcessAtWrite: 2)
        let clock = fixture.clock
        let logs = RecordedLogs()
        let runner = CampaignRunner(
            issuer: fixture.issuer, store: store,
            configuration: .init(batchSize: 3, pollInterval: .milliseconds(20), writesInFlight: 2),
            logger: logs.logger(), now: { clock.now })
        let (accepted, _) = try await CampaignService(issuer: fixture.issuer, store: store, now: { clock.now }).create(
            body: ["select": .object(["template": .string("event-ticket")]), "data": .object(["fields": .object(["seat": .string("9")])])],
            idempotencyKey: nil)
        try await runner.runDueCampaigns()

        let campaign = try #require(try await store.campaign(id: accepted.id))
        #expect(campaign.state == .done && campaign.changed == 12)
        let messages = logs.lines.map(\.message)
        #expect(messages.filter { $0 == "campaign batch already written" }.count == 1)
        // Five batches (four of three passes and the empty last one): the other process wrote the second, this
        // runner the four others, the third while it learnt that the second was written.
        #expect(messages.filter { $0 == "campaign batch written" }.count == 4, "\(messages)")
        #expect(messages.filter { $0 == "campaign done" }.count == 1)
    }
}
