public import Foundation
public import Logging
import Synchronization

/// A log handler keeping every line as swift-log's stream handler would print it, for tests that read the log.
public final class RecordedLogs: Sendable {
    public struct Line: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        /// The line as `StreamLogHandler` formats it: `level label: message key=value`.
        public var printed: String {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(level) tessera: \(message) \(pairs)"
        }
    }

    private let storage = Mutex([Line]())

    /// Creates an empty log.
    public init() {}

    /// Every line so far.
    public var lines: [Line] { storage.withLock { $0 } }

    /// A logger writing here, at `level` and above.
    public func logger(level: Logger.Level = .trace) -> Logger {
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
