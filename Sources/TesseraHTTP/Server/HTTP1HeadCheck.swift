import NIOCore
import NIOHTTP1

/// What is read from an HTTP/1 request head before the conversion to HTTP types, which drops the version and keeps only
/// the first `Host`:
///
/// - an HTTP/1.0 request without `Connection: keep-alive` gets the `Connection: close` it means (RFC 9112 §9.3), so
///   the server closes the connection after the response as such a client expects (it reads the answer until the end
///   of the stream);
/// - an HTTP/1.1 request without a `Host` or with more than one is answered 400 and the connection closed (RFC 9112
///   §3.2: a server must), before any route sees it: with two, a proxy and this server could each take another.
///
/// Pipelined requests pass it before the earlier ones are answered, so a refusal waits for every earlier answer to
/// have been written, and follows them.
final class HTTP1HeadCheck: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set once a request has been refused: what the client still sends is dropped until the connection closes.
    private var refused = false
    /// Requests passed on, and answers written to their end: a refusal goes out when the two are equal.
    private var requestsPassed = 0
    private var answersWritten = 0
    /// A refusal waiting for earlier answers.
    private var pendingRefusal: String?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.version.major == 1, head.version.minor == 0 {
            if !head.isKeepAlive {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                requestsPassed += 1
                context.fireChannelRead(wrapInboundOut(.head(head)))
                return
            }
        } else if head.version.major == 1, head.headers["host"].count != 1 {
            refused = true
            let message = head.headers["host"].isEmpty
                ? "Host: an HTTP/1.1 request needs one" : "Host: an HTTP/1.1 request may have only one"
            if answersWritten == requestsPassed { refuse(context, message) } else { pendingRefusal = message }
            return
        }
        requestsPassed += 1
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        answersWritten += 1
        if let message = pendingRefusal, answersWritten == requestsPassed {
            pendingRefusal = nil
            refuse(context, message)
        }
    }

    /// Answers 400 with the error envelope and `Connection: close`, then closes the connection.
    private func refuse(_ context: ChannelHandlerContext, _ message: String) {
        let body = ByteBuffer(string: #"{"error":{"code":"invalidRequest","message":"\#(message)","field":"Host"}}"#)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=utf-8")
        headers.add(name: "cache-control", value: "no-store")
        headers.add(name: "content-length", value: String(body.readableBytes))
        headers.add(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        // Closed in stages (RFC 9112 §9.6): the output first, so the client reads the answer before the rest of what
        // it sent is refused, then the whole connection.
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
        }
    }
}
