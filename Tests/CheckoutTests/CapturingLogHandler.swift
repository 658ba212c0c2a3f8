import Logging
import Synchronization

/// A log handler that keeps every message with its metadata as text, for tests that read what was logged.
struct CapturingLogHandler: LogHandler {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.level) \(event.message) \(merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })")
    }

    /// A logger at trace level writing into `lines`.
    static func logger(_ lines: Lines) -> Logger {
        Logger(label: "test.capture") { _ in CapturingLogHandler(lines: lines) }
    }
}
