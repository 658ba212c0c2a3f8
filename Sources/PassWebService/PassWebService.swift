public import TesseraHTTP
public import Foundation
public import Hummingbird

/// Apple's pass web service (device registration, changed serial numbers, latest pass, log, personalization),
/// the holder download links and the issuer API, as Hummingbird routes.
///
/// Routes are mounted under the path of the public URL (`https://example.com/wallet` → `/wallet/v1/...`), so a pass's
/// `webServiceURL` works as Wallet appends `/v1/...` to it.
public struct PassWebService: Sendable {
    /// Limits and the issuer API's credential.
    public struct Configuration: Sendable {
        /// The bearer token of the issuer API; `nil` turns the issuer API off (404), never open.
        public var adminToken: String?
        /// Largest accepted request body.
        public var maximumBodySize: Int
        /// Log requests accepted at once per client address.
        public var logBurst: Int
        /// Log requests per minute per client address after the burst.
        public var logRequestsPerMinute: Int
        /// Personalization requests accepted at once per client address.
        public var personalizationBurst: Int
        /// Personalization requests per minute per client address after the burst.
        public var personalizationRequestsPerMinute: Int

        /// Creates a configuration.
        public init(
            adminToken: String? = nil, maximumBodySize: Int = 64 << 10, logBurst: Int = 20, logRequestsPerMinute: Int = 10,
            personalizationBurst: Int = 20, personalizationRequestsPerMinute: Int = 10
        ) {
            self.adminToken = adminToken
            self.maximumBodySize = maximumBodySize
            self.logBurst = logBurst
            self.logRequestsPerMinute = logRequestsPerMinute
            self.personalizationBurst = personalizationBurst
            self.personalizationRequestsPerMinute = personalizationRequestsPerMinute
        }
    }

    /// Makes and changes the passes.
    public let issuer: PassIssuer
    /// Makes and changes the orders, when the server issues them (`nil`: the order endpoints are not mounted).
    public let orderIssuer: OrderIssuer?
    /// The configuration.
    public let configuration: Configuration
    private let now: @Sendable () -> Date

    /// Creates the service.
    /// - Parameters:
    ///   - issuer: The pass issuer (store, templates, signer).
    ///   - orderIssuer: The order issuer, or `nil` when the server issues no orders.
    ///   - configuration: Limits and the issuer API token.
    ///   - now: The clock.
    public init(
        issuer: PassIssuer, orderIssuer: OrderIssuer? = nil, configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.issuer = issuer
        self.orderIssuer = orderIssuer
        self.configuration = configuration
        self.now = now
    }

    /// The path prefix routes are mounted under (the public URL's path, without a trailing slash).
    public var pathPrefix: String {
        var path = issuer.configuration.publicURL.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Adds every route to a router.
    public func addRoutes(to router: Router<WebServiceRequestContext>) {
        let root = router.group(RouterPath(pathPrefix.isEmpty ? "/" : pathPrefix))
        let v1 = root.group("v1")
        DeviceRouter(
            passes: DeviceRoutes(
                issuer: issuer, kind: .passes, maximumBodySize: configuration.maximumBodySize,
                personalizationLimiter: RateLimiter(
                    burst: configuration.personalizationBurst, perMinute: configuration.personalizationRequestsPerMinute),
                now: now),
            orders: orderIssuer.map {
                DeviceRoutes(
                    issuer: $0, kind: .orders, maximumBodySize: configuration.maximumBodySize,
                    personalizationLimiter: nil, now: now)
            }
        ).add(to: v1)
        LogRoutes(
            maximumBodySize: configuration.maximumBodySize,
            limiter: RateLimiter(burst: configuration.logBurst, perMinute: configuration.logRequestsPerMinute), now: now
        ).add(to: v1)
        DownloadRoutes(issuer: issuer, orderIssuer: orderIssuer).add(to: root)
        if let token = configuration.adminToken {
            let api = root.group("api/v1").add(middleware: ErrorEnvelopeMiddleware())
            IssuerRoutes(issuer: issuer, adminToken: token, maximumBodySize: configuration.maximumBodySize).add(to: api)
            if let orderIssuer {
                OrderIssuerRoutes(issuer: orderIssuer, adminToken: token, maximumBodySize: configuration.maximumBodySize)
                    .add(to: api)
            }
        }
        // Added after the routes, so it wraps the router's not-found answer (which takes every middleware) and not
        // the routes above: a request a route serves never passes through it. Hummingbird answers a method a path
        // has no route for with its not-found answer too, so TRACE on a pass's path still gets 405.
        router.add(middleware: MethodNotAllowedMiddleware())
    }
}
