import ArgumentParser
import Checkout
import Foundation
import Hummingbird
import Logging
import Metrics
import PassBundle
import PassWebService
import Prometheus
import TesseraServer

/// `tessera serve`: the pass web service, issuer API and pushes, on SQLite by default.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the pass web service (Apple's device protocol), the issuer API and APNs pushes.",
        discussion: """
            Every option can also come from an environment variable (TESSERA_PORT, TESSERA_PUBLIC_URL, \
            TESSERA_DATABASE, TESSERA_TEMPLATES, TESSERA_CERT, TESSERA_KEY, TESSERA_P12, TESSERA_WWDR, \
            TESSERA_ADMIN_TOKEN_FILE or TESSERA_ADMIN_TOKEN, TESSERA_APNS_...). Stops gracefully on SIGTERM/SIGINT.
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

    @Option(help: "File holding the issuer API's bearer token (TESSERA_ADMIN_TOKEN_FILE or TESSERA_ADMIN_TOKEN); none: API off.")
    var adminTokenFile: String?

    @OptionGroup var apns: APNsOptions

    @Option(help: "Merchant configuration (JSON, see docs/checkout.md): turns on the checkout API and payment sheet (TESSERA_MERCHANT_CONFIG).")
    var merchantConfig: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (TESSERA_LOG_LEVEL; default info).")
    var logLevel: String?

    @Flag(help: "Run request handlers on Swift Concurrency's default thread pool instead of the connections' event loops (TESSERA_DEFAULT_EXECUTOR=1).")
    var defaultExecutor = false

    /// Whether request handlers run on the event loops (the default; see ``Tessera/main()``).
    var runsTasksOnEventLoops: Bool {
        !defaultExecutor && ProcessInfo.processInfo.environment["TESSERA_DEFAULT_EXECUTOR"] != "1"
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let host = host ?? environment["TESSERA_HOST"] ?? "127.0.0.1"
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
            throw CommandFailure(message: error.description, exitCode: 2)
        }
        let templates = templates ?? environment["TESSERA_TEMPLATES"] ?? "./PassTemplates"
        guard FileManager.default.fileExists(atPath: templates) else {
            throw CommandFailure(message: "--templates: folder \(templates) does not exist")
        }
        let adminToken = try Secret.read(
            file: adminTokenFile ?? environment["TESSERA_ADMIN_TOKEN_FILE"], environment: "TESSERA_ADMIN_TOKEN")
        if let adminToken, adminToken.count < 16 {
            throw CommandFailure(message: "admin token: at least 16 characters are needed")
        }

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
        // The merchant's API key: apiKeyFile in the merchant configuration, or TESSERA_CHECKOUT_API_KEY.
        let checkoutAPIKey = merchant?.apiKeyFile == nil ? environment["TESSERA_CHECKOUT_API_KEY"] : nil
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
            checkout.recoveryInterval = .seconds(min(5, seconds))
        }
        let signer = try PassSigner(credentials: try credentials.load())
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let pushSender = try await apns.makeSender(signerCredentials: credentials, logger: logger)

        let configuration = ServerConfiguration(
            host: host, port: port, publicURL: publicURL, database: database,
            templatesDirectory: URL(fileURLWithPath: templates), signer: signer,
            webService: .init(adminToken: adminToken), pushSender: pushSender?.sender, merchant: merchant,
            checkout: checkout, checkoutAPIKey: checkoutAPIKey, additionalServices: pushSender.map { [$0.service] } ?? [])
        let app = try await TesseraServer.makeApplication(configuration: configuration, metrics: registry, logger: logger)
        logger.info(
            "tessera serve",
            metadata: [
                "publicURL": "\(publicURL.absoluteString)", "database": "\(database.redactedDescription)",
                "templates": "\(templates)", "pushes": "\(pushSender == nil ? "off" : "on")",
                "checkout": "\(merchant == nil ? "off" : "on")",
            ])
        do {
            try await app.runService()
        } catch {
            throw CommandFailure(message: "server stopped: \(error)")
        }
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
            if components.password != nil { components.password = "…" }
            return components.string ?? "postgres://…"
        }
    }
}
