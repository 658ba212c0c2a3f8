import NIOCore
import NIOHPACK
import NIOHTTP2

/// The pushes in flight on one HTTP/2 connection, each a stream of its own, kept in one table on the connection's
/// event loop.
///
/// Streams are frames on the connection, not channels: a push is one HEADERS and one DATA frame written with the next
/// stream identifier, and its answer is matched by that identifier. (A channel, a pipeline and a timer per stream
/// cost more CPU than the rest of a push together.) One timer fails the pushes whose time ran out and resets their
/// streams. `NIOHTTP2Handler` below keeps the peer's limit of concurrent streams and its flow-control windows.
final class APNsStreams: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundIn = Request
    typealias OutboundOut = HTTP2Frame

    /// One push to send on the connection.
    struct Request: Sendable {
        var headers: HPACKHeaders
        var body: ByteBuffer
        /// How long the answer may take once the push is written (the time to connect has a limit of its own).
        var timeout: TimeAmount
        var answer: EventLoopPromise<APNsConnection.Response>
    }

    private struct Pending {
        var answer: EventLoopPromise<APNsConnection.Response>
        /// When the push is failed as unanswered: its time limit after its HEADERS went out. Before that (the HTTP/2
        /// handler holding the stream back while the peer's limit of concurrent streams is reached, or a TLS handshake
        /// under way) three times the limit, so that waiting for a stream is not counted against the push, but a
        /// connection that never carries it still fails it.
        var deadline: NIODeadline
        var timeout: TimeAmount
        var status: Int?
        var headers: [String: String] = [:]
        var body: ByteBuffer?
    }

    private var pending: [HTTP2StreamID: Pending] = [:]
    private var nextStreamID: Int32 = 1
    /// Set once the connection takes no new streams (GOAWAY, or its stream identifiers ran out).
    private var draining = false
    /// The timer that fails expired pushes, and the deadline it is set for.
    private var sweep: (task: Scheduled<Void>, deadline: NIODeadline)?
    /// Flow-controlled bytes received since the connection's receive window was last reopened. With no stream
    /// channels, nothing else sends the connection's WINDOW_UPDATE: without it, the peer stops sending answers with
    /// a body once 64 KiB of them arrived.
    private var unacknowledged = 0
    /// When a frame last came from the peer: any frame (an answer, a window update, a PING's acknowledgement).
    private var lastHeard = NIODeadline.now()
    /// A PING sent to learn whether the peer is still there, and when.
    private var probe: (task: Scheduled<Void>, sent: NIODeadline)?
    private static let windowUpdateThreshold = 32 * 1024
    private let bodyLimit: Int
    /// Called once when the connection takes no more pushes, so the next push opens another.
    private let unusable: @Sendable () -> Void

    init(bodyLimit: Int, unusable: @escaping @Sendable () -> Void) {
        self.bodyLimit = bodyLimit
        self.unusable = unusable
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        promise?.succeed()
        guard !draining, nextStreamID < Int32.max - 2 else {
            // Sent after the connection stopped taking streams: the sender tries again on a new connection.
            request.answer.fail(APNsConnection.Failure.goingAway)
            stopTakingStreams(context: context)
            return
        }
        let streamID = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        let heldBack = NIODeadline.now() + request.timeout * 3
        pending[streamID] = Pending(answer: request.answer, deadline: heldBack, timeout: request.timeout)
        // The stream's HEADERS can still be refused (the connection is closing): the push then fails at once. Once
        // they are written (at once, or when the peer's limit of concurrent streams lets the stream open), the
        // push's time limit starts.
        let opened = context.eventLoop.makePromise(of: Void.self)
        opened.futureResult.assumeIsolated().whenComplete { result in
            switch result {
            case .failure(let error):
                self.fail(streamID, with: .connection(error), context: context)
            case .success:
                guard let timeout = self.pending[streamID]?.timeout else { return }
                let deadline = NIODeadline.now() + timeout
                self.pending[streamID]?.deadline = deadline
                // Each push brings its own time limit: the timer goes off at the earliest deadline.
                if let sweep = self.sweep, sweep.deadline <= deadline { return }
                self.sweep?.task.cancel()
                self.scheduleSweep(at: deadline, context: context)
            }
        }
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: request.headers)))),
                      promise: opened)
        context.write(wrapOutboundOut(HTTP2Frame(
            streamID: streamID, payload: .data(.init(data: .byteBuffer(request.body), endStream: true)))), promise: nil)
        if let sweep, sweep.deadline <= heldBack { return }
        sweep?.task.cancel()
        scheduleSweep(at: heldBack, context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        lastHeard = .now()
        switch frame.payload {
        case .headers(let headers):
            guard var stream = pending[frame.streamID] else { return }
            for (name, value, _) in headers.headers {
                if name == ":status" {
                    stream.status = Int(value)
                } else {
                    stream.headers[name.lowercased()] = value
                }
            }
            pending[frame.streamID] = stream
            if headers.endStream { finish(frame.streamID, context: context) }
        case .data(let payload):
            reopenWindow(after: payload.data.readableBytes + (payload.paddingBytes.map { $0 + 1 } ?? 0), context: context)
            guard var stream = pending[frame.streamID] else { return }
            if case .byteBuffer(var bytes) = payload.data, (stream.body?.readableBytes ?? 0) < bodyLimit {
                if stream.body == nil { stream.body = context.channel.allocator.buffer(capacity: bytes.readableBytes) }
                stream.body!.writeBuffer(&bytes)
            }
            pending[frame.streamID] = stream
            if payload.endStream { finish(frame.streamID, context: context) }
        case .rstStream:
            fail(frame.streamID, with: .closed, context: context)
        case .goAway(let lastStreamID, _, _):
            // New pushes go to a new connection from now on; streams above the last one the peer processed were not
            // processed: they fail, to be sent again.
            stopTakingStreams(context: context)
            for streamID in pending.keys where streamID > lastStreamID {
                fail(streamID, with: .closed, context: context)
            }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            fail(streamError.streamID, with: .connection(streamError.baseError), context: context)
            return
        }
        failAll(.connection(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.closed)
        sweep?.task.cancel()
        sweep = nil
        probe?.task.cancel()
        probe = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failAll(.closed)
        sweep?.task.cancel()
        sweep = nil
        probe?.task.cancel()
        probe = nil
    }

    /// After pushes timed out with nothing at all heard from the peer for as long as their time limit, a PING: a
    /// flow a NAT or firewall dropped without a word looks open until TCP gives up (some 15 minutes), and every push
    /// sent on it would time out meanwhile. Unanswered within `wait`, the connection takes no more pushes (the next
    /// opens another) and closes; answered, it goes on serving (APNs left pushes unanswered, nothing worse).
    private func probeIfSilent(for limit: TimeAmount, context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        guard probe == nil, !draining, now - lastHeard >= limit, context.channel.isActive else { return }
        // Long enough for a crowded machine's answer to a PING: a live connection dropped costs only a new one.
        let wait = max(limit, .seconds(10))
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(
            streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: UInt64(now.uptimeNanoseconds)), ack: false))),
            promise: nil)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(in: wait) {
            let (handler, context) = loopBound.value
            guard let probe = handler.probe else { return }
            handler.probe = nil
            guard handler.lastHeard < probe.sent else { return }
            handler.stopTakingStreams(context: context)
            handler.failAll(.closed)
            context.close(promise: nil)
        }
        probe = (task, now)
    }

    private func reopenWindow(after bytes: Int, context: ChannelHandlerContext) {
        unacknowledged += bytes
        guard unacknowledged >= Self.windowUpdateThreshold else { return }
        let increment = unacknowledged
        unacknowledged = 0
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))),
                              promise: nil)
    }

    private func finish(_ streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard let stream = pending.removeValue(forKey: streamID) else { return }
        if let status = stream.status {
            stream.answer.succeed(.init(status: status, headers: stream.headers, body: stream.body ?? ByteBuffer()))
        } else {
            stream.answer.fail(APNsConnection.Failure.closed)
        }
        closeIfDrained(context: context)
    }

    private func fail(_ streamID: HTTP2StreamID, with failure: APNsConnection.Failure, context: ChannelHandlerContext) {
        guard let stream = pending.removeValue(forKey: streamID) else { return }
        stream.answer.fail(failure)
        closeIfDrained(context: context)
    }

    private func failAll(_ failure: APNsConnection.Failure) {
        let streams = pending
        pending.removeAll()
        for stream in streams.values { stream.answer.fail(failure) }
    }

    private func stopTakingStreams(context: ChannelHandlerContext) {
        guard !draining else { return }
        draining = true
        unusable()
        closeIfDrained(context: context)
    }

    private func closeIfDrained(context: ChannelHandlerContext) {
        if draining && pending.isEmpty { context.close(promise: nil) }
    }

    /// Fails the pushes whose deadline passed (resetting their streams), then waits for the next deadline.
    private func scheduleSweep(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.sweep = nil
            handler.sweepExpired(context: context)
        }
        sweep = (task, deadline)
    }

    private func sweepExpired(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        var next: NIODeadline?
        var reset = false
        var shortestLimit: TimeAmount?
        for (streamID, stream) in pending {
            let deadline = stream.deadline
            if deadline <= now {
                context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
                reset = true
                shortestLimit = min(shortestLimit ?? stream.timeout, stream.timeout)
                fail(streamID, with: .timedOut, context: context)
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        if reset { context.flush() }
        if let shortestLimit { probeIfSilent(for: shortestLimit, context: context) }
        if let next, context.channel.isActive { scheduleSweep(at: next, context: context) }
    }
}
