import Foundation
import PassStore
import PostgresNIO
import PostgresStore
import Testing
import TesseraTestSupport

/// A campaign runner hands PostgreSQL a batch while the one before it is still being written.
extension CampaignStoreConformanceTests {
    @Test("PostgreSQL: a batch begun while the one before it is being written waits for that commit and is written",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func nextBatchWaitsForTheOneBefore() async throws {
        // The second store (the same schema, a pool of its own) holds a pass, so the first keeps its connections.
        try await withPostgresStores(count: 2) { stores in
            let store = stores[0]
            let serialNumbers = ["W1", "W2", "W3", "W4"]
            let before = try await Fixtures.insert(serialNumbers, into: store)
            for (index, serialNumber) in serialNumbers.enumerated() {
                _ = try await Fixtures.register("dev-\(index)", token: "token-\(index)", serialNumber, in: store)
            }
            _ = try await running("W", in: store)
            let logger = StoreKind.logger
            let (first, second) = try await stores[1].pool.transaction(mapError: { $0 }) { connection in
                // W2 held: the first batch locks the campaign's row, then waits for this transaction.
                let held = try await connection.query(
                    "SELECT serial_number FROM passes WHERE serial_number = 'W2' FOR UPDATE", logger: logger
                ).collect()
                try #require(held.count == 1)
                let first = Task {
                    try await store.writeCampaignBatch(
                        batch("W", after: nil, to: "W2", before[0..<2].map { change($0, data: #"{"w":1}"#) }),
                        now: Fixtures.now)
                }
                let firstPID = try await Self.blocked(by: "pg_backend_pid()", running: "UPDATE passes p SET", connection)
                // The next batch, read after the cursor the first one moves to: it waits for the first's commit.
                let second = Task {
                    try await store.writeCampaignBatch(
                        batch("W", after: "W2", to: "W4", before[2..<4].map { change($0, data: #"{"w":2}"#) }, finishes: true),
                        now: Fixtures.now)
                }
                _ = try await Self.blocked(by: "\(firstPID)", running: "FOR UPDATE", connection)
                return (first, second)
            }
            let firstWritten = try written(try await first.value)
            #expect(firstWritten.cursor == "W2" && firstWritten.changed == 2 && firstWritten.pushesQueued == 2)
            let done = try written(try await second.value)
            #expect(done.state == .done && done.cursor == "W4" && done.changed == 4 && done.pushesQueued == 4)
            let after = try await passes(serialNumbers, in: store)
            #expect(after.map(\.updateTag) == after.map(\.updateTag).sorted() && Set(after.map(\.updateTag)).count == 4)
            #expect(try await store.releaseCampaignPushes(limit: 10, now: Fixtures.now) == 4)
        }
    }

    /// Waits for a backend blocked by `blocker` (an SQL expression for a backend's process ID) whose query contains
    /// `text`, and returns its process ID.
    private static func blocked(by blocker: String, running text: String, _ connection: PostgresConnection) async throws
        -> Int32
    {
        let deadline = Date().addingTimeInterval(TestTime.seconds(20))
        while Date() < deadline {
            // A transaction keeps its first look at pg_stat_activity until told to look again.
            try await connection.query("SELECT pg_stat_clear_snapshot()", logger: StoreKind.logger)
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT pid FROM pg_stat_activity
                WHERE \(blocker) = ANY(pg_blocking_pids(pid)) AND position('\(text)' IN query) > 0
                """), logger: StoreKind.logger).collect()
            if let pid = try rows.first?.decode(Int32.self) { return pid }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PassStoreError.unavailable("no backend blocked by \(blocker) running \(text)")
    }
}
