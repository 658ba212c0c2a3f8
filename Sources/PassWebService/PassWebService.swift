public import Foundation

/// Apple's web service for passes and orders (device registration, changed items, latest version, log,
/// personalization), the holder download links and the issuer API: the issuers and the limits the HTTP layer
/// (`TesseraHTTP`) serves them with.
///
/// Its routes are mounted under the path of the public URL (`https://example.com/wallet` → `/wallet/v1/...`), so a
/// pass's `webServiceURL` works as Wallet appends `/v1/...` to it.
public struct PassWebService: Sendable {
    /// Limits and the issuer API's credential.
    public struct Configuration: Sendable {
        /// The bearer token of the issuer API; `nil` turns the issuer API off (404), never open.
        public var adminToken: String?
        /// Largest accepted request body.
        public var maximumBodySize: Int
        /// Largest accepted body of the issuer API's pass create and change requests, whose data documents may carry
        /// a pass's own images in base64 (8 MiB by default; never below ``maximumBodySize``).
        public var maximumPassDataBodySize: Int
        /// Log requests accepted at once per client address.
        public var logBurst: Int
        /// Log requests per minute per client address after the burst.
        public var logRequestsPerMinute: Int
        /// Personalization requests accepted at once per client address.
        public var personalizationBurst: Int
        /// Personalization requests per minute per client address after the burst.
        public var personalizationRequestsPerMinute: Int
        /// Refused bearer tokens other than API keys' per client address: this many at once, then this many a minute,
        /// after which the client's such tokens (the admin token's included) are answered 429 until its allowance
        /// refills; 0 is no limit. API keys are beyond guessing and neither counted nor limited.
        public var refusedCredentialsPerMinute = 20

        /// Largest accepted body of a campaign (its `data` may carry images for every pass it selects): the pass data
        /// limit, at least 8 MiB.
        public var maximumCampaignBodySize: Int { max(maximumPassDataBodySize, 8 << 20) }
        /// Largest body any of the web service's routes takes.
        public var largestBodySize: Int { max(maximumBodySize, maximumPassDataBodySize, maximumCampaignBodySize) }

        /// Creates a configuration.
        public init(
            adminToken: String? = nil, maximumBodySize: Int = 64 << 10, logBurst: Int = 20, logRequestsPerMinute: Int = 10,
            personalizationBurst: Int = 20, personalizationRequestsPerMinute: Int = 10,
            maximumPassDataBodySize: Int = 8 << 20
        ) {
            self.adminToken = adminToken
            self.maximumBodySize = maximumBodySize
            self.maximumPassDataBodySize = max(maximumBodySize, maximumPassDataBodySize)
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
    /// Campaigns over many passes, when the store keeps them (`nil`: the campaign endpoints are not mounted).
    public let campaigns: CampaignService?
    /// The event log, when the store keeps one (`nil`: `/api/v1/events` is not mounted).
    public let events: EventService?
    /// Issuer API keys of brands and teams, when the store keeps them (`nil`: only the admin token, and
    /// `/api/v1/keys` is not mounted).
    public let keys: APIKeyService?
    /// Google Wallet: save links and object states in the issuer API's pass answers, when configured.
    public var google: (any GoogleWalletLinking)?
    /// The console's sessions, when the console is on (`/console`, and the session cookie on `/api/v1`).
    public var consoleSessions: ConsoleSessionService?
    /// The webhook endpoint and its recent posts, when the store keeps them (`/api/v1/webhooks`).
    public var webhooks: WebhookStatusService?
    /// The configuration.
    public let configuration: Configuration
    /// The clock (rate limits, registration times).
    public let now: @Sendable () -> Date

    /// Creates the service.
    /// - Parameters:
    ///   - issuer: The pass issuer (store, templates, signer).
    ///   - orderIssuer: The order issuer, or `nil` when the server issues no orders.
    ///   - campaigns: The campaign service, or `nil` when the store keeps no campaigns.
    ///   - events: The event log, or `nil` when the store keeps none.
    ///   - configuration: Limits and the issuer API token.
    ///   - now: The clock.
    public init(
        issuer: PassIssuer, orderIssuer: OrderIssuer? = nil, campaigns: CampaignService? = nil,
        events: EventService? = nil, keys: APIKeyService? = nil, configuration: Configuration,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.events = events
        self.keys = keys
        self.issuer = issuer
        self.orderIssuer = orderIssuer
        self.campaigns = campaigns
        self.configuration = configuration
        self.now = now
    }

    /// The path prefix routes are mounted under (the public URL's path, without a trailing slash).
    public var pathPrefix: String {
        var path = issuer.configuration.publicURL.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
