import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A new file only its owner can read (mode 0600 from the moment it exists) for a secret shown once: it never
/// replaces a file that is there, and it is made before the secret, so that no secret is made that could not be kept.
struct SecretFile {
    let path: String
    private let flag: String
    private let descriptor: Int32

    /// Creates the file, empty.
    /// - Parameters:
    ///   - path: Where.
    ///   - flag: The option that named it, for messages (`--secret-file`).
    /// - Throws: ``CommandFailure`` naming the file: it exists, its folder does not, or it cannot be created.
    init(creating path: String, flag: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            let reason = switch code {
            case EEXIST: "already exists: give the path of a new file (a secret is never written over another file)"
            case ENOENT: "the folder \(URL(fileURLWithPath: path).deletingLastPathComponent().path) does not exist"
            default: "cannot be created (\(String(cString: strerror(code))))"
            }
            throw CommandFailure(message: "\(flag) \(path): \(reason)")
        }
        self.path = path
        self.flag = flag
        self.descriptor = descriptor
    }

    /// Writes the secret and a line end, flushed to the disk, and closes the file; on failure the file is deleted.
    func write(_ secret: String) throws {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data((secret + "\n").utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(path)
            throw CommandFailure(message: "\(flag) \(path): cannot write the secret (\(error.localizedDescription))")
        }
    }

    /// Closes and deletes the file, to which nothing was written.
    func discard() {
        close(descriptor)
        unlink(path)
    }
}
