@testable import APNs
import NIOCore
import NIOEmbedded
import Testing

/// The APNs connection's writes of one event loop tick go to TLS as one buffer, so a push is not a TLS record per
/// HTTP/2 frame; every write's promise still tells its writer how it went.
@Suite("APNs connection: one write per tick")
struct APNsFlushCoalescerTests {
    private static func write(_ text: String, _ channel: EmbeddedChannel) -> EventLoopFuture<Void> {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.pipeline.write(NIOAny(IOData.byteBuffer(ByteBuffer(string: text))), promise: promise)
        return promise.futureResult
    }

    @Test("three writes and their flushes in one tick: one buffer of their bytes at the end of the tick, each promise kept")
    func coalesces() throws {
        let channel = EmbeddedChannel(handler: FlushCoalescer())
        var results: [Result<Void, any Error>?] = [nil, nil, nil]
        for (index, text) in ["HEADERS", "DATA-HEADER", "{}"].enumerated() {
            Self.write(text, channel).whenComplete { results[index] = $0 }
            channel.flush()
        }
        #expect(try channel.readOutbound(as: IOData.self) == nil, "nothing before the end of the tick")
        channel.embeddedEventLoop.run()
        let written = try #require(try channel.readOutbound(as: IOData.self))
        guard case .byteBuffer(let bytes) = written else { Issue.record("\(written)"); return }
        #expect(String(buffer: bytes) == "HEADERSDATA-HEADER{}")
        #expect(try channel.readOutbound(as: IOData.self) == nil, "one write")
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } }, "\(results)")
        _ = try channel.finish()
    }

    @Test("writes not yet flushed when the connection closes fail, as the channel's own would")
    func closeFailsPending() throws {
        let channel = EmbeddedChannel(handler: FlushCoalescer())
        var result: Result<Void, any Error>?
        Self.write("HEADERS", channel).whenComplete { result = $0 }
        _ = try? channel.close().wait()
        guard case .failure(let error) = result else { Issue.record("the write did not fail: \(String(describing: result))"); return }
        #expect(error as? ChannelError == .ioOnClosedChannel)
    }
}
