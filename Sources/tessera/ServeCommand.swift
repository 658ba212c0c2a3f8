import APNs
import ArgumentParser
import Checkout
import Foundation
import Logging
import Metrics
import NIOCore
import PassBundle
import PassWebService
import Prometheus
import SigningIdentities
import TesseraHTTP
import TesseraServer

/// `tessera serve`: the pass web service (and, with `--order-templates`, the orders web service), issuer API and
/// pushes, on SQLite by default.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the pass web service (Apple's device protocol), the issuer API and APNs pushes; with --order-templates, the orders web service too.",
        discussion: """
            Every option can also come from an environment variable (TESSERA_PORT, TESSERA_PUBLIC_URL, \
            TESSERA_DATABASE, TESSERA_TEMPLATES, TESSERA_CERT, TESSERA_KEY, TESSERA_P12, TESSERA_WWDR, \
            TESSERA_ADMIN_TOKEN_FILE or TESSERA_ADMIN_TOKEN, TESSERA_ORDER_TEMPLATES, TESSERA_ORDER_CERT, \
            TESSERA_ORDER_KEY, TESSERA_APNS_...). Stops gracefully on SIGTERM/SIGINT.
            """
    )

    @Option(help: "Address to listen on (TESSERA_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (TESSERA_PORT; default 8080).")
    var port: Int?

    @Option(help: "URL devices reach this server at; every pass's webServiceURL (TESSERA_PUBLIC_URL; default http://HOST:PORT).")
    var publicURL: String?

    @Option(help: "sqlite:PATH or postgres://user:password@host:port/db (TESSERA_DATABASE; default sqlite:./data/tessera.sqlite).")
    var database: String?

    @Option(help: "Templates folder, one template per sub-folder (TESSERA_TEMPLATES; default ./PassTemplates).")
    var templates: String?

    @OptionGroup var credentials: ServerCredentialOptions

    @OptionGroup var identities: IdentitiesOption

    @OptionGroup var orders: OrderServeOptions

    @Option(help: "File holding the issuer API's bearer token (TESSERA_ADMIN_TOKEN_FILE or TESSERA_ADMIN_TOKEN); none: API off.")
    var adminTokenFile: String?

    @OptionGroup var apns: APNsOptions

    @OptionGroup var webhooks: WebhookOptions

    @OptionGroup var proxies: ProxyOptions

    @OptionGroup(title: "Google Wallet") var google: GoogleOptions

    @Option(name: .customLong("google-origin"), help: "A web origin allowed to show Save to Google Wallet buttons (repeatable; or TESSERA_GOOGLE_ORIGINS, comma-separated).")
    var googleOrigins: [String] = []

    @Option(name: .customLong("google-callback-keys"), help: "Google's callback signing keys: a URL or a JSON file (or TESSERA_GOOGLE_CALLBACK_KEYS); Google's published keys by default.")
    var googleCallbackKeys: String?

    @Option(help: "Merchant configuration (JSON, see docs/checkout.md): turns on the checkout API and payment sheet (TESSERA_MERCHANT_CONFIG).")
    var merchantConfig: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (TESSERA_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(help: "Seconds a kept-alive connection may wait for its next request (TESSERA_IDLE_TIMEOUT; default 60).")
    var idleTimeout: Double?

    @Option(help: "Seconds a new connection has to send a complete request head (TESSERA_HEADER_TIMEOUT; default 30).")
    var headerTimeout: Double?

    @Option(help: "Seconds a request has to send its body after its head (TESSERA_BODY_TIMEOUT; default 60).")
    var bodyTimeout: Double?

    @Option(help: "Most connections open at once; more are refused (TESSERA_MAX_CONNECTIONS; default derived from the open-file limit).")
    var maxConnections: Int?

    @Option(help: "Passes a campaign changes per transaction, 1-10000 (TESSERA_CAMPAIGN_BATCH_SIZE; default 500).")
    var campaignBatchSize: Int?

    @Option(help: "Days the event log (GET /api/v1/events) keeps an event, 1-3650 (TESSERA_EVENT_RETENTION_DAYS; default 30).")
    var eventRetentionDays: Int?

    @Option(help: "Seconds between looks at the templates folder for edited files, 0 for none (SIGHUP always reads it again) (TESSERA_TEMPLATE_POLL_INTERVAL; default 2).")
    var templatePollInterval: Double?

    @Option(help: "Seconds the start waits for a first connection to PostgreSQL before it stops with an error naming the database (TESSERA_DATABASE_WAIT; default 60).")
    var databaseWait: Double?

    @Option(help: "Seconds in-flight requests may take to finish after SIGTERM/SIGINT (TESSERA_SHUTDOWN_GRACE; default 25).")
    var shutdownGracePeriod: Double?

    @Option(help: "Seconds after SIGTERM/SIGINT at which the process exits regardless, logging what it abandoned (TESSERA_SHUTDOWN_DEADLINE; default 30).")
    var shutdownDeadline: Double?

    @Flag(help: "Run request handlers on Swift Concurrency's default thread pool instead of the connections' event loops (TESSERA_DEFAULT_EXECUTOR=1).")
    var defaultExecutor = false

    @Option(help: "Event loop threads (TESSERA_EVENT_LOOP_THREADS; default: one per CPU core). With several server processes on one machine, give each its share of the cores.")
    var eventLoopThreads: Int?

    /// The event loop threads asked for, checked: `nil` for the default (one per core).
    func requestedEventLoopThreads() throws -> Int? {
        let source = eventLoopThreads == nil ? "TESSERA_EVENT_LOOP_THREADS" : "--event-loop-threads"
        guard let text = eventLoopThreads.map(String.init) ?? ProcessInfo.processInfo.environment["TESSERA_EVENT_LOOP_THREADS"]
        else { return nil }
        guard let count = Int(text), (1...256).contains(count) else {
            throw CommandFailure(message: "\(source): \(text) is not a number of threads from 1 to 256", exitCode: 2)
        }
        return count
    }

    /// Whether request handlers run on the event loops (the default; see ``Tessera/main()``).
    var runsTasksOnEventLoops: Bool {
        !defaultExecutor && ProcessInfo.processInfo.environment["TESSERA_DEFAULT_EXECUTOR"] != "1"
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let host = host ?? environment["TESSERA_HOST"] ?? "127.0.0.1"
        if let port, !(0...65535).contains(port) {
            // Not wrapped round into another port, with the given one in every pass's webServiceURL.
            throw CommandFailure(message: "--port: \(port) is not a port number (0 to 65535)", exitCode: 2)
        }
        let port = try port ?? environment["TESSERA_PORT"].map { text in
            guard let value = Int(text), (0...65535).contains(value) else {
                throw CommandFailure(message: "TESSERA_PORT: \(text) is not a port number", exitCode: 2)
            }
            return value
        } ?? 8080
        let publicURLText = publicURL ?? environment["TESSERA_PUBLIC_URL"] ?? "http://\(host):\(port)"
        guard let publicURL = URL(string: publicURLText), ["http", "https"].contains(publicURL.scheme ?? ""),
              publicURL.host != nil, publicURL.query == nil
        else {
            throw CommandFailure(message: "--public-url: \(publicURLText) is not an http(s) URL", exitCode: 2)
        }
        let database: ServerConfiguration.Database
        do {
            database = try .init(parsing: self.database ?? environment["TESSERA_DATABASE"] ?? "sqlite:./data/tessera.sqlite")
        } catch let error as ServerConfigurationError {
            throw CommandFailure(message: FlagHints.message(for: error), exitCode: 2)
        }
        let templatesGiven = templates ?? environment["TESSERA_TEMPLATES"]
        var templates = templatesGiven ?? "./PassTemplates"
        let poll = try templatePollInterval ?? environment["TESSERA_TEMPLATE_POLL_INTERVAL"].map { text in
            guard let parsed = Double(text) else {
                throw CommandFailure(message: "TESSERA_TEMPLATE_POLL_INTERVAL: \(text) is not a number of seconds", exitCode: 2)
            }
            return parsed
        } ?? 2
        guard poll.isFinite, (0...86_400).contains(poll) else {
            throw CommandFailure(message: "--template-poll-interval: must be from 0 to 86400 seconds", exitCode: 2)
        }
        let pollInterval: Duration? = poll == 0 ? nil : .milliseconds(Int64(poll * 1000))
        let identitySettings = try identities.load(
            credentials: credentials, templatesGiven: templatesGiven != nil, orders: orders, pollInterval: pollInterval)
        if identitySettings == nil, !FileManager.default.fileExists(atPath: templates) {
            throw CommandFailure(message: "--templates: folder \(templates) does not exist")
        }
        let adminToken = try Secret.read(
            file: adminTokenFile ?? environment["TESSERA_ADMIN_TOKEN_FILE"], environment: "TESSERA_ADMIN_TOKEN",
            flag: "--admin-token-file")
        if let adminToken, adminToken.count < 16 {
            throw CommandFailure(message: "admin token: at least 16 characters are needed")
        }
        let webhook = try webhooks.configuration()

        var logger = Logger(label: "tessera")
        let level = logLevel ?? environment["TESSERA_LOG_LEVEL"] ?? "info"
        guard let parsedLevel = Logger.Level(rawValue: level) else {
            throw CommandFailure(message: "--log-level: \(level) is not a log level", exitCode: 2)
        }
        logger.logLevel = parsedLevel

        var merchant: MerchantConfiguration?
        if let path = merchantConfig ?? environment["TESSERA_MERCHANT_CONFIG"] {
            do {
                merchant = try MerchantConfiguration.load(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure(message: "--merchant-config \(path): \(error)")
            }
        }
        let connectionLimits = try readConnectionLimits(environment)
        let trustedProxies = try proxies.load(environment)
        // The merchant's API key: apiKeyFile in the merchant configuration, or TESSERA_CHECKOUT_API_KEY.
        // Without the line ending a value filled from a file (`$(cat key)`, a mounted secret) keeps.
        let checkoutAPIKey = merchant?.apiKeyFile == nil ? environment["TESSERA_CHECKOUT_API_KEY"].map(Secret.withoutLineEnding) : nil
        if let checkoutAPIKey, checkoutAPIKey.count < 24 {
            throw CommandFailure(message: "TESSERA_CHECKOUT_API_KEY: at least 24 characters are needed")
        }
        var checkout = CheckoutService.Configuration()
        if let text = environment["TESSERA_CHECKOUT_AUTHORIZATION_LEASE"] {
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw CommandFailure(message: "TESSERA_CHECKOUT_AUTHORIZATION_LEASE: \(text) is not 1-3600 seconds",
                                     exitCode: 2)
            }
            checkout.authorizationLease = TimeInterval(seconds)
            // Recovery looks every 2 s, as by default, or more often for a shorter lease.
            checkout.recoveryInterval = .seconds(min(2, seconds))
        }
        if let text = environment["TESSERA_CHECKOUT_SESSION_LIFETIME"] {
            guard let seconds = Int(text), (60...2_592_000).contains(seconds) else {
                throw CommandFailure(
                    message: "TESSERA_CHECKOUT_SESSION_LIFETIME: \(text) is not 60-2592000 seconds (a minute to 30 days)",
                    exitCode: 2)
            }
            checkout.sessionLifetime = TimeInterval(seconds)
        }
        checkout.abandonedSessionRetention = TimeInterval(try Self.wholeNumber(
            nil, flag: "TESSERA_CHECKOUT_ABANDONED_SESSION_RETENTION", variable: "TESSERA_CHECKOUT_ABANDONED_SESSION_RETENTION",
            default: 7 * 86_400, range: 0...31_536_000, environment))
        checkout.anonymousSessionsPerMinute = try Self.wholeNumber(
            nil, flag: "TESSERA_CHECKOUT_ANONYMOUS_SESSIONS_PER_MINUTE", variable: "TESSERA_CHECKOUT_ANONYMOUS_SESSIONS_PER_MINUTE",
            default: 120, range: 0...1_000_000, environment)
        let signer: PassSigner
        var orderSettings: ServerConfiguration.Orders?
        if let identitySettings {
            let first = try identitySettings.firstPassSource()
            signer = first.signer
            templates = first.templates.path
        } else {
            signer = try PassSigner(credentials: try credentials.load())
            orderSettings = try orders.load(
                wwdr: credentials.resolvedWWDR, environment: environment, pkcs11: try credentials.pkcs11.module())
        }
        let registry = PrometheusCollectorRegistry()
        var metricsFactory = PrometheusMetricsFactory(registry: registry)
        // Waits for a database connection are normally tens of microseconds: buckets from 50 µs, not 5 ms.
        metricsFactory.durationHistogramBuckets["tessera_postgres_pool_wait_seconds"] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        MetricsSystem.bootstrap(metricsFactory)
        var apnsConfiguration = try identitySettings.map { try apns.endpoint(identities: $0) }
            ?? apns.configuration(signerCredentials: credentials, orders: orderSettings != nil)
        let sending = try apns.sending(environment)
        apnsConfiguration?.connections = sending.connections

        let batchSize = try Self.wholeNumber(
            campaignBatchSize, flag: "--campaign-batch-size", variable: "TESSERA_CAMPAIGN_BATCH_SIZE", default: 500,
            range: 1...10_000, environment)
        var configuration = ServerConfiguration(
            host: host, port: port, publicURL: publicURL, database: database,
            templatesDirectory: URL(fileURLWithPath: templates), signer: signer, orders: orderSettings,
            webService: try Self.webService(adminToken: adminToken, environment), apns: apnsConfiguration, merchant: merchant,
            checkout: checkout, checkoutAPIKey: checkoutAPIKey,
            connectionLimits: connectionLimits,
            shutdown: try readShutdownLimits(environment))
        configuration.campaigns.batchSize = batchSize
        configuration.trustedProxies = trustedProxies
        configuration.databaseWait = try Self.seconds(
            databaseWait, environment, "TESSERA_DATABASE_WAIT", "database-wait", default: 60)
        // The dispatcher keeps as many pushes in flight as the connections carry together.
        configuration.pushDispatch.concurrency = sending.connections * sending.inFlight
        configuration.pushDispatch.batchSize = max(configuration.pushDispatch.batchSize, configuration.pushDispatch.concurrency)
        configuration.eventRetention.days = try Self.wholeNumber(
            eventRetentionDays, flag: "--event-retention-days", variable: "TESSERA_EVENT_RETENTION_DAYS", default: 30,
            range: 1...3_650, environment)
        configuration.webhook = webhook
        configuration.google = try googleConfiguration(publicURL: publicURL)
        configuration.identities = identitySettings
        configuration.templateWatch.pollInterval = pollInterval
        let app = try await { () async throws in
            do {
                return try await TesseraServer.makeApplication(configuration: configuration, metrics: registry, logger: logger)
            } catch let error as ServerConfigurationError where error.setting == "apns" {
                throw CommandFailure(message: "APNs: \(error.reason)")
            } catch let error as ServerConfigurationError where error.setting == "identities" {
                throw CommandFailure(message: "--identities: \(error.reason)")
            } catch let error as ServerConfigurationError where error.setting == "database" {
                throw CommandFailure(message: "--database: \(error.reason)")
            }
        }()
        logger.info(
            "tessera serve",
            metadata: [
                "publicURL": "\(publicURL.absoluteString)", "database": "\(database.redactedDescription)",
                "templates": "\(identitySettings.map { "\($0.loaded.passIdentities.count) identities" } ?? templates)", "pushes": "\(apnsConfiguration == nil ? "off" : "on")",
                "checkout": "\(merchant == nil ? "off" : "on")", "orders": "\(orderSettings == nil && identitySettings?.loaded.orderIdentities.isEmpty ?? true ? "off" : "on")",
                "maximumConnections": "\(connectionLimits.maximumConnections)",
            ])
        do {
            try await TesseraServer.run(app, configuration: configuration, logger: logger)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw CommandFailure(message: "--port \(port): \(host):\(port) is already in use (another tessera serve, or another program, listens there)")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw CommandFailure(message: "--host \(host): not an address of this machine")
        } catch is SocketAddressError.UnknownHost {
            throw CommandFailure(message: "--host \(host): not an IP address or a name this machine can resolve")
        } catch let error as SocketAddressError {
            throw CommandFailure(message: "--host \(host): not an address this machine can listen on (\(error))")
        } catch {
            throw CommandFailure(message: "server stopped: \(error)")
        }
    }
}

