import Foundation
import PassStore
import PostgresStore
import Testing

@Suite("PostgresStore")
struct PostgresStoreTests {
    @Test("two instances on one database migrate together and never claim the same push (passes and orders)",
          .enabled(if: StoreKind.tested.contains(.postgres)), arguments: [false, true])
    func twoInstancesClaim(orders: Bool) async throws {
        try await withPostgresStores(count: 2) { instances in
            let stores = orders ? instances.map { $0.orderStore() } : instances
            let serialNumbers = (0..<60).map { "P\($0)" }
            try await Fixtures.insert(serialNumbers, into: stores[0])
            for (index, serialNumber) in serialNumbers.enumerated() {
                _ = try await Fixtures.register("dev-\(index)", token: "token-\(index)", serialNumber, in: stores[index % 2])
                _ = try await stores[1 - index % 2].updatePass(
                    passTypeIdentifier: Fixtures.passType, serialNumber: serialNumber, change: PassChange(voided: true),
                    now: Fixtures.now
                )
            }
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var ids: [Int64] = []
                        while true {
                            let pushes = try await stores[worker % 2].claimPushes(limit: 3, now: Fixtures.now, lease: 60)
                            if pushes.isEmpty { return ids }
                            ids += pushes.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(claims.count == 60)
            #expect(Set(claims).count == 60)
        }
    }

    @Test("configuration is read from a postgres:// URL")
    func configurationFromURL() throws {
        let configuration = try PostgresStore.Configuration(
            url: "postgresql://tess%40ra:p%3Ass@db.example.com:6543/passes?sslmode=require&schema=wallet&max_connections=4"
        )
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "tess@ra")
        #expect(configuration.password == "p:ss")
        #expect(configuration.database == "passes")
        #expect(configuration.tls == .require)
        #expect(configuration.schema == "wallet")
        #expect(configuration.maximumConnections == 4)

        let plain = try PostgresStore.Configuration(url: "postgres://postgres@127.0.0.1:54329/tessera_test")
        #expect(plain.tls == .disable && plain.password == nil && plain.port == 54329)
        #expect(throws: PassStoreError.self) { try PostgresStore.Configuration(url: "mysql://x@y/z") }
        #expect(throws: PassStoreError.self) { try PostgresStore.Configuration(url: "postgres://x@y/z?sslmode=maybe") }
    }
}
