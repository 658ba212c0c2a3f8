import Logging
import Synchronization
import Testing
import TesseraServer

/// `tessera` logs through ``DeferredMetadataLogHandler``: its lines must be the ones swift-log's stream handler writes
/// for the same logger, metadata and line, whatever the metadata's sources.
@Suite("Log lines with metadata made when written")
struct DeferredMetadataLogHandlerTests {
    /// Collects what a handler writes.
    final class Lines: TextOutputStream, Sendable {
        private let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
        /// The lines without their timestamps (the first word), which differ between two handlers a second apart.
        var withoutTimestamps: [String] {
            text.withLock { $0 }.split(separator: "\n").map { line in String(line.drop { $0 != " " }) }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the token was refused" }
    }

    /// Logs the same things through a logger of each handler and returns both handlers' lines.
    private func lines(provider: Logger.MetadataProvider?, _ body: (inout Logger) -> Void) -> (expected: [String], got: [String]) {
        let expected = Lines()
        let got = Lines()
        var reference = Logger(label: "tessera") { label in
            StreamLogHandler(label: label, stream: expected, metadataProvider: provider)
        }
        var deferred = Logger(label: "tessera") { label in
            DeferredMetadataLogHandler(label: label, stream: got, metadataProvider: provider)
        }
        reference.logLevel = .debug
        deferred.logLevel = .debug
        body(&reference)
        body(&deferred)
        return (expected.withoutTimestamps, got.withoutTimestamps)
    }

    @Test("the logger's metadata, changed between lines, with a line's own metadata over it and an error's")
    func sameLines() {
        let (expected, got) = lines(provider: nil) { logger in
            logger.info("no metadata yet")
            logger[metadataKey: "hb.request.id"] = "7f3a"
            logger[metadataKey: "route"] = "/v1/devices"
            logger.notice("listening", metadata: ["address": "127.0.0.1:8080", "route": "overridden"])
            logger[metadataKey: "route"] = nil
            logger.debug("below the level, then at it")
            logger.trace("never written")
            logger.error("registration refused", error: Failure())
            logger.warning("list", metadata: ["serials": ["A", "B"], "nested": ["k": "v"]])
        }
        #expect(got.count == 5)
        #expect(got == expected)
        #expect(got.contains { $0.contains("hb.request.id=7f3a route=overridden") })
    }

    @Test("a metadata provider's values: over the logger's own, under the line's")
    func provider() {
        let provider = Logger.MetadataProvider { ["trace": "t-1", "route": "from-provider"] }
        let (expected, got) = lines(provider: provider) { logger in
            logger[metadataKey: "route"] = "own"
            logger[metadataKey: "request"] = "r-9"
            logger.info("with the provider's route")
            logger.info("with the line's trace", metadata: ["trace": "line"])
        }
        #expect(got.count == 2)
        #expect(got == expected)
        #expect(got.first?.contains("request=r-9 route=from-provider trace=t-1") == true)
    }

    @Test("the level is the handler's: a line under it writes nothing")
    func level() {
        let got = Lines()
        var logger = Logger(label: "tessera") { label in
            DeferredMetadataLogHandler(label: label, stream: got, metadataProvider: nil)
        }
        logger.logLevel = .warning
        logger[metadataKey: "hb.request.id"] = "1"
        logger.info("not written")
        logger.warning("written")
        #expect(got.withoutTimestamps == [" warning tessera: hb.request.id=1 [PassWebServiceTests] written"])
    }
}