extension ServeCommand {
    /// A whole-number setting: the flag, else the environment variable, else the default; outside `range` (or not a
    /// number in the variable) it stops start-up with exit code 2, naming the flag or variable.
    static func wholeNumber(
        _ flag: Int?, flag name: String, variable: String, default value: Int, range: ClosedRange<Int>,
        _ environment: [String: String]
    ) throws -> Int {
        let number = try flag ?? environment[variable].map { text in
            guard let parsed = Int(text) else {
                throw CommandFailure(message: "\(variable): \(text) is not a whole number", exitCode: 2)
            }
            return parsed
        } ?? value
        guard range.contains(number) else {
            throw CommandFailure(
                message: "\(name): must be from \(range.lowerBound) to \(range.upperBound)", exitCode: 2)
        }
        return number
    }

    /// The grace period and hard deadline of a shutdown from flags or environment variables.
    func readShutdownLimits(_ environment: [String: String]) throws -> ShutdownLimits {
        let grace = try Self.seconds(
            shutdownGracePeriod, environment, "TESSERA_SHUTDOWN_GRACE", "shutdown-grace-period", default: 25)
        let deadline = try Self.seconds(
            shutdownDeadline, environment, "TESSERA_SHUTDOWN_DEADLINE", "shutdown-deadline", default: 30)
        guard deadline >= grace else {
            throw CommandFailure(message: "--shutdown-deadline: must not be shorter than --shutdown-grace-period", exitCode: 2)
        }
        return ShutdownLimits(gracePeriod: grace, hardDeadline: deadline)
    }

