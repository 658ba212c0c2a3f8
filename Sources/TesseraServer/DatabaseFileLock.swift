#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ServiceLifecycle

/// One `tessera serve` process per SQLite file. A second process on the file would start without a word and then
/// post every webhook event a second time, and take over what the first holds (checkout authorizations in progress):
/// SQLite's store is built for one server process (PostgreSQL is for several). The lock is an exclusive `flock` on a
/// file beside the database (`PATH-server.lock`), not on the database itself, whose descriptors SQLite's own locks
/// depend on; the kernel releases it when the process ends, however it ends. A service, so that it is held for as long
/// as the server runs and released when it stops.
final class DatabaseFileLock: Service, Sendable {
    private let descriptor: Int32

    /// Takes the lock of the SQLite database at `databasePath`.
    /// - Throws: ``ServerConfigurationError`` naming `database` when another process holds it, or the lock file cannot
    ///   be opened.
    init(databasePath: String) throws {
        let path = databasePath + "-server.lock"
        // The store creates the database's folder; the lock beside it comes first.
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: databasePath).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerConfigurationError(setting: "database", "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK
                ? "another tessera serve process uses the SQLite database \(databasePath) (it holds \(path)); SQLite "
                    + "takes one server process: stop the other, or use PostgreSQL (postgres://…) for several"
                : "cannot lock \(path): \(String(cString: strerror(errno)))"
            close(descriptor)
            throw ServerConfigurationError(setting: "database", reason)
        }
        self.descriptor = descriptor
    }

    func run() async throws {
        // Held until the server stops; released by deinit (and by the kernel at exit).
        try? await gracefulShutdown()
    }

    deinit {
        close(descriptor)
    }
}
