#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's path, size and modification time, as the watchers compare them, read with `stat` alone.
///
/// Foundation's file attributes also name the file's owner and group, and to do so read the user and group
/// databases (`/etc/passwd`, `/etc/group`, or a directory service behind NSS) once per file: a watcher looking at a
/// hundred template files every two seconds would ask for them a hundred times each time.
enum FileFingerprint {
    /// The fingerprint of a regular file (following symbolic links), or `nil` for anything else or nothing there.
    static func regularFile(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return "\(path)\u{0}\(status.st_size)\u{0}\(modified.tv_sec).\(modified.tv_nsec)"
    }

    /// The fingerprint of whatever is at `path`: a regular file's, or the path and `-1` when there is none (a file
    /// that appears counts as a change).
    static func entry(atPath path: String) -> String {
        regularFile(atPath: path) ?? "\(path)\u{0}-1"
    }
}
