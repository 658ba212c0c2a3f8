public import Logging

/// swift-log's stream handler (the same lines, on standard error unless told otherwise), with the logger's metadata
/// turned into text only when a line is written.
///
/// `StreamLogHandler` rebuilds the text of its metadata (every key sorted and joined) whenever a key is set, and the
/// HTTP server sets a request identifier on every request's logger: at the default level no line is written for a
/// device's request, yet each one paid for that text. Here the metadata is kept as it is and handed to the stream
/// handler with each line written, which merges and prints it exactly as it prints its own.
public struct DeferredMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler

    /// The logger's metadata, printed with each line.
    public var metadata: Logger.Metadata = [:]

    /// Adds metadata to each line, under the logger's own and over any given with the line.
    public var metadataProvider: Logger.MetadataProvider?

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    /// A handler writing to standard error, as swift-log's default does.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        stream = StreamLogHandler.standardError(label: label, metadataProvider: nil)
        self.metadataProvider = metadataProvider
    }

    /// A handler writing its lines to `stream`.
    public init(label: String, stream: any TextOutputStream & Sendable,
                metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.stream = StreamLogHandler(label: label, stream: stream, metadataProvider: nil)
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the line with the logger's metadata, then the provider's, then the line's own (a later one wins a key),
    /// the order `StreamLogHandler` merges them in.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit) { _, explicit in explicit }
        }
        var event = event
        event.metadata = merged
        stream.log(event: event)
    }
}
