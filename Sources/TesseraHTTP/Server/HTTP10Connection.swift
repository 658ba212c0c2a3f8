import NIOCore
import NIOHTTP1

/// Gives an HTTP/1.0 request without `Connection: keep-alive` the `Connection: close` it means (RFC 9112 §9.3), so the
/// server closes the connection after the response as such a client expects (it reads the answer until the end of
/// the stream). It sits before the conversion to HTTP types, which drops the request's version.
final class HTTP10Connection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), head.version.major == 1, head.version.minor == 0,
           !head.isKeepAlive
        {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}
