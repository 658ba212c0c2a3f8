public import Foundation
public import GRDB
import Synchronization
public import PassStore

/// A ``PassStore/PassStore`` in one SQLite file (WAL mode) through a GRDB `DatabasePool`: the default store.
///
/// Writes go through the pool's single writer, one transaction per method; reads go through its concurrent readers,
/// so device requests are answered in parallel while an update commits. Statements are prepared once per connection
/// and cached. Call ``migrate()`` once before use.
public final class SQLiteStore: PassStore {
    /// How to open the database.
    public struct Configuration: Sendable {
        /// Path of the database file; its folder is created when missing.
        public var path: String
        /// How many connections may read at the same time: the device endpoints' single-statement reads, and
        /// separately the reads other stores sharing this file make through the `DatabasePool` (the checkout store).
        public var maximumReaderCount: Int
        /// How long a statement waits for another process's lock before failing, in seconds.
        public var busyTimeout: TimeInterval
        /// Bytes of the file the writer and the `DatabasePool`'s readers may each memory-map (`PRAGMA mmap_size`),
        /// shared through the OS page cache.
        public var memoryMapSize: Int
        /// Bytes of the file each of the device endpoints' read-only connections may memory-map; none by default.
        /// A page counts in the process's resident set once for every mapping it is resident in, so eight readers
        /// mapping the same pages made the server look up to twice its size (during a campaign, 621-901 MB of VmRSS
        /// against about 500 MB without their mappings), and their reads are no slower without (docs/benchmarks.md).
        public var readerMemoryMapSize: Int
        /// Whether the log is copied into the file by ``runCheckpoints(every:)`` rather than by the commits. By default
        /// the commit that fills the log past 1,000 pages copies it (SQLite's automatic checkpoint), and every write
        /// waiting for the writer waits for that copy too. Only for a process that runs ``runCheckpoints(every:)``:
        /// without it the log grows without end.
        public var checkpointsInBackground: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - path: Path of the database file.
        ///   - maximumReaderCount: How many connections may read at the same time.
        ///   - busyTimeout: How long to wait for another process's lock, in seconds.
        ///   - memoryMapSize: Bytes of the file the writer and the pool's readers may memory-map (0 turns it off).
        ///   - readerMemoryMapSize: Bytes of the file each device-endpoint reader may memory-map (0, the default: none).
        ///   - checkpointsInBackground: Whether ``runCheckpoints(every:)`` copies the log into the file.
        public init(path: String, maximumReaderCount: Int = 8, busyTimeout: TimeInterval = 5, memoryMapSize: Int = 256 << 20,
                    readerMemoryMapSize: Int = 0, checkpointsInBackground: Bool = false)
        {
            self.path = path
            self.maximumReaderCount = maximumReaderCount
            self.busyTimeout = busyTimeout
            self.memoryMapSize = memoryMapSize
            self.readerMemoryMapSize = readerMemoryMapSize
            self.checkpointsInBackground = checkpointsInBackground
        }
    }

    /// The database file's GRDB pool (WAL: one writer, concurrent readers), shared with the other stores that keep
    /// their tables in the same file (checkout), which write through it in transactions of their own.
    public let pool: DatabasePool
    /// Read-only connections for the device endpoints' single-statement reads.
    private let readers: ReadConnections
    /// The tables of the kind of item this store holds (passes, or orders for ``orderStore()``).
    let tables: Tables
    /// Device registrations, written together when they arrive at once (see ``WriteBatcher``).
    let registrationWrites: WriteBatcher<RegistrationWrite, RegistrationWritten>

