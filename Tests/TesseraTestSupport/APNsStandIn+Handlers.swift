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
            standIn.standIn?.connectionOpened()
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
        case .answer(let status, let headers, let body): answer = (status, headers, body)
        case .none: return
        case .goAway:
            guard let parent = context.channel.parent,
                  let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return }
            let lastProcessed = HTTP2StreamID(max(0, Int32(streamID) - 2))
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(
                lastStreamID: lastProcessed, errorCode: .noError, opaqueData: nil)), promise: nil)
            return
        }
        var responseHeaders = HPACKHeaders([(":status", String(answer.status))])
        for (name, value) in answer.headers { responseHeaders.add(name: name, value: value) }
        let headersFrame = HTTP2Frame.FramePayload.headers(.init(headers: responseHeaders, endStream: answer.body.isEmpty))
        context.write(wrapOutboundOut(headersFrame), promise: nil)
        if !answer.body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: answer.body)
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
        }
        context.flush()
    }
}
