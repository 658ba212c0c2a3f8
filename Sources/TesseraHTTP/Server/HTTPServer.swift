import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore

/// The HTTP server around the routes: the router with request metrics and the operational endpoints, and the
/// Hummingbird application with the connection guard on every connection.
public enum HTTPServer {
    /// A route table with Hummingbird's metrics middleware (requests by route and status), `GET /health` and, when
    /// `metrics` is given, `GET /metrics` in Prometheus's text format. The services' routes are added to it.
    /// - Parameters:
    ///   - metrics: Writes the metrics exposition (a Prometheus registry's `emitToBuffer`), or `nil` for none.
    ///   - health: What `GET /health` answers (a JSON report and its status); `nil` answers `ok` with 200.
    ///   - trustedProxies: The proxies whose forwarding headers name the client (none: the peer is the client).
    /// - Returns: The route table.
    public static func router(
        metrics: (@Sendable () -> [UInt8])?, health: (@Sendable () -> HealthReport)? = nil,
        trustedProxies: TrustedProxies = .none
    ) -> RouteTable {
        let router = RouteTable()
        router.add(middleware: MetricsMiddleware())
        if !trustedProxies.isEmpty {
            router.add(middleware: ClientAddressMiddleware(proxies: trustedProxies))
        }
        // GET answers HEAD too (uptime monitors often ask with HEAD; the answer is GET's without its body).
        let healthAnswer: @Sendable (Request, WebServiceRequestContext) async throws -> Response = { _, _ in
            guard let report = health?() else {
                return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
            }
            return Response(
                status: report.isAvailable ? .ok : .serviceUnavailable,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: report.json)))
        }
        router.get("health", use: healthAnswer)
        if let metrics {
            let metricsAnswer: @Sendable (Request, WebServiceRequestContext) async throws -> Response = { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics())))
            }
            router.get("metrics", use: metricsAnswer)
        }
        return router
    }

    /// The application serving a router over HTTP/1.1, each connection under ``ConnectionGuard`` (timeouts, the
    /// connection cap, requests in flight for shutdown).
    /// - Parameters:
    ///   - router: The router with every route.
    ///   - host: The address to listen on.
    ///   - port: The port (0: any free one).
    ///   - limits: Timeouts and the connection cap.
    ///   - activity: Where connections and requests in flight are counted.
    ///   - logger: The server's logger.
    /// - Returns: The application, to which the caller adds its services.
    public static func application(
        router: RouteTable, host: String, port: Int, limits: ConnectionLimits,
        activity: ServerActivity, logger: Logger
    ) -> Application<RouterResponder<WebServiceRequestContext>> {
        let server = HTTPServerBuilder.http1(
            configuration: .init(additionalChannelHandlers: [
                ConnectionGuard(limits: limits, activity: activity, logger: logger),
            ]))
        return Application(
            router: router, server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "tessera"),
            onServerRunning: { channel in
                logger.info("listening", metadata: ["address": "\(channel.localAddress?.description ?? "?")"])
            },
            logger: logger
        )
    }
}

/// What `GET /health` answers: a JSON document, and whether the server can do its work (200) or not (503).
public struct HealthReport: Sendable {
    /// Whether the server can do its work.
    public var isAvailable: Bool
    /// The JSON body.
    public var json: [UInt8]

    /// Creates a report.
    public init(isAvailable: Bool, json: [UInt8]) {
        self.isAvailable = isAvailable
        self.json = json
    }
}
