public import Foundation
public import Hummingbird
public import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
public import PassWebService
import TesseraHTTP

/// The device endpoints behind one Hummingbird application, answered either by handlers generated from the OpenAPI
/// document or by the project's own routes; everything else (server, request context, store, issuer) is the same.
public enum DeviceServer {
    /// Which handlers answer.
    public enum Variant: String, Sendable, CaseIterable {
        /// ``DeviceAPIHandlers`` registered through swift-openapi-hummingbird.
        case generated
        /// `PassWebService`'s routes, mounted as `TesseraServer` mounts them.
        case handWritten = "hand-written"
    }

    /// Builds the application.
    /// - Parameters:
    ///   - variant: Which handlers answer.
    ///   - issuer: The pass issuer over the store; both variants may share one.
    ///   - host: The address to listen on.
    ///   - port: The port (0: any free one).
    ///   - logger: The application's logger.
    ///   - onServerRunning: Told the bound port once the server listens.
    /// - Returns: The application, ready to run.
    public static func makeApplication(
        variant: Variant, issuer: PassIssuer, host: String = "127.0.0.1", port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        // The device routes take TesseraHTTP's request context; its type is taken from `addRoutes(to:)` (TesseraHTTP's
        // extension of PassWebService) instead of being named, and both variants use it.
        let webService = PassWebService(issuer: issuer, configuration: .init())
        let router = try makeRouter(like: webService.addRoutes(to:)) { router in
            switch variant {
            case .handWritten:
                // As TesseraServer.makeApplication does: the one call mounts every wallet route.
                webService.addRoutes(to: router)
            case .generated:
                try DeviceAPIHandlers(issuer: issuer).registerHandlers(
                    on: router, configuration: DeviceAPIHandlers.configuration,
                    middlewares: [ApplePassCredentialMiddleware(), LastModifiedMiddleware()])
            }
        }
        return Application(
            router: router, server: .http1(),
            configuration: .init(address: .hostname(host, port: port), serverName: "tessera"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    private static func makeRouter<Context: RequestContext>(
        like _: (Router<Context>) -> Void, mount: (Router<Context>) throws -> Void
    ) rethrows -> Router<Context> {
        let router = Router(context: Context.self)
        try mount(router)
        return router
    }
}
