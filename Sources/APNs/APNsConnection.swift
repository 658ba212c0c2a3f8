import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/2 connection to the provider API, opened on the first push and again after it closes (APNs closes idle
/// connections and sends GOAWAY before it does), every push a stream of its own.
///
/// A push is one HEADERS and one DATA frame written together with one flush, so a push costs one TLS record and one
/// write on the connection's event loop; its stream is an entry in ``APNsStreams``'s table, not a channel. (A general
/// HTTP client writes the request head and its body separately, which made pushes cost about 350 µs of CPU each; a
/// child channel per stream cost about half as much again as the table.)
final class APNsConnection: Sendable {
    /// An answer: status, headers with lowercased names, body.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: ByteBuffer
    }

    /// Why a push got no answer.
    enum Failure: Error, CustomStringConvertible {
        case shutDown
        case timedOut
        case closed
        case connection(any Error)
        /// The connection stopped taking streams (GOAWAY) before this push was written: it goes on another.
        case goingAway

        var description: String {
            switch self {
            case .shutDown: "the APNs client was shut down"
            case .timedOut: "no answer from APNs in time"
            case .closed, .goingAway: "the connection or stream closed before APNs answered"
            case .connection(let error): "cannot reach APNs: \(error)"
            }
        }
    }

    private struct Open: Sendable {
        var channel: any Channel
    }

    private enum State {
        case idle
        case connecting(EventLoopFuture<Open>)
        case open(Open)
        case shutDown
    }

    private let host: String
    private let port: Int
    private let tls: NIOSSLContext
    private let connectTimeout: TimeAmount
    private let group: any EventLoopGroup
    private let state = Mutex(State.idle)
    /// Pushes handed to this connection and not yet answered: the client gives the next ones to the least busy.
    let inFlight = Atomic<Int>(0)
    /// The largest answer body kept (APNs answers a JSON reason of a few dozen bytes).
    private static let bodyLimit = 64 * 1024

    init(host: String, port: Int, tls: TLSConfiguration, connectTimeout: TimeAmount,
         group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        var tls = tls
        tls.applicationProtocols = ["h2"]
        self.tls = try NIOSSLContext(configuration: tls)
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.group = group
    }

    /// Sends one request and waits for its answer (a batch of one: see ``send(paths:headers:body:timeout:)``).
    func send(path: String, headers: [(String, String)], body: ByteBuffer, timeout: TimeAmount) async throws(Failure)
        -> Response
    {
        let results = await send(paths: [path], headers: headers, body: body, timeout: timeout)
        return try results[0].get()
    }

    /// Sends requests that share their headers but for the path, and waits for all of their answers: one hop to the
    /// connection's event loop for all of them and one back, rather than two per request.
    /// - Returns: Each path's answer or failure, in the order of `paths`.
    func send(paths: [String], headers: [(String, String)], body: ByteBuffer, timeout: TimeAmount) async
        -> [Result<Response, Failure>]
    {
        inFlight.add(paths.count, ordering: .relaxed)
        defer { inFlight.subtract(paths.count, ordering: .relaxed) }
        var common = HPACKHeaders()
        common.reserveCapacity(headers.count + 4)
        common.add(name: ":method", value: "POST")
        common.add(name: ":scheme", value: "https")
        common.add(name: ":authority", value: port == 443 ? host : "\(host):\(port)")
        let requests = paths.map { path in
            var fields = common
            fields.add(name: ":path", value: path)
            for (name, value) in headers { fields.add(name: name, value: value) }
            return fields
        }
        var results = await send(batch: requests, body: body, timeout: timeout)
        // Refused unwritten by a connection that received GOAWAY: once more, on the connection that replaces it.
        let refused = results.indices.filter { if case .failure(.goingAway) = results[$0] { true } else { false } }
        guard !refused.isEmpty else { return results }
        let again = await send(batch: refused.map { requests[$0] }, body: body, timeout: timeout)
        for (index, result) in zip(refused, again) {
            if case .failure(.goingAway) = result { results[index] = .failure(.closed) } else { results[index] = result }
        }
        return results
    }

    private func send(batch: [HPACKHeaders], body: ByteBuffer, timeout: TimeAmount) async -> [Result<Response, Failure>] {
        let open: Open
        do {
            open = try await connection().get()
        } catch let failure as Failure {
            return batch.map { _ in .failure(failure) }
        } catch {
            return batch.map { _ in .failure(.connection(error)) }
        }
        let channel = open.channel
        let answers = channel.eventLoop.flatSubmit { () -> EventLoopFuture<[Result<Response, any Error>]> in
            let answers = batch.map { fields in
                let answer = channel.eventLoop.makePromise(of: Response.self)
                let written = channel.eventLoop.makePromise(of: Void.self)
                // A write that never reaches the streams' table (the connection closed meanwhile) fails it at once.
                written.futureResult.whenFailure { error in
                    answer.fail(Failure.connection(error))
                    self.forget(channel)
                }
                channel.write(APNsStreams.Request(headers: fields, body: body, timeout: timeout, answer: answer),
                              promise: written)
                return answer.futureResult
            }
            channel.flush()
            return EventLoopFuture.whenAllComplete(answers, on: channel.eventLoop)
        }
        let results: [Result<Response, any Error>]
        do {
            results = try await answers.get()
        } catch {
            return batch.map { _ in .failure(.connection(error)) }
        }
        return results.map { result in
            result.mapError { error in (error as? Failure) ?? .connection(error) }
        }
    }

    /// Closes the connection; later sends fail with ``Failure/shutDown``.
    func shutdown() async {
        let previous = state.withLock { state -> State in
            let previous = state
            state = .shutDown
            return previous
        }
        switch previous {
        case .open(let open): try? await open.channel.close()
        case .connecting(let future): try? await future.get().channel.close()
        case .idle, .shutDown: break
        }
    }

    /// The open connection, or the one being opened (every push that waits for it gets the same).
    private func connection() -> EventLoopFuture<Open> {
        let eventLoop = group.next()
        let (existing, started) = state.withLock { state -> (EventLoopFuture<Open>?, EventLoopPromise<Open>?) in
            switch state {
            case .open(let open): return (open.channel.eventLoop.makeSucceededFuture(open), nil)
            case .connecting(let future): return (future, nil)
            case .shutDown: return (eventLoop.makeFailedFuture(Failure.shutDown), nil)
            case .idle:
                let promise = eventLoop.makePromise(of: Open.self)
                state = .connecting(promise.futureResult)
                return (nil, promise)
            }
        }
        guard let promise = started else { return existing ?? eventLoop.makeFailedFuture(Failure.closed) }
        connect(on: eventLoop).whenComplete { result in
            let kept = self.state.withLock { state -> Bool in
                guard case .connecting = state else { return false }  // shut down meanwhile
                switch result {
                case .success(let open): state = .open(open)
                case .failure: state = .idle
                }
                return true
            }
            switch result {
            case .success(let open) where kept:
                open.channel.closeFuture.whenComplete { _ in self.forget(open.channel) }
                promise.succeed(open)
            case .success(let open):
                open.channel.close(promise: nil)
                promise.fail(Failure.shutDown)
            case .failure(let error):
                promise.fail(error)
            }
        }
        return promise.futureResult
    }

    /// Opens a TLS connection (ALPN `h2`) and starts HTTP/2 on it.
    private func connect(on eventLoop: any EventLoop) -> EventLoopFuture<Open> {
        let tls = self.tls
        let serverName = Self.isAddress(host) ? nil : host
        let forget: @Sendable (any Channel) -> Void = { [weak self] channel in self?.forget(channel) }
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                // Every handler is in place before the connection is: the peer's SETTINGS can arrive right behind
                // the TLS handshake, before a callback on the connect would run.
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    try operations.addHandler(FlushCoalescer())
                    try operations.addHandler(NIOHTTP2Handler(mode: .client, connectionConfiguration: Self.http2))
                    try operations.addHandler(APNsStreams(bodyLimit: Self.bodyLimit) { forget(channel) })
                }
            }
            .connect(host: host, port: port)
            .map { channel in Open(channel: channel) }
    }

    /// HTTP/2 settings of the connection. A push that times out has its stream reset; APNs's answer to it may
    /// already be on its way and arrive after the reset. HTTP/2 ignores frames for the streams it reset lately and
    /// treats frames for other closed streams as a connection error. NIO remembers 32 by default: after a slow spell
    /// in which more pushes timed out at once, the late answers to the earlier ones closed the connection and failed
    /// every push on it. At most as many streams as are open can be reset at once: APNs raises its limit of concurrent
    /// streams to 1,000 once a connection is authenticated (its SETTINGS, as observed; Apple documents no figure), and
    /// 4,096 leaves room for a peer that allows more.
    static let http2: NIOHTTP2Handler.ConnectionConfiguration = {
        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
        configuration.maximumRecentlyResetStreams = 4_096
        return configuration
    }()

    /// Lets the next push open a new connection once this one closed or refused a stream.
    private func forget(_ channel: any Channel) {
        state.withLock { state in
            if case .open(let open) = state, open.channel === channel { state = .idle }
        }
    }

    private static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// Turns the writes and flushes of one event loop tick into one write and one flush. Every push's stream flushes on
