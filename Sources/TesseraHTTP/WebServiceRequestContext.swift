public import Hummingbird
public import NIOCore
public import PassWebService

/// The request context of Tessera's routes: Hummingbird's core context plus the peer address and the client it stands
/// for, which the rate limits of the log, personalization and console sign-in are keyed by.
public struct WebServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer.
    public let remoteAddress: SocketAddress?
    /// The client a trusted proxy forwarded the request for (``TrustedProxies``); `nil` when the peer is the client.
    public var forwardedClient: String?
    /// Who called the issuer API, set by its access middleware (`nil` elsewhere: nothing is visible).
    public var issuerPrincipal: IssuerPrincipal?

    /// Creates the context of one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The client's address: the one a trusted proxy forwarded, else the peer's.
    public var clientAddress: String { forwardedClient ?? remoteAddress?.ipAddress ?? "unknown" }
}
