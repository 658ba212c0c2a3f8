import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL
import NIOTLS

/// What the stand-in learned about one TLS connection during its handshake.
final class StandInConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var protocolValue: String?
    private var certificateValue: Data?

    var negotiatedProtocol: String? {
        get { lock.withLock { protocolValue } }
        set { lock.withLock { protocolValue = newValue } }
    }

    var clientCertificateDER: Data? {
        get { lock.withLock { certificateValue } }
        set { lock.withLock { certificateValue = newValue } }
    }

    /// The connection's number in the order the stand-in accepted them (1 for the first), once its handshake is done.
    var number: Int {
        get { lock.withLock { numberValue } }
        set { lock.withLock { numberValue = newValue } }
    }
    private var numberValue = 0

    /// Writes bytes on the connection below HTTP/2, on the connection's event loop; set once TLS is in place.
    var writeBelowHTTP2: (@Sendable (ByteBuffer) -> Void)? {
        get { lock.withLock { rawWriter } }
        set { lock.withLock { rawWriter = newValue } }
    }
    private var rawWriter: (@Sendable (ByteBuffer) -> Void)?

    /// A `200` answer for `streamID` as a server whose answer crosses the client's RST_STREAM on the wire sends it:
    /// HEADERS (END_STREAM, END_HEADERS) with `:status: 200` from HPACK's static table, whatever the stream's state.
    static func rawSuccess(streamID: Int32) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.writeBytes([0, 0, 1, 0x1, 0x5])
        frame.writeInteger(UInt32(streamID) & 0x7FFF_FFFF)
        frame.writeInteger(UInt8(0x88))
        return frame
    }
}

/// Records the ALPN result and the client certificate; closes connections that did not negotiate `h2`.
final class HandshakeRecorder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: StandInConnection
    private let standIn: StandInBox

    init(connection: StandInConnection, standIn: StandInBox) {
        self.connection = connection
        self.standIn = standIn
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        connection.writeBelowHTTP2 = { bytes in
            eventLoop.execute { loopBound.value.writeAndFlush(NIOAny(bytes), promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted(let negotiated) = tlsEvent {
            connection.negotiatedProtocol = negotiated
            if let certificate = try? context.pipeline.syncOperations.nioSSL_peerCertificate(),
               let der = try? certificate.toDERBytes() {
                connection.clientCertificateDER = Data(der)
            }
            guard negotiated == "h2" else {
                context.close(promise: nil)
                return
            }
            connection.number = standIn.standIn?.connectionOpened() ?? 0
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Collects one HTTP/2 request (HEADERS, DATA until END_STREAM) and writes the stand-in's answer.
final class StandInStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let connection: StandInConnection
    private let standIn: StandInBox
    private var requestHeaders: HPACKHeaders?
    private var body = Data()

    init(connection: StandInConnection, standIn: StandInBox) {
        self.connection = connection
        self.standIn = standIn
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            if requestHeaders == nil { requestHeaders = headers.headers }
            if headers.endStream { respond(context: context) }
        case .data(let frame):
            if case .byteBuffer(let buffer) = frame.data { body.append(contentsOf: buffer.readableBytesView) }
            if frame.endStream { respond(context: context) }
        default:
            break
        }
    }

    private func respond(context: ChannelHandlerContext) {
        var method = ""
        var path = ""
        var headers: [String: String] = [:]
        for (name, value, _) in requestHeaders ?? HPACKHeaders() {
            switch name {
            case ":method": method = value
            case ":path": path = value
            case _ where name.hasPrefix(":"): break
            default: headers[name.lowercased()] = headers[name.lowercased()].map { "\($0),\(value)" } ?? value
            }
        }
        guard let standIn = standIn.standIn else {
            context.close(promise: nil)
            return
        }
        let outcome = standIn.answer(method: method, path: path, headers: headers, body: body, connection: connection)
        let answer: (status: Int, headers: [String: String], body: Data)
        switch outcome {
        case .answer(_, _, _, let delay) where delay > 0:
            // Written below HTTP/2, so that it goes out even when the client reset the stream meanwhile.
            guard let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID),
                  let write = connection.writeBelowHTTP2 else { return }
            let frame = StandInConnection.rawSuccess(streamID: Int32(Int(streamID)))
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(delay * 1000))) { write(frame) }
            return
        case .answer(let status, let headers, let body, _): answer = (status, headers, body)
        case .held:
            guard let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID),
                  let write = connection.writeBelowHTTP2 else { return }
            let frame = StandInConnection.rawSuccess(streamID: Int32(Int(streamID)))
            standIn.hold { write(frame) }
            return
        case .none: return
        case .blackHole:
            // The connection (TLS over TCP, beneath the stream) stops reading: its peer hears nothing more.
            context.channel.parent?.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            return
        case .goAway:
            guard let parent = context.channel.parent,
                  let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return }
            let lastProcessed = HTTP2StreamID(max(0, Int32(streamID) - 2))
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(
                lastStreamID: lastProcessed, errorCode: .noError, opaqueData: nil)), promise: nil)
            return
        }
        write(status: answer.status, headers: answer.headers, body: answer.body, context: context)
    }

    private func write(status: Int, headers: [String: String], body: Data, context: ChannelHandlerContext) {
        var responseHeaders = HPACKHeaders([(":status", String(status))])
        for (name, value) in headers { responseHeaders.add(name: name, value: value) }
        let headersFrame = HTTP2Frame.FramePayload.headers(.init(headers: responseHeaders, endStream: body.isEmpty))
        context.write(wrapOutboundOut(headersFrame), promise: nil)
        if !body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: body)
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
        }
        context.flush()
    }
}