    /// A number of seconds from a flag or an environment variable, as a duration; usage errors name the flag.
    static func seconds(
        _ flag: Double?, _ environment: [String: String], _ variable: String, _ name: String, default value: Double
    ) throws -> Duration {
        let given = try flag ?? environment[variable].map { text in
            guard let parsed = Double(text) else {
                throw CommandFailure(message: "\(variable): \(text) is not a number of seconds", exitCode: 2)
            }
            return parsed
        } ?? value
        guard given > 0, given <= 86_400 else {
            throw CommandFailure(message: "--\(name): must be more than 0 and at most 86400 seconds", exitCode: 2)
        }
        return .milliseconds(Int64((given * 1000).rounded()))
    }

    /// The timeouts and connection cap from flags or environment variables; usage errors name the flag.
    func readConnectionLimits(_ environment: [String: String]) throws -> ConnectionLimits {
        func seconds(_ flag: Double?, _ variable: String, _ name: String, default value: Double) throws -> Duration {
            try Self.seconds(flag, environment, variable, name, default: value)
        }
        let cap = try maxConnections ?? environment["TESSERA_MAX_CONNECTIONS"].map { text in
            guard let parsed = Int(text) else {
                throw CommandFailure(message: "TESSERA_MAX_CONNECTIONS: \(text) is not a whole number", exitCode: 2)
            }
            return parsed
        }
        if let cap, cap < 1 {
            throw CommandFailure(message: "--max-connections: must be at least 1", exitCode: 2)
        }
        return ConnectionLimits(
            idleTimeout: try seconds(idleTimeout, "TESSERA_IDLE_TIMEOUT", "idle-timeout", default: 60),
            headerReadTimeout: try seconds(headerTimeout, "TESSERA_HEADER_TIMEOUT", "header-timeout", default: 30),
            bodyReadTimeout: try seconds(bodyTimeout, "TESSERA_BODY_TIMEOUT", "body-timeout", default: 60),
            maximumConnections: cap)
    }
}

extension ServerConfiguration.Database {
    /// The database without its password, for logs.
    var redactedDescription: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.percentEncodedPassword = "***" }
            return components.string ?? "postgres://…"
        }
    }
}
