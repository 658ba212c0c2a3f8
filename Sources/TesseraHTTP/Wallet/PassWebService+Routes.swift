import Foundation
public import Hummingbird
public import PassWebService

extension PassWebService {
    /// Adds every route to a router.
    public func addRoutes(to router: some RouterMethods<WebServiceRequestContext>) {
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
        if let google {
            GoogleRoutes(google: google).add(to: root)
        }
        HolderPage(issuer: issuer, google: google).add(to: root)
        if let token = configuration.adminToken {
            let api = root.group("api/v1").add(middleware: ErrorEnvelopeMiddleware())
            let access = IssuerAccess(adminToken: token, keys: keys, consoleSessions: consoleSessions,
                                      refusedCredentialsPerMinute: configuration.refusedCredentialsPerMinute)
            IssuerRoutes(issuer: issuer, access: access, maximumBodySize: configuration.maximumBodySize,
                         maximumPassDataBodySize: configuration.maximumPassDataBodySize, google: google).add(to: api)
            if let campaigns {
                CampaignRoutes(campaigns: campaigns, issuer: issuer, access: access,
                               maximumBodySize: configuration.maximumCampaignBodySize).add(to: api)
            }
            if let events {
                EventRoutes(events: events, issuer: issuer, access: access).add(to: api)
            }
            if let orderIssuer {
                OrderIssuerRoutes(issuer: orderIssuer, access: access, maximumBodySize: configuration.maximumBodySize)
                    .add(to: api)
            }
            if let keys {
                KeyRoutes(keys: keys, access: access, maximumBodySize: configuration.maximumBodySize).add(to: api)
            }
            if let webhooks {
                WebhookRoutes(webhooks: webhooks, access: access).add(to: api)
            }
            if let consoleSessions {
                ConsoleRoutes(
                    sessions: consoleSessions, pathPrefix: pathPrefix, maximumBodySize: configuration.maximumBodySize,
                    signInLimiter: RateLimiter(burst: 10, perMinute: 10), now: now
                ).add(to: root)
            }
        }
    }
}
