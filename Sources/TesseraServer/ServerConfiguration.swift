public import TesseraHTTP
public import APNs
public import Checkout
public import Foundation
public import PassBundle
public import PassCrypto
public import PassWebService
public import ServiceLifecycle
public import SigningIdentities
public import Webhooks

/// Everything `tessera serve` needs, read from flags and environment variables by the CLI.
public struct ServerConfiguration: Sendable {
    /// Where the store lives.
    public enum Database: Sendable, Equatable {
        /// An SQLite file (created with its folder when missing).
        case sqlite(path: String)
        /// A PostgreSQL database: `postgres://user:password@host:port/database`.
        case postgres(url: String)

        /// Parses `sqlite:PATH`, a bare path, or `postgres://...` / `postgresql://...`.
        /// - Throws: ``ServerConfigurationError`` for anything else.
        public init(parsing text: String) throws {
            if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
                guard URLComponents(string: text) != nil else {
                    // Never the URL itself in the message: it holds the password.
                    throw ServerConfigurationError(
                        setting: "database", "postgres URL that does not parse (characters such as %, # or @ in the user "
                            + "or password must be percent-encoded: %25, %23, %40)")
                }
                self = .postgres(url: text)
            } else if text.hasPrefix("sqlite:") {
                let path = String(text.dropFirst("sqlite:".count))
                guard !path.isEmpty else { throw ServerConfigurationError(setting: "database", "sqlite: needs a file path") }
                self = .sqlite(path: path)
            } else if text.contains("://") {
                // The scheme alone: what follows it may be a password.
                let scheme = text.components(separatedBy: "://").first ?? ""
                throw ServerConfigurationError(setting: "database", "\(scheme.prefix(20))://…: use sqlite:PATH or postgres://...")
            } else {
                self = .sqlite(path: text)
            }
        }
    }

    /// Address to listen on.
    public var host: String
    /// Port to listen on (0 picks a free one).
    public var port: Int
    /// The URL devices and holders reach the server at; becomes every pass's `webServiceURL`.
    public var publicURL: URL
    /// The store.
    public var database: Database
    /// The templates folder.
    public var templatesDirectory: URL
    /// Signs passes and personalization tokens.
    public var signer: PassSigner
    /// Wallet orders beside the passes (`/v1/orders/...`, `/api/v1/orders`); `nil` leaves them off.
    public var orders: Orders?
    /// Several signing identities (`--identities`): when set, its pass identities' templates folders and signers
    /// replace ``templatesDirectory`` and ``signer``, its order identities replace ``orders``, and pushes go out with
    /// the credentials that cover each topic.
    public var identities: Identities?
    /// The web service's limits and issuer API token.
    public var webService: PassWebService.Configuration
    /// Where and how pushes go to APNs; the server makes the client, starts and stops it, and sends both queues'
    /// pushes through it. `nil` leaves pushes to ``pushSender``.
    public var apns: APNsClient.Configuration?
    /// Sends pushes when ``apns`` is not set (a test's stand-in); with neither, pushes are off (they stay queued
    /// until a sender is configured).
    public var pushSender: (any PushSender)?
    /// How the push dispatcher paces itself.
    public var pushDispatch: PushDispatcher.Configuration
    /// How the campaign runner paces itself (passes per batch).
    public var campaigns: CampaignRunner.Configuration = .init()
    /// How long the event log keeps events.
    public var eventRetention: EventRetention.Configuration = .init()
    /// Where events are posted (`--webhook-url`); `nil`: no webhooks.
    public var webhook: WebhookDispatcher.Configuration?
    /// Google Wallet (`--google-issuer-id`, `--google-service-account`); `nil`: no Google side.
    public var google: GoogleWalletSync.Configuration?
    /// How edited templates are noticed (besides `SIGHUP`).
    public var templateWatch: TemplateWatcher.Configuration = .init()
    /// The merchant checkout (`/checkout/...`); `nil` leaves it off.
    public var merchant: MerchantConfiguration?
    /// The checkout's limits and recovery timing.
    public var checkout: CheckoutService.Configuration
    /// The merchant's API key when it does not come from `apiKeyFile` (`TESSERA_CHECKOUT_API_KEY`).
    public var checkoutAPIKey: String?
    /// Long-lived services of the caller's to start and stop with the server.
    public var additionalServices: [any Service]
    /// Idle, header-read and body-read timeouts and the connection cap.
    public var connectionLimits: ConnectionLimits
    /// The reverse proxies whose `X-Forwarded-For` or `Forwarded` names the client (`--trusted-proxy`).
    public var trustedProxies: TrustedProxies = .none
    /// How long the start waits for a first connection to PostgreSQL before it stops with an error (`--database-wait`).
    public var databaseWait: Duration = .seconds(60)
    /// The grace period and hard deadline of a shutdown.
    public var shutdown: ShutdownLimits
    /// Live counts of connections and requests in flight (shared by the connection handlers and shutdown).
    public let activity: ServerActivity

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, publicURL: URL, database: Database, templatesDirectory: URL,
        signer: PassSigner, orders: Orders? = nil, webService: PassWebService.Configuration = .init(), apns: APNsClient.Configuration? = nil,
        pushSender: (any PushSender)? = nil,
        pushDispatch: PushDispatcher.Configuration = .init(), merchant: MerchantConfiguration? = nil,
        checkout: CheckoutService.Configuration = .init(), checkoutAPIKey: String? = nil,
        additionalServices: [any Service] = [], connectionLimits: ConnectionLimits = .init(),
        shutdown: ShutdownLimits = .init(), activity: ServerActivity = .init()
    ) {
        self.checkout = checkout
        self.checkoutAPIKey = checkoutAPIKey
        self.host = host
        self.port = port
        self.publicURL = publicURL
        self.database = database
        self.templatesDirectory = templatesDirectory
        self.signer = signer
        self.webService = webService
        self.orders = orders
        self.apns = apns
        self.pushSender = pushSender
        self.pushDispatch = pushDispatch
        self.merchant = merchant
        self.additionalServices = additionalServices
        self.connectionLimits = connectionLimits
        self.shutdown = shutdown
        self.activity = activity
    }
}