    /// Creates the database file empty (a valid empty database) and readable by its owner only, unless it exists:
    /// SQLite would make it with the umask's permissions (readable by every local user), and gives its `-wal` and
    /// `-shm` files the database file's. An existing file keeps the permissions its operator gave it.
    static func createPrivately(_ path: String) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens (or creates) the database file of a configuration.
    /// - Parameter configuration: Where the file is and how to open it.
    /// - Throws: ``PassStoreError/unavailable(_:)`` when the folder cannot be created or the file cannot be opened.
    public init(configuration: Configuration) throws {
        let folder = URL(fileURLWithPath: configuration.path).deletingLastPathComponent()
        do {
            // The file holds bearer secrets (passes' authentication and download tokens, checkout client secrets):
            // a folder made here is its owner's only.
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw PassStoreError.unavailable("cannot create the folder \(folder.path): \(error)")
        }
        Self.createPrivately(configuration.path)
        var config = GRDB.Configuration()
        config.label = "tessera.store"
        config.foreignKeysEnabled = true
        config.maximumReaderCount = max(1, configuration.maximumReaderCount)
        config.busyMode = .timeout(configuration.busyTimeout)
        let memoryMapSize = max(0, configuration.memoryMapSize)
        let readerMemoryMapSize = max(0, configuration.readerMemoryMapSize)
        let inBackground = configuration.checkpointsInBackground
        config.prepareDatabase { db in
            // In WAL mode, NORMAL is safe against corruption; only the last commits may be lost on power failure.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if inBackground { try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        }
        // The device endpoints' connections: the same settings, read-only, with a mapping of their own size.
        var readerConfig = config
        readerConfig.label = "tessera.store.reader"
        readerConfig.readonly = true
        readerConfig.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(readerMemoryMapSize)") }
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(memoryMapSize)") }
        do {
            pool = try DatabasePool(path: configuration.path, configuration: config)
        } catch {
            throw PassStoreError.unavailable("cannot open \(configuration.path): \(error)")
        }
        readers = ReadConnections(path: configuration.path, configuration: readerConfig,
                                  maximumCount: max(1, configuration.maximumReaderCount))
        tables = .passes
        registrationWrites = Self.registrationWrites(pool, .passes)
    }

    private init(sharing store: SQLiteStore, tables: Tables) {
        pool = store.pool
        readers = store.readers
        self.tables = tables
        registrationWrites = Self.registrationWrites(pool, tables)
    }

    /// The Wallet orders beside this store's passes: the same file, connections and device protocol machinery
    /// (registrations, update tags, `lastModified`, push queue, authentication lookup), over tables of their own, so
    /// nothing asked of one kind ever reads or changes the other. Records hold the `orderTypeIdentifier` as
    /// ``PassStore/PassRecord/passTypeIdentifier`` and the `orderIdentifier` as ``PassStore/PassRecord/serialNumber``.
    /// - Returns: A store of orders sharing this store's database (``migrate()`` on either creates both kinds' tables).
    public func orderStore() -> SQLiteStore {
        SQLiteStore(sharing: self, tables: .orders)
    }

    /// Opens (or creates) the database file at a path with the default configuration.
    /// - Parameter path: Path of the database file; its folder is created when missing.
    /// - Throws: ``PassStoreError/unavailable(_:)`` when the file cannot be opened.
    public convenience init(path: String) throws {
        try self.init(configuration: Configuration(path: path))
    }

    /// Creates the tables or brings them up to date (GRDB migrations, each applied once).
    public func migrate() async throws {
        // A file a newer release migrated is refused, not written with this release's idea of its tables.
        let newer = try Self.migrations(in: pool, unknownTo: Self.migrator) { $0.hasPrefix("v") }
        if !newer.isEmpty {
            throw PassStoreError.unavailable(Self.newerRelease(pool.path, newer))
        }
        do {
            try Self.migrator.migrate(pool)
        } catch {
            // Named, with the cause a person can act on: a full disk is the common one at an upgrade.
            let full = (error as? DatabaseError)?.resultCode == .SQLITE_FULL
            throw PassStoreError.unavailable(
                "migration of \(pool.path) failed: \(error)" + (full ? " (the disk holding it is full: free space, then start again)" : ""))
        }
    }

    /// The migrations `pool`'s file records, of the family `belongs` picks (each store's migrations share a file),
    /// that `migrator` does not know: a newer release applied them.
    public static func migrations(in pool: DatabasePool, unknownTo migrator: DatabaseMigrator,
                                  belonging belongs: (String) -> Bool) throws -> [String] {
        do {
            return try pool.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                let known = Set(migrator.migrations)
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                    .filter { belongs($0) && !known.contains($0) }
            }
        } catch {
            throw PassStoreError.unavailable("\(pool.path): cannot read its migrations: \(error)")
        }
    }

    /// Why a file a newer release migrated is refused.
    public static func newerRelease(_ path: String, _ migrations: [String]) -> String {
        "\(path) was migrated by a newer release of tessera (\(migrations.joined(separator: "; "))): run that release or "
            + "a later one, as an older one must not write to it"
    }

