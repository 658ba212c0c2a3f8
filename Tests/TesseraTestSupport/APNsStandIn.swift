public import Foundation
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A local APNs provider API stand-in: TLS with ALPN `h2` only, HTTP/2 only, on `localhost` at a free port.
///
/// It records every request and answers valid ones from a script (``enqueue(_:)``), `200` once the script
/// is empty. Invalid requests are refused as APNs would: wrong method `405 MethodNotAllowed`, wrong path
/// `404 BadPath`, bad token `400 BadDeviceToken`, no `apns-topic` `400 MissingTopic`, a body other than `{}`
/// `400 BadPayload`, and when ``Options/authorize`` rejects the `authorization` header `403 <its reason>`.
public final class APNsStandIn: @unchecked Sendable {
    /// A scripted answer.
    public enum Reply: Sendable, Equatable {
        /// 200 with an `apns-id` (a new UUID when `nil`).
        case success(apnsID: String? = nil)
        /// 400 `BadDeviceToken`.
        case badDeviceToken
        /// 410 `Unregistered` with the timestamp in milliseconds.
        case unregistered(timestamp: Date)
        /// 429 `TooManyRequests`, with `retry-after` seconds when given.
        case tooManyRequests(retryAfter: Int? = nil)
        /// 500 `InternalServerError`.
        case internalServerError
        /// Any status with a `reason` (none when `nil`) and extra headers.
        case custom(status: Int, reason: String?, headers: [String: String] = [:])
        /// No answer on the stream, ever (the client's timeout must end it).
        case noAnswer
        /// 200 (headers alone) after `seconds`, sent even if the client reset the stream meanwhile, as an answer that
        /// crosses the client's RST_STREAM on the wire arrives.
        case late(seconds: Double)
        /// 200 (headers alone) once ``releaseHeld()`` is called (at once if it was called before), sent like `late`.
        case held
        /// No answer, and a GOAWAY on the connection whose last processed stream is the one before this request's,
        /// as APNs sends before it closes a connection.
        case goAway
        /// No answer, and the connection goes silent: nothing more is read from it, so nothing is answered (PINGs
        /// neither), as a flow a NAT or firewall dropped without a word.
        case blackHole
    }

    /// What a request's stream gets.
    enum Outcome {
        case answer(status: Int, headers: [String: String], body: Data, delay: Double)
        case held
        case none
        case goAway
        case blackHole
    }

    /// One request as the stand-in received it.
    public struct RecordedRequest: Sendable {
        /// `:method`.
        public var method: String
        /// `:path`.
        public var path: String
        /// Regular headers, names in lowercase (pseudo-headers excluded).
        public var headers: [String: String]
        /// The body.
        public var body: Data
        /// The protocol ALPN negotiated on the connection (always `h2`: other connections are closed).
        public var negotiatedProtocol: String?
        /// The DER of the client certificate the connection presented, if any.
        public var clientCertificateDER: Data?
        /// The status the stand-in answered with.
        public var status: Int
        /// The number of the connection the request came on (1 for the first the stand-in accepted).
        public var connection: Int
        /// The push token taken from the path, when the path had the `/3/device/` form.
        public var pushToken: String? {
            path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : nil
        }
    }

    /// How the stand-in checks clients.
    public struct Options: Sendable {
        /// A PEM file of CA certificates; when set, the TLS handshake requires a client certificate issued by them.
        public var clientCertificateAuthorityPEMPath: String?
        /// Checks the `authorization` header (or its absence): returns `nil` to accept, or the APNs reason
        /// (e.g. `InvalidProviderToken`) to answer 403 with.
        public var authorize: (@Sendable (_ authorization: String?) -> String?)?

        /// Creates options.
        /// - Parameters:
        ///   - clientCertificateAuthorityPEMPath: CAs for required client certificates, or `nil` not to ask for one.
        ///   - authorize: The `authorization` check, or `nil` to accept any.
        public init(clientCertificateAuthorityPEMPath: String? = nil,
                    authorize: (@Sendable (_ authorization: String?) -> String?)? = nil) {
            self.clientCertificateAuthorityPEMPath = clientCertificateAuthorityPEMPath
            self.authorize = authorize
        }
    }

    /// The host name to connect to (the certificate is valid for it).
    public let host = "localhost"
    /// The port the stand-in listens on.
    public let port: Int
    private let channel: any Channel
    private let options: Options
    private let lock = NSLock()
    private var script: [Reply] = []
    private var recorded: [RecordedRequest] = []
    private var connectionCount = 0
    /// The answers of ``Reply/held`` requests waiting for ``releaseHeld()``, and whether it was called.
    private var heldAnswers: [@Sendable () -> Void] = []
    private var heldReleased = false

