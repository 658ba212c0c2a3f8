import Foundation
import Logging
import Synchronization

/// A log handler keeping every line as swift-log's stream handler would print it, for tests that read the log.
final class RecordedLogs: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        /// The line as `StreamLogHandler` formats it: `level label: message key=value`.
        var printed: String {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(level) tessera: \(message) \(pairs)"
        }
    }

    private let storage = Mutex([Line]())

    var lines: [Line] { storage.withLock { $0 } }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "tessera.tests") { _ in Handler(logs: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: Line) { storage.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let logs: RecordedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var all = metadata
            if let extra = event.metadata { all.merge(extra) { $1 } }
            logs.append(Line(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}
