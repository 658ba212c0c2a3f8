import Foundation

/// Output helpers: messages to standard error, and a progress bar when standard error is a terminal.
enum Terminal {
    static let isInteractive = isatty(STDERR_FILENO) == 1

    static func error(_ message: String) {
        standardError("error: \(message)")
    }

    static func warning(_ message: String) {
        standardError("warning: \(message)")
    }

    static func standardError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Redraws a one-line progress bar on standard error.
    static func progress(done: Int, total: Int, failed: Int) {
        guard isInteractive, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(done)/\(total)" + (failed > 0 ? " (\(failed) failed)" : "")
        FileHandle.standardError.write(Data(line.utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
