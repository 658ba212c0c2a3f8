import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// One per connection: enforces the header-read, body-read and idle timeouts, takes the connection's place under
/// the cap (closing it at once when there is none), counts its requests in flight, answers `Expect: 100-continue`,
/// and on shutdown lets a request already on its way in be answered (with `Connection: close`) rather than closing
/// the connection under it. A response made before its request's body has all arrived (a 413 on the declared length,
/// a 401 that needs no body) says `Connection: close` and ends the connection, so the rest of the body is not read
/// for nothing (RFC 9112 §9.6: the close is staged, so the client still reads the answer).
///
/// It sits on every request's path, so it does the least it can per request: one handler for all of it, and one
/// timer per connection that is moved lazily (a request only writes down its new deadline; the timer, when it
/// fires early, sets itself again for that deadline) instead of a timer scheduled and cancelled for every request.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long an idle connection is kept after shutdown begins, for a request its client is about to send (a
    /// kept-alive client sends its next request right after an answer, but a loaded machine can delay it by hundreds
    /// of milliseconds; closing under it would leave the client not knowing whether the request applied).
    static let quiesceLinger: TimeAmount = .seconds(1)

    private let limits: ConnectionLimits
    private let activity: ServerActivity
    private let logger: Logger
    private var started = false
    private var quiescePending = false
    /// Shutdown began: every later response says `Connection: close`.
    private var quiesced = false
    /// The connection is closing in stages: output shut (FIN sent after the last response), input read and dropped
    /// until the client closes or ``lingeringCloseTimeout`` passes, so the client's unread answer is never destroyed
    /// by a reset (RFC 9112 §9.6).
    private var lingering = false
    /// The head of the response in progress has gone out (too late to add `Connection: close` to it).
    private var responseHeadWritten = false
    /// The response in progress was made before its request's body arrived: the connection closes after it.
    private var closeAfterResponse = false
    /// For each request not answered yet, oldest first, whether it asked for the connection to close after its answer
    /// (`Connection: close`, or HTTP/1.0 without keep-alive): its answer says so. Pipelined requests arrive before
    /// the earlier ones are answered, so a later request's wish is not put on an earlier answer.
    private var asksClose: [Bool] = []
    private var lingerCloseTimer: Scheduled<Void>?
    static let lingeringCloseTimeout: TimeAmount = .seconds(2)
    private var lingerTimer: Scheduled<Void>?
    private var holdsPlace = false
    private var readingRequest = false
    private var requestsInFlight = 0
    /// When the connection is closed unless it makes progress first, and why; `nil` while a response is being made.
    private var deadline: NIODeadline?
    private var deadlineReason = ""
    /// The one timer, and when it fires (never later than ``deadline``).
    private var timer: Scheduled<Void>?
    private var timerFiresAt = NIODeadline.distantFuture
    private let headerReadTimeout: TimeAmount
    private let bodyReadTimeout: TimeAmount
    private let idleTimeout: TimeAmount

    init(limits: ConnectionLimits, activity: ServerActivity, logger: Logger) {
        self.limits = limits
        self.activity = activity
        self.logger = logger
        headerReadTimeout = Self.timeAmount(limits.headerReadTimeout)
        bodyReadTimeout = Self.timeAmount(limits.bodyReadTimeout)
        idleTimeout = Self.timeAmount(limits.idleTimeout)
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // HTTP/1.0's default close and HTTP/1.1's Host are read before the conversion to HTTP types.
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(HTTP1HeadCheck(), position: .before(codec))
        }
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard activity.acquireConnection(maximum: limits.maximumConnections) else {
            // Logged on the first refusal and every hundredth after, so a flood does not flood the log too.
            let refused = activity.refusedConnections
            if refused == 1 || refused % 100 == 0 {
                logger.warning(
                    "connection refused: at the connection cap",
                    metadata: ["maximumConnections": "\(limits.maximumConnections)", "refusedSoFar": "\(refused)"])
            }
            context.close(promise: nil)
            return
        }
        holdsPlace = true
        arm(context, after: headerReadTimeout, reason: "no complete request head")
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    /// A full close of a connection that is shutting down happens in stages (see ``lingering``); other closes pass.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard quiesced, mode == .all, !lingering, context.channel.isActive else {
            context.close(mode: mode, promise: promise)
            return
        }
        closeInStages(context, promise: promise)
    }

    /// Shuts output (FIN after the last response), then drops input until the client closes or
    /// ``lingeringCloseTimeout`` passes.
    private func closeInStages(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        lingering = true
        disarm()
        context.close(mode: .output, promise: nil)
        lingerCloseTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingeringCloseTimeout) {
            context.close(mode: .all, promise: nil)
        }
        if let promise { context.channel.closeFuture.cascade(to: promise) }
    }

    private func finish() {
        lingerCloseTimer?.cancel()
        lingerCloseTimer = nil
        timer?.cancel()
        timer = nil
        lingerTimer?.cancel()
        lingerTimer = nil
        if holdsPlace {
            holdsPlace = false
            activity.releaseConnection()
            if requestsInFlight > 0 { activity.requestsEnded(requestsInFlight) }
            requestsInFlight = 0
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiesced = true
        if readingRequest || (requestsInFlight > 0 && !responseHeadWritten) {
            // Closed after the response in progress, whose head will say `Connection: close`.
            context.fireUserInboundEventTriggered(event)
            return
        }
        // Idle, or an answer already under way without `Connection: close`: the client may send another request,
        // so the connection stays open a moment after it is idle.
        quiescePending = true
        if requestsInFlight == 0 { startLinger(context) }
    }

    private func startLinger(_ context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.quiesceLinger) { [self] in
            lingerTimer = nil
            forwardQuiesce(context)
        }
    }

    private func forwardQuiesce(_ context: ChannelHandlerContext) {
        guard quiescePending else { return }
        quiescePending = false
        lingerTimer?.cancel()
        lingerTimer = nil
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }

    /// A client that does not read what is written stops the connection's writes once NIO's buffer fills: a response
    /// then never ends, and without a deadline of its own the connection would keep its place under the connection cap
    /// for ever (a crowd of such clients would take them all). While the channel is not writable, the idle timeout
    /// runs; each time the client reads enough to make it writable again, the response is in progress again.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable {
            if !readingRequest { arm(context, after: idleTimeout, reason: Self.unreadResponse) }
        } else if deadlineReason == Self.unreadResponse {
            if requestsInFlight > 0 {
                disarm()
            } else {
                arm(context, after: idleTimeout, reason: "idle")
            }
        }
        context.fireChannelWritabilityChanged()
    }

    private static let unreadResponse = "response not read by the client in time"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if lingering { return }  // closing: whatever the client still sends is dropped
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestsInFlight += 1
            activity.requestStarted()
            asksClose.append(head.headerFields[.connection].map { $0.utf8.count == 5 && $0.lowercased() == "close" } ?? false)
            readingRequest = true
            arm(context, after: bodyReadTimeout, reason: "request body not received in time")
            if let expect = head.headerFields[.expect], expect.utf8.count == 12, expect.lowercased() == "100-continue",
               !declaresTooMuch(head) {
                // Clients that wait for it (curl, URLSession) send their body at once instead of after a stall.
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            if quiescePending {
                // Counted downstream first, so the connection closes after this request's response.
                context.fireChannelRead(data)
                forwardQuiesce(context)
                return
            }
        case .body:
            break
        case .end:
            readingRequest = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if head.status.kind == .informational { break }  // 100 Continue: the request goes on
            responseHeadWritten = true
            // Made before its own request's body has all arrived (a later pipelined request being read means this
            // one's has).
            if readingRequest, asksClose.count <= 1 { closeAfterResponse = true }
            if (quiesced && !quiescePending) || closeAfterResponse || asksClose.first == true {
                // The connection closes after this response: say so, so the client sends no other request on it.
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .body:
            break
        case .end:
            responseHeadWritten = false
            if !asksClose.isEmpty { asksClose.removeFirst() }
            if requestsInFlight > 0 {
                requestsInFlight -= 1
                activity.requestsEnded()
                if requestsInFlight == 0, !readingRequest {
                    arm(context, after: idleTimeout, reason: "idle")
                    if quiescePending, lingerTimer == nil { startLinger(context) }
                }
            }
            if closeAfterResponse {
                closeAfterResponse = false
                let written = promise ?? context.eventLoop.makePromise()
                context.write(data, promise: written)
                context.flush()
                written.futureResult.assumeIsolated().whenComplete { [self] _ in
                    if !lingering, context.channel.isActive { closeInStages(context, promise: nil) }
                }
                return
            }
        }
        context.write(data, promise: promise)
    }

    /// Whether the request declares a body larger than any route takes (then no `100 Continue`).
    private func declaresTooMuch(_ head: HTTPRequest) -> Bool {
        guard let largest = limits.largestBody, let declared = head.headerFields[.contentLength] else { return false }
        // Longer than any Int: too much; not a number: left to the decoder's refusal.
        guard let length = Int(declared) else { return declared.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        return length > largest
    }

    /// Sets the connection's deadline; the timer is rescheduled only when it would fire too late.
    private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount, reason: String) {
        let when = NIODeadline.now() + delay
        deadline = when
        deadlineReason = reason
        if timer == nil || when < timerFiresAt { schedule(context, at: when) }
    }

    private func schedule(_ context: ChannelHandlerContext, at when: NIODeadline) {
        timer?.cancel()
        timerFiresAt = when
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: when) { [self] in
            timer = nil
            guard let deadline else { return }  // a response is being made: no deadline until it is sent
            if deadline <= .now() {
                logger.debug("connection closed", metadata: ["reason": .string(deadlineReason)])
                context.close(promise: nil)
            } else {
                schedule(context, at: deadline)  // the connection made progress since: wait for its new deadline
            }
        }
    }

    /// No deadline while the server is making a response (the timer, if it fires, finds nothing to do).
    private func disarm() {
        deadline = nil
    }
}
