import APNs
import TesseraHTTP
public import Foundation
public import Hummingbird
public import Logging
import Checkout
import CheckoutPersistence
import PassStore
import PassWebService
import PostgresStore
public import Prometheus
import SQLiteStore
import ServiceLifecycle
import UnixSignals
import Webhooks

/// Tessera's server: the pass web service (and the orders web service when configured), issuer API and push
/// dispatchers over one store, with `/metrics`.
public enum TesseraServer {
    /// Builds the application: opens and migrates the store, mounts every route, and adds the long-lived services
    /// (PostgreSQL client, push dispatcher) so they start and stop with it.
    /// - Parameters:
    ///   - configuration: The server's settings.
    ///   - metrics: The registry `/metrics` shows (the one the process bootstrapped swift-metrics with), or `nil`.
    ///   - logger: The server's logger.
    ///   - now: The clock.
    /// - Returns: The application, ready to `runService()`.
    public static func makeApplication(
        configuration: ServerConfiguration, metrics: PrometheusCollectorRegistry? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> some ApplicationProtocol {
        let composition = try await compose(configuration: configuration, metrics: metrics, logger: logger, now: now)
        var limits = configuration.connectionLimits
        limits.largestBody = max(configuration.webService.largestBodySize, configuration.checkout.maximumBodySize)
        var app = HTTPServer.application(
            router: composition.router, host: configuration.host, port: configuration.port,
            limits: limits, activity: configuration.activity, logger: logger)
        for migration in composition.migrateAfterStart {
            app.beforeServerStarts(perform: migration)
        }
        app.addServices(composition.services)
        return app
    }

    /// Every route the composed server answers, as `METHOD /path/{parameter}`: what the OpenAPI document must
    /// describe. Builds the server's parts for `configuration` (opening its store) without listening; use a
    /// configuration whose merchant has no payment processor (a processor's HTTP client needs the running server to
    /// be shut down).
    @_spi(Testing) public static func routes(configuration: ServerConfiguration, logger: Logger) async throws -> [String] {
        let composition = try await compose(
            configuration: configuration, metrics: PrometheusCollectorRegistry(), logger: logger, now: Date.init)
        return composition.router.routes.map { "\($0.method) \($0.path)" }
    }

    /// The parts of a server before it listens.
    struct Composition {
        var router: RouteTable
        var services: [any Service]
        /// Store migrations that need the services running first (PostgreSQL's client).
        var migrateAfterStart: [@Sendable () async throws -> Void]
    }

    /// Opens the stores, builds the services and mounts every route.
    static func compose(
        configuration: ServerConfiguration, metrics: PrometheusCollectorRegistry?, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) async throws -> Composition {
        var services: [any Service] = configuration.additionalServices
        // Made before the store opens, so a key that does not load stops start-up with nothing created.
        let passSources = try IdentityComposition.passSources(configuration)
        let orderSources = try configuration.identities.map { try IdentityComposition.orderSources($0.loaded) }
            ?? configuration.orders.map { [OrderIssuer.TemplateSource(directory: $0.templatesDirectory, signer: $0.signer)] }
        let health = IdentityHealth(identities: configuration.identities?.loaded, now: now)
        try health.checkStartUp(logger: logger)
        let pushSender = try pushSender(configuration, services: &services, logger: logger)
        let store: any PassStore
        let orderStore: any PassStore
        let checkoutStore: any CheckoutStore
        var migrateAfterStart: [@Sendable () async throws -> Void] = []
        var startGate: (gate: StartGate, firstService: Int)?
        var checkoutConfiguration = configuration.checkout
        switch configuration.database {
        case .sqlite(let path):
            // One server process per file: refused before the file is opened when another holds it.
            services.append(try DatabaseFileLock(databasePath: path))
            // The log is copied into the file beside the writer, not by the commit that fills it (SQLiteCheckpoints).
            let sqlite = try SQLiteStore(configuration: .init(path: path, checkpointsInBackground: true))
            services.append(SQLiteCheckpoints(store: sqlite, logger: logger))
            try await sqlite.migrate()
            let checkout = SQLiteCheckoutStore(store: sqlite, now: now)
            try await checkout.migrate()
            // One process per SQLite file: what is held at start-up was held by a process that is gone.
            checkoutConfiguration.exclusiveStore = true
            store = sqlite
            orderStore = sqlite.orderStore()
            checkoutStore = checkout
        case .postgres(let url):
            let postgres: PostgresStore
            do {
                postgres = try PostgresStore(url: url, logger: logger)
            } catch let error as PassStoreError {
                // A URL that does not parse: the flag's fault, named as such (never with the URL: it holds a password).
                throw ServerConfigurationError(setting: "database", error.invalidDataReason ?? "\(error)")
            }
            let checkout = PostgresCheckoutStore(store: postgres, logger: logger, now: now)
            services.append(postgres)
            // The client runs as a service, so migrations wait until the service group has started it, and the
            // services added after it wait for the migrations (`StartGate`).
            let gate = StartGate()
            startGate = (gate, services.count)
            let wait = configuration.databaseWait
            migrateAfterStart = [
                { try await postgres.waitForConnection(within: wait) }, { try await postgres.migrate() },
                { try await checkout.migrate() }, { gate.open() },
            ]
            store = postgres
            orderStore = postgres.orderStore()
            checkoutStore = checkout
        }

        let usage = UsageTally()
        let dispatcher = pushSender.map {
            PushDispatcher(store: store, sender: $0, configuration: configuration.pushDispatch, logger: logger, now: now,
                           onDelivered: { usage.countPush(passTypeIdentifier: $0, at: now()) })
        }
        if let dispatcher { services.append(dispatcher) }
        if pushSender == nil {
            logger.notice("APNs is not configured: pushes are off (changes are queued and sent once it is)")
        }
        let issuer = PassIssuer(
            store: store, sources: passSources,
            configuration: .init(templatesDirectory: passSources[0].directory, publicURL: configuration.publicURL),
            now: now, onPushesQueued: { dispatcher?.notify() }, usage: usage)
        // Orders have a push queue of their own, in their own tables, so a dispatcher of their own sends it.
        let orderDispatcher = orderSources == nil ? nil : pushSender.map {
            PushDispatcher(store: orderStore, sender: $0, configuration: configuration.pushDispatch, logger: logger, now: now)
        }
        if let orderDispatcher { services.append(orderDispatcher) }
        let orderIssuer = orderSources.map { sources in
            OrderIssuer(
                store: orderStore, sources: sources,
                configuration: .init(templatesDirectory: sources[0].directory, publicURL: configuration.publicURL),
                now: now, onPushesQueued: { orderDispatcher?.notify() })
        }
        if let identities = configuration.identities {
            services.append(IdentityMonitor(
                settings: identities, issuer: issuer, orderIssuer: orderIssuer, health: health,
                pushes: (pushSender as? TopicPushSender).flatMap { sender in configuration.apns.map { (sender, $0) } },
                logger: logger, now: now, signals: await UnixSignalsSequence(trapping: .sighup)))
        }
        // SIGHUP is trapped now, before the server listens: until then it would end the process.
        services.append(TemplateWatcher(
            issuer: issuer, orderIssuer: orderIssuer, configuration: configuration.templateWatch,
            logger: logger, signals: await UnixSignalsSequence(trapping: .sighup)))
        // Campaigns: accepted by the issuer API, applied by a runner in every process (progress is in the store).
        var campaigns: CampaignService?
        if let campaignStore = store as? any CampaignStore {
            let runner = CampaignRunner(
                issuer: issuer, store: campaignStore, configuration: configuration.campaigns, logger: logger, now: now)
            services.append(runner)
            campaigns = CampaignService(issuer: issuer, store: campaignStore, now: now, wake: { runner.notify() })
        }
        // The event log: recorded by the store with each change, read by `GET /api/v1/events`, pruned here.
        var events: EventService?
        if let eventStore = store as? any EventStore {
            services.append(EventRetention(
                store: eventStore, configuration: configuration.eventRetention, logger: logger, now: now))
            events = EventService(store: eventStore)
        }
        // Analytics: rollups folded from the event log and this process's fetch and push counts.
        if let analyticsStore = store as? any AnalyticsStore {
            services.append(AnalyticsWorker(store: analyticsStore, tally: usage, logger: logger))
        }
        if let webhook = configuration.webhook {
            guard let outbox = store as? any WebhookOutboxStore & EventStore else {
                throw ServerConfigurationError(setting: "webhook", "the store keeps no webhook delivery state")
            }
            var webhook = webhook
            // One process per SQLite file: a lease left by a process that is gone is this process's to take at once.
            if case .sqlite = configuration.database { webhook.exclusiveStore = true }
            services.append(WebhookDispatcher(configuration: webhook, store: outbox, logger: logger, now: now))
        }
        // API keys of brands and teams: in the store, so a revocation holds for every process at once.
        let keys = (store as? any APIKeyStore).map { APIKeyService(store: $0, now: now) }
        var webService = PassWebService(
            issuer: issuer, orderIssuer: orderIssuer, campaigns: campaigns, events: events, keys: keys,
            configuration: configuration.webService, now: now)
        // The webhook endpoint's recent posts (whether or not one is configured, so the console can say so).
        if let attempts = store as? any WebhookAttemptStore {
            webService.webhooks = WebhookStatusService(
                endpoint: configuration.webhook?.destination.url.absoluteString, store: attempts, now: now)
        }
        // The console: on with the issuer API; its sessions in the store, so signing out holds for every process.
        if let token = configuration.webService.adminToken, let sessionStore = store as? any ConsoleSessionStore {
            webService.consoleSessions = ConsoleSessionService(
                store: sessionStore, keys: keys, adminToken: token, publicURL: configuration.publicURL, now: now)
        }
        if let google = try googleSync(configuration, issuer: issuer, store: store, logger: logger, now: now) {
            services.append(google)
            webService.google = google
        }
        if configuration.webService.adminToken == nil {
            logger.notice("no admin token configured: the issuer API (/api/v1) is off")
        }

        var exposition: (@Sendable () -> [UInt8])?
        if let metrics { exposition = { metrics.emitToBuffer() } }
        var healthReport: (@Sendable () -> HealthReport)?
        if configuration.identities != nil { healthReport = { health.report() } }
        let router = HTTPServer.router(
            metrics: exposition, health: healthReport, trustedProxies: configuration.trustedProxies)
        webService.addRoutes(to: router)
        if let merchant = configuration.merchant {
            // Checked before the payment processor exists: its HTTP client must be shut down once made.
            let walletOrderIssuer = try WalletOrderIssuer.forMerchant(merchant, issuer: orderIssuer, now: now)
            let checkout = try CheckoutService(
                merchant: merchant, configuration: checkoutConfiguration, store: checkoutStore, processor: try merchant.makePaymentProcessor(logger: logger),
                passIssuer: OrderPassIssuer(issuer: issuer),
                walletOrderIssuer: walletOrderIssuer,
                merchantValidator: try MerchantValidator.ifConfigured(merchant: merchant, logger: logger),
                apiKey: configuration.checkoutAPIKey, logger: logger, now: now)
            checkout.addRoutes(to: router)
            services += checkout.services
        }
        if let startGate {
            for index in services.indices.dropFirst(startGate.firstService) {
                services[index] = AfterStartGate(gate: startGate.gate, service: services[index])
            }
        }
        return Composition(router: router, services: services, migrateAfterStart: migrateAfterStart)
    }

    /// The push sender: the APNs client made from ``ServerConfiguration/apns`` (added to the services so it starts and
    /// stops with the server), else the configuration's own sender.
    /// - Throws: ``ServerConfigurationError`` for `apns` when the client cannot be made (a key that does not load).
    private static func pushSender(
        _ configuration: ServerConfiguration, services: inout [any Service], logger: Logger
    ) throws -> (any PushSender)? {
        guard let apns = configuration.apns else { return configuration.pushSender }
        if let identities = configuration.identities?.loaded {
            let sender = TopicPushSender(
                senders: try IdentityComposition.pushSenders(identities, endpoint: apns, logger: logger))
            services.append(sender)
            return sender
        }
        let client: APNsClient
        do {
            client = try APNsClient(configuration: apns, logger: logger)
        } catch {
            throw ServerConfigurationError(setting: "apns", "\(error)")
        }
        services.append(client)
        return APNsPushSender(client: client)
    }
}