/// its own, and HTTP/2 writes each frame (a DATA frame's header and its payload apart): TLS makes every write a record
/// of its own, so a push was three records, each encrypted and sent here and decrypted by APNs, with 29 bytes of
/// overhead each. Collected, a tick's frames go out as one record (split by TLS at 16 KB), as other HTTP/2 clients
/// send them.
final class FlushCoalescer: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var scheduled = false
    /// The bytes written since the last flush went out, and their writers' promises.
    private var pending: ByteBuffer?
    private var promises: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(var bytes) = unwrapOutboundIn(data) else {
            // A file region goes as it is, after the bytes written before it.
            writePending(context: context)
            context.write(data, promise: promise)
            return
        }
        if pending == nil {
            pending = context.channel.allocator.buffer(capacity: max(1_024, bytes.readableBytes))
        }
        pending?.writeBuffer(&bytes)
        if let promise { promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {
        guard !scheduled else { return }
        scheduled = true
        context.eventLoop.assumeIsolated().execute {
            self.scheduled = false
            self.writePending(context: context)
            context.flush()
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // Unflushed writes fail at a close, as the channel's own would.
        failPending(ChannelError.ioOnClosedChannel)
        context.close(mode: mode, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failPending(ChannelError.ioOnClosedChannel)
    }

    private func writePending(context: ChannelHandlerContext) {
        // Written even when empty: a zero-length write's promise is answered with the others of its tick.
        guard let bytes = pending else { return }
        pending = nil
        let written = promises
        promises = []
        let promise: EventLoopPromise<Void>? = written.isEmpty ? nil : context.eventLoop.makePromise()
        if let promise {
            promise.futureResult.assumeIsolated().whenComplete { result in
                for each in written { each.completeWith(result) }
            }
        }
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    private func failPending(_ error: any Error) {
        pending = nil
        let failed = promises
        promises = []
        for promise in failed { promise.fail(error) }
    }
}