    /// Runs `body` in one write transaction: rolled back when it throws. Database errors become ``PassStoreError``.
    /// Inlined into the store's methods, so a write costs no extra trip through the event loop's task queue.
    @inline(__always)
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch let error as PassStoreError {
            throw error
        } catch {
            throw PassStoreError.unavailable("\(error)")
        }
    }

    /// Runs `body`, a single SELECT, on one of the store's read-only connections, concurrently with the writer.
    ///
    /// Every read here is one statement, which SQLite already runs on one consistent snapshot, so no transaction is
    /// opened around it (a BEGIN/COMMIT pair doubled the cost of a lookup). Reads run on the calling thread: they are
    /// short indexed lookups that never wait for the writer (WAL), and hopping to a reader queue and back cost more
    /// than the query under load. A read can wait only for another read to hand back its connection (when more
    /// tasks read at once than `maximumReaderCount`), never for a write, and it waits suspended, not blocking its
    /// thread (an event loop under `tessera serve`).
    ///
    /// The connections are read-only GRDB `DatabaseQueue`s rather than the `DatabasePool`'s readers: a pool reader
    /// runs `PRAGMA schema_version` before every read (a second statement and a second round of SQLite's WAL read
    /// locks) to notice schema changes made by other connections, and this store's schema only changes in
    /// ``migrate()``, before any read. Statements are prepared with raw SQL, which SQLite re-prepares by itself if
    /// the schema ever changes under them.
    ///
    /// An idle connection is taken and the statement run without an `await`: under `tessera serve` every awaited
    /// call that does not suspend still costs a trip through the event loop's task queue (the loop runs tasks as
    /// its own executor, and each call hops back to the generic one), and a device request makes several reads. Only
    /// a read that finds every connection busy awaits one.
    @inline(__always)
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if let connection = readers.checkOutIfIdle() {
                defer { readers.checkIn(connection) }
                return try ReadConnections.run(body, on: connection)
            }
            return try await readers.read(body)
        } catch let error as PassStoreError {
            throw error
        } catch {
            throw PassStoreError.unavailable("\(error)")
        }
    }

    /// Takes the next update tag inside the current write transaction.
    static func nextUpdateTag(_ tables: Tables, _ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: tables.nextUpdateTag)
        guard let tag = try Int64.fetchOne(statement) else {
            throw PassStoreError.invalidData("counters: the \(tables.counter) row is missing")
        }
        return tag
    }
}

/// Read-only connections to the store's file, opened when first needed and reused; at most `maximumCount` at once.
///
/// A read that finds every connection busy suspends until one is handed back (its task gives up its thread), never
/// blocks: `tessera serve` runs tasks on the event loops, and a blocked loop stops every connection it serves.
final class ReadConnections: Sendable {
    private struct State {
        var idle: [DatabaseQueue] = []
        var open = 0
        var waiters: [CheckedContinuation<DatabaseQueue?, Never>] = []
    }

    private let path: String
    private let configuration: GRDB.Configuration
    private let maximumCount: Int
    private let state = Mutex(State())

    init(path: String, configuration: GRDB.Configuration, maximumCount: Int) {
        self.path = path
        self.configuration = configuration
        self.maximumCount = maximumCount
    }

    /// Runs `body` on an idle connection (a new one when none is idle and fewer than the maximum are open), waiting
    /// without blocking for one to come back when all are busy.
    func read<T>(_ body: (Database) throws -> T) async throws -> T {
        let connection = try await checkOut()
        defer { checkIn(connection) }
        return try Self.run(body, on: connection)
    }

    /// Runs `body` on a checked-out connection, on the calling thread.
    static func run<T>(_ body: (Database) throws -> T, on connection: DatabaseQueue) throws -> T {
        try connection.unsafeRead(body)
    }

    /// An idle connection, taken without waiting, or `nil` when none is idle (``read(_:)`` then opens or waits for
    /// one). Hand it back with ``checkIn(_:)``.
    func checkOutIfIdle() -> DatabaseQueue? {
        state.withLock { $0.idle.popLast() }
    }

    private enum Next {
        case use(DatabaseQueue)
        case open
        case wait
    }

    private func checkOut() async throws -> DatabaseQueue {
        while true {
            let next: Next = state.withLock { state in
                if let connection = state.idle.popLast() { return .use(connection) }
                if state.open < maximumCount {
                    state.open += 1
                    return .open
                }
                return .wait
            }
            switch next {
            case .use(let connection):
                return connection
            case .open:
                do {
                    return try DatabaseQueue(path: path, configuration: configuration)
                } catch {
                    giveUpPlace()
                    throw error
                }
            case .wait:
                // Handed a connection directly by checkIn, or nil when a place opened up (a failed open): try again.
                let handed: DatabaseQueue? = await withCheckedContinuation { continuation in
                    let resumeNow: Bool = state.withLock { state in
                        // Something may have come back between the first look and here.
                        if !state.idle.isEmpty || state.open < maximumCount { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume(returning: nil) }
                }
                if let handed { return handed }
            }
        }
    }

    /// Hands a connection back: to the longest-waiting read, or to the idle ones.
    func checkIn(_ connection: DatabaseQueue) {
        let waiter: CheckedContinuation<DatabaseQueue?, Never>? = state.withLock { state in
            if state.waiters.isEmpty {
                state.idle.append(connection)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: connection)
    }

    private func giveUpPlace() {
        let waiter: CheckedContinuation<DatabaseQueue?, Never>? = state.withLock { state in
            state.open -= 1
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.resume(returning: nil)
    }
}