    /// Starts a stand-in.
    /// - Parameters:
    ///   - certificatePEMPath: The server certificate (valid for `localhost`).
    ///   - keyPEMPath: Its private key.
    ///   - options: Client certificate and authorization checks.
    /// - Returns: The running stand-in; call ``shutdown()`` when done.
    public static func start(certificatePEMPath: String, keyPEMPath: String,
                             options: Options = Options()) async throws -> APNsStandIn {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificatePEMPath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: keyPEMPath, format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        if let caPath = options.clientCertificateAuthorityPEMPath {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
        }
        let context = try NIOSSLContext(configuration: tls)
        let box = StandInBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = StandInConnection()
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(HandshakeRecorder(connection: connection, standIn: box))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(StandInStreamHandler(connection: connection, standIn: box))
                        }
                    }
                }
            }
            .bind(host: "localhost", port: 0).get()
        let standIn = APNsStandIn(channel: channel, port: channel.localAddress?.port ?? 0, options: options)
        box.standIn = standIn
        return standIn
    }

    private init(channel: any Channel, port: Int, options: Options) {
        self.channel = channel
        self.port = port
        self.options = options
    }

    /// Appends answers to the script; each valid request takes the next one.
    /// - Parameter replies: The answers, in order.
    public func enqueue(_ replies: Reply...) { lock.withLock { script.append(contentsOf: replies) } }

    /// Drops the scripted answers not taken yet: later requests are answered `200`.
    public func discardScript() { lock.withLock { script.removeAll() } }

    /// The requests received so far, in order.
    public var requests: [RecordedRequest] { lock.withLock { recorded } }

    /// How many TLS connections completed a handshake with ALPN `h2`.
    public var connections: Int { lock.withLock { connectionCount } }

    /// Stops listening and closes the listening socket.
    public func shutdown() async throws {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
            return
        }
    }

    /// Sends the answers of the requests answered ``Reply/held`` so far, and those of later ones as they come.
    public func releaseHeld() {
        let answers = lock.withLock {
            heldReleased = true
            defer { heldAnswers = [] }
            return heldAnswers
        }
        for answer in answers { answer() }
    }

    /// Keeps a held request's answer until ``releaseHeld()`` (sends it now if that was called).
    func hold(_ answer: @escaping @Sendable () -> Void) {
        let now = lock.withLock {
            if heldReleased { return true }
            heldAnswers.append(answer)
            return false
        }
        if now { answer() }
    }

    /// Counts a connection whose handshake completed. - Returns: Its number (1 for the first).
    func connectionOpened() -> Int {
        lock.withLock {
            connectionCount += 1
            return connectionCount
        }
    }

    /// Checks a request, picks the answer and records both.
    func answer(method: String, path: String, headers: [String: String], body: Data,
                connection: StandInConnection) -> Outcome {
        let (status, reason, extraHeaders, delay) = decide(method: method, path: path, headers: headers, body: body)
        lock.withLock {
            recorded.append(RecordedRequest(method: method, path: path, headers: headers, body: body,
                                            negotiatedProtocol: connection.negotiatedProtocol,
                                            clientCertificateDER: connection.clientCertificateDER, status: status,
                                            connection: connection.number))
        }
        switch status {
        case Self.noAnswerStatus: return .none
        case Self.goAwayStatus: return .goAway
        case Self.blackHoleStatus: return .blackHole
        case 200 where delay == .infinity: return .held
        default: break
        }
        var responseHeaders = extraHeaders
        var responseBody = Data()
        if status == 200 {
            responseHeaders["apns-id"] = responseHeaders["apns-id"] ?? UUID().uuidString.lowercased()
        } else if let reason {
            var object: [String: Any] = ["reason": reason]
            if let timestamp = extraHeaders["x-timestamp"] { object["timestamp"] = Int64(timestamp) }
            responseHeaders["x-timestamp"] = nil
            responseBody = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            responseHeaders["content-type"] = "application/json"
        }
        return .answer(status: status, headers: responseHeaders, body: responseBody, delay: delay)
    }

    /// The statuses recorded for requests answered with ``Reply/noAnswer`` and ``Reply/goAway``.
    public static let noAnswerStatus = 0
    public static let goAwayStatus = -1
    /// The status recorded for a request answered with ``Reply/blackHole``.
    public static let blackHoleStatus = -2

    private func decide(method: String, path: String, headers: [String: String],
                        body: Data) -> (Int, String?, [String: String], Double) {
        guard method == "POST" else { return (405, "MethodNotAllowed", [:], 0) }
        guard path.hasPrefix("/3/device/") else { return (404, "BadPath", [:], 0) }
        let token = path.dropFirst("/3/device/".count)
        guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else { return (400, "BadDeviceToken", [:], 0) }
        guard let topic = headers["apns-topic"], !topic.isEmpty else { return (400, "MissingTopic", [:], 0) }
        guard body == Data("{}".utf8) else { return (400, "BadPayload", [:], 0) }
        if let authorize = options.authorize, let reason = authorize(headers["authorization"]) {
            return (403, reason, [:], 0)
        }
        let reply = lock.withLock { script.isEmpty ? Reply.success() : script.removeFirst() }
        let delay: Double = switch reply {
        case .late(let seconds): seconds
        case .held: .infinity
        default: 0
        }
        let (status, reason, extra) = Self.answer(to: reply)
        return (status, reason, extra, delay)
    }

    private static func answer(to reply: Reply) -> (Int, String?, [String: String]) {
        switch reply {
        case .success(let apnsID): return (200, nil, apnsID.map { ["apns-id": $0] } ?? [:])
        case .badDeviceToken: return (400, "BadDeviceToken", [:])
        case .unregistered(let timestamp):
            return (410, "Unregistered", ["x-timestamp": String(Int64(timestamp.timeIntervalSince1970 * 1000))])
        case .tooManyRequests(let retryAfter): return (429, "TooManyRequests", retryAfter.map { ["retry-after": String($0)] } ?? [:])
        case .internalServerError: return (500, "InternalServerError", [:])
        case .custom(let status, let reason, let headers): return (status, reason, headers)
        case .noAnswer: return (Self.noAnswerStatus, nil, [:])
        case .goAway: return (Self.goAwayStatus, nil, [:])
        case .blackHole: return (Self.blackHoleStatus, nil, [:])
        case .late, .held: return (200, nil, [:])
        }
    }
}

/// Lets channel handlers reach the stand-in, which exists only after the listening socket is bound.
final class StandInBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var value: APNsStandIn?
    var standIn: APNsStandIn? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
