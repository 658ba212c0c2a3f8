import Foundation
import PassStore
import PostgresNIO
import PostgresStore
import Testing
import TesseraTestSupport

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

    @Test("a migration holds up only its own schema: another schema's store migrates meanwhile, one on the same waits",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func migrationLockPerSchema() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 2, schemaPrefix: "tessera_lock_a", logger: StoreKind.logger) {
            sameSchema in
            try await sameSchema[0].migrate()
            try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_lock_b",
                                              logger: StoreKind.logger) { otherSchema in
                let waiting = try await sameSchema[0].pool.transaction(mapError: { $0 }) { connection in
                    // Holds schema A's migration lock, as a migrating process starved of CPU does.
                    try await connection.applyMigrations(
                        PostgresStore.migrations, versionTable: "schema_migrations", lockKey: PostgresStore.migrationLockKey,
                        kind: "store",
                        logger: StoreKind.logger
                    )
                    try await withTimeLimit(TestTime.seconds(60), "schema B's migration while A's lock is held") {
                        try await otherSchema[0].migrate()
                    }
                    let searchPath = try await connection.query("SELECT current_setting('search_path')",
                                                                logger: StoreKind.logger).collect()
                    let path = try #require(searchPath.first).decode(String.self)
                    let waiting = Task { try await sameSchema[1].migrate() }
                    // The second store on schema A queues for A's key (found in pg_locks), not past it.
                    let key = PostgresStore.migrationLockKey
                    var queued = false
                    for _ in 0..<Int(TestTime.seconds(60) * 10) where !queued {
                        let rows = try await otherSchema[0].pool.rows("""
                            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                            AND classid::bigint = (hashtextextended(\(path), \(key)) >> 32) & 4294967295
                            AND objid::bigint = hashtextextended(\(path), \(key)) & 4294967295
                            """, mapError: { $0 })
                        queued = try #require(rows.first).decode(Int64.self) == 1
                        if !queued { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(queued, "the second store on schema A did not wait for A's migration lock")
                    return waiting
                }
                try await withTimeLimit(TestTime.seconds(60), "schema A's second store after the lock was released") {
                    try await waiting.value
                }
            }
        }
    }

    @Test("a store at its first schema version is brought up to date, and a second migrate changes nothing",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func upgradeFromFirstVersion() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_upgrade", logger: StoreKind.logger) {
            stores in
            let store = stores[0]
            try await applyFirstMigrations(1, to: store)
            // A pass as version 1 stored it.
            _ = try await store.pool.rows("""
                INSERT INTO passes (pass_type_identifier, serial_number, authentication_token, template, data, voided,
                                    download_token, update_tag, last_modified, created_at)
                VALUES (\(Fixtures.passType), 'V1', 'token-of-version-one-000001', 'event-ticket', '\\x7b7d'::bytea,
                        false, 'download-of-version-one', 1, now(), now())
                """, mapError: { $0 })
            try await store.migrate()
            try await store.migrate()
            let versions = try await store.pool.rows("SELECT version FROM schema_migrations ORDER BY version",
                                                     mapError: { $0 }).map { try $0.decode(Int.self) }
            #expect(versions == Array(1...PostgresStore.migrations.count))
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "V1") != nil)
            #expect(try await store.campaigns(state: nil, limit: 10, beforeSequence: nil).isEmpty)
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
        #expect(plain.socketDirectory == nil && plain.socketPath == nil)
        #expect(plain.maximumConnections == min(32, 2 * ProcessInfo.processInfo.activeProcessorCount + 4))
    }

    @Test("a socket folder in the URL (libpq's host=/path, or a percent-encoded host) means the Unix-domain socket")
    func socketFolderFromURL() throws {
        let query = try PostgresStore.Configuration(url: "postgres://tessera@localhost:6543/passes?host=/var/run/postgresql/")
        #expect(query.socketDirectory == "/var/run/postgresql/")
        #expect(query.socketPath == "/var/run/postgresql/.s.PGSQL.6543")
        #expect(query.host == "localhost")
        let encoded = try PostgresStore.Configuration(url: "postgres://tessera@%2Ftmp%2Fpg/passes")
        #expect(encoded.socketPath == "/tmp/pg/.s.PGSQL.5432")
        let error = #expect(throws: PassStoreError.self) {
            try PostgresStore.Configuration(url: "postgres://tessera@localhost/passes?host=db.example.com")
        }
        #expect("\(error!)".contains("host=db.example.com"))
    }

    static let socketFolder = ProcessInfo.processInfo.environment["TESSERA_TEST_POSTGRES_SOCKET_DIR"].flatMap {
        $0.isEmpty ? nil : $0
    }

    @Test("connects through the server's Unix-domain socket",
          .enabled(if: StoreKind.tested.contains(.postgres)),
          .enabled(if: socketFolder != nil, """
              skipped: TESSERA_TEST_POSTGRES_SOCKET_DIR is not set (scripts/test.sh sets it when it starts the test \
              server itself; a server given by TESSERA_TEST_POSTGRES_URL may have no socket on this machine)
              """))
    func unixSocket() async throws {
        let url = try #require(TestPostgres.url)
        let folder = try #require(Self.socketFolder)
        let socketURL = url + (url.contains("?") ? "&" : "?") + "host=\(folder)&max_connections=2"
        try await TestPostgres.withStores(url: socketURL, count: 1, schemaPrefix: "tessera_unix", maximumConnections: 2,
                                          logger: StoreKind.logger) { stores in
            let store = stores[0]
            #expect(store.pool.size == 2)
            try await store.migrate()
            try await Fixtures.insert(["U1"], into: store)
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "U1") != nil)
            // A Unix-domain client has no address and port -1 in PostgreSQL's view of its own session.
            let rows = try await store.pool.rows(
                "SELECT client_addr IS NULL, client_port FROM pg_stat_activity WHERE pid = pg_backend_pid()",
                mapError: { $0 })
            let (noAddress, port) = try #require(rows.first).decode((Bool, Int32).self)
            #expect(noAddress && port == -1)
        }
    }
}