extension ServerConfiguration {
    /// What the server needs to issue Wallet orders: their templates and the Order Type ID credentials. Order pushes
    /// go through the same APNs sender as pass pushes (topic: the order type identifier), so APNs token
    /// authentication, which covers every topic of the team, is the one that reaches both.
    public struct Orders: Sendable {
        /// The order templates folder, one template per sub-folder (`shop-order/order.json`).
        public var templatesDirectory: URL
        /// Signs orders with the Order Type ID certificate.
        public var signer: OrderSigner

        /// Creates the orders settings.
        /// - Parameters:
        ///   - templatesDirectory: The order templates folder.
        ///   - signer: Signs orders.
        public init(templatesDirectory: URL, signer: OrderSigner) {
            self.templatesDirectory = templatesDirectory
            self.signer = signer
        }
    }
}

extension ServerConfiguration {
    /// The signing identities of an identities file, and how it is read again.
    public struct Identities: Sendable {
        /// The identities file (read again on `SIGHUP` and when it or a file it names changes).
        public var file: URL
        /// The identities loaded at start-up.
        public var loaded: SigningIdentities
        /// How often the identities file and the credential files it names are compared; `nil` leaves it to `SIGHUP`.
        public var pollInterval: Duration?
        /// The PKCS#11 module and PIN for keys given as PKCS#11 URIs (used again on each reload).
        public var pkcs11: PKCS11Module?

        /// Creates the identities settings.
        public init(file: URL, loaded: SigningIdentities, pollInterval: Duration? = .seconds(2), pkcs11: PKCS11Module? = nil) {
            self.file = file
            self.loaded = loaded
            self.pollInterval = pollInterval
            self.pkcs11 = pkcs11
        }
    }
}

/// A server setting that cannot be used, naming the ``ServerConfiguration`` property (the CLI names its flag).
public struct ServerConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The ``ServerConfiguration`` property at fault, such as `database`.
    public let setting: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - setting: The property at fault.
    ///   - reason: What is wrong with it.
    public init(setting: String, _ reason: String) {
        self.setting = setting
        self.reason = reason
    }

    /// `setting: reason`.
    public var description: String { "\(setting): \(reason)" }
}
