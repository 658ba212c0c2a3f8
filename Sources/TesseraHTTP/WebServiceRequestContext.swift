public import Hummingbird
public import NIOCore
public import PassWebService

/// The request context of Tessera's routes: Hummingbird's core context plus the peer address, which the log
/// endpoint's rate limit is keyed by.
public struct WebServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer.
    public let remoteAddress: SocketAddress?
    /// Who called the issuer API, set by its access middleware (`nil` elsewhere: nothing is visible).
    public var issuerPrincipal: IssuerPrincipal?

    /// Creates the context of one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
