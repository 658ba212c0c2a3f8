import HTTPTypes
public import Foundation
public import Logging
import PassCrypto
import PaymentRequest
import PaymentToken
public import ServiceLifecycle

/// The merchant checkout: sessions, Apple Pay sheet updates, merchant validation, token authorization, orders,
/// order passes and the browser payment sheet. It takes and returns domain values and throws ``CheckoutError`` (or
/// ``AuthorizationFailure`` for a payment); the HTTP module (`TesseraHTTP`) serves it under `/checkout`.
///
/// ```swift
/// let merchant = try MerchantConfiguration.load(contentsOf: URL(fileURLWithPath: "merchant.json"))
/// let checkout = try CheckoutService(merchant: merchant, passIssuer: OrderPassIssuer(issuer: issuer),
///                                    merchantValidator: try MerchantValidator.ifConfigured(merchant: merchant, logger: logger),
///                                    logger: logger)
/// checkout.addRoutes(to: router)   // TesseraHTTP
/// app.addServices(checkout.services)
/// ```
public final class CheckoutService: Sendable {
    /// Limits of the HTTP API.
    public struct Configuration: Sendable {
        /// Largest accepted request body.
        public var maximumBodySize: Int

        /// How long an authorization may hold a session before recovery takes it as crashed or unanswered and
        /// calls the processor again with its idempotency key (longer than the processor's whole timeout).
        public var authorizationLease: TimeInterval
        /// How often recovery looks for held authorizations and owed passes.
        public var recoveryInterval: Duration
        /// How often the process records its heartbeat in the store, which keeps the authorizations it holds its own.
        public var heartbeatInterval: Duration
        /// Seconds without a heartbeat after which another process takes a process for dead and recovers the
        /// authorizations it held, without waiting for their lease (several heartbeats, so a busy process is not
        /// taken for dead).
        public var holderSilence: TimeInterval
        /// Whether no other process uses the store (SQLite): then at start-up every authorization held by an earlier
        /// process is recovered at once.
        public var exclusiveStore: Bool
        /// How long a session can be updated and paid after it was created (its prices, coupon and shipping are
        /// those of that time): 24 hours by default.
        public var sessionLifetime: TimeInterval
        /// How long an abandoned cart (a session never paid) is kept once it expired, so that its creator can still
        /// read it and see why it was refused: 7 days by default; then it is deleted.
        public var abandonedSessionRetention: TimeInterval = 7 * 86_400
        /// How often abandoned carts are looked for.
        public var abandonedSessionSweepInterval: Duration = .seconds(3600)
        /// How many sessions one client may create without the merchant's API key: this many at once, then this many
        /// a minute (a buy page creates one per tap of its button); 0 is no limit. The merchant's own server, with
        /// its key, is never limited.
        public var anonymousSessionsPerMinute = 120
        /// Merchant validations one client may ask for at once, each a mutual-TLS call to Apple.
        public var merchantValidationBurst = 20
        /// Merchant validations a minute one client regains after the burst (0: none).
        public var merchantValidationsPerMinute = 20

        /// Creates a configuration.
        /// - Parameters:
        ///   - maximumBodySize: Largest accepted request body.
        ///   - authorizationLease: Seconds before a held authorization is retried, whoever holds it.
        ///   - recoveryInterval: How often recovery runs.
        ///   - heartbeatInterval: How often the process's heartbeat is recorded.
        ///   - holderSilence: Seconds of silence after which a holder is taken for dead.
        ///   - exclusiveStore: Whether no other process uses the store.
        ///   - sessionLifetime: Seconds a session can be updated and paid after its creation.
        public init(maximumBodySize: Int = 64 << 10, authorizationLease: TimeInterval = 120,
                    recoveryInterval: Duration = .seconds(2), heartbeatInterval: Duration = .seconds(2),
                    holderSilence: TimeInterval = 8, exclusiveStore: Bool = false, sessionLifetime: TimeInterval = 86_400) {
            self.maximumBodySize = maximumBodySize
            self.authorizationLease = authorizationLease
            self.recoveryInterval = recoveryInterval
            self.heartbeatInterval = heartbeatInterval
            self.holderSilence = holderSilence
            self.exclusiveStore = exclusiveStore
            self.sessionLifetime = sessionLifetime
        }
    }

    /// The merchant configuration.
    public let merchant: MerchantConfiguration
    /// The HTTP limits.
    public let configuration: Configuration
    /// Where sessions and orders live.
    public let store: any CheckoutStore
    /// Who charges verified payments.
    public let processor: any PaymentProcessor
    /// Issues order passes; `nil` skips them (with a note on the order).
    public let passIssuer: (any OrderPassIssuing)?
    /// Issues Wallet orders when the merchant names an Order Type ID (`walletOrders`); `nil` issues none.
    public let walletOrderIssuer: (any WalletOrderIssuing)?
    /// Validates the merchant with Apple; `nil` when no merchant identity is configured (503).
    public let merchantValidator: MerchantValidator?
    /// Prices sessions.
    public let pricing: PricingEngine
    /// The merchant's API key (`Authorization: Bearer`), needed for free-form carts; `nil` allows catalogue carts only.
    let apiKey: String?
    let tokens: TokenTrust?
    let development: DevelopmentPayments?
    /// The logger the service and its routes write to.
    public let logger: Logger
    /// This process among those sharing the store: the holder recorded with each authorization it claims or
    /// recovers, and the name its heartbeat is recorded under. New for every service (every start of the server).
    public let instance: String
    let now: @Sendable () -> Date

    /// Creates the checkout service, reading the payment-processing keys and Apple root named in `merchant`.
    /// - Parameters:
    ///   - merchant: A checked merchant configuration.
    ///   - configuration: HTTP limits.
    ///   - store: Sessions and orders (in memory by default).
    ///   - processor: The payment processor (the recording one by default).
    ///   - passIssuer: Issues order passes (the pass web service's issuer, through `TesseraServer`'s `OrderPassIssuer`).
    ///   - walletOrderIssuer: Issues Wallet orders (the orders web service's issuer), used when the merchant
    ///     configures `walletOrders`.
    ///   - merchantValidator: The merchant validator (``MerchantValidator/ifConfigured(merchant:logger:)``); `nil`
    ///     answers merchant validation with 503. Add ``services`` to the application so its HTTP client shuts down.
    ///   - apiKey: The merchant's API key; `nil` reads `apiKeyFile` (no key: only catalogue carts can be created).
    ///   - logger: The logger.
    ///   - now: The clock (token signing times, coupon expiry, delivery dates).
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when a key, certificate or value cannot be used.
    public init(merchant: MerchantConfiguration, configuration: Configuration = .init(),
                store: any CheckoutStore = MemoryCheckoutStore(),
                processor: any PaymentProcessor = RecordingPaymentProcessor(), passIssuer: (any OrderPassIssuing)? = nil,
                walletOrderIssuer: (any WalletOrderIssuing)? = nil, merchantValidator: MerchantValidator? = nil,
                apiKey: String? = nil, logger: Logger,
                now: @escaping @Sendable () -> Date = Date.init) throws {
        try merchant.validate()
        if merchant.paymentStep != nil, processor is NoPaymentProcessor {
            throw CheckoutError.configuration(
                "paymentStep", "needs a paymentProcessor (webhook or forwardToken): the card token goes to it")
        }
        self.apiKey = try apiKey ?? merchant.apiKey()
        self.merchant = merchant
        self.configuration = configuration
        self.store = store
        self.processor = processor
        self.passIssuer = passIssuer
        self.walletOrderIssuer = walletOrderIssuer
        self.logger = logger
        self.now = now
        instance = Identifiers.make(prefix: "srv_")
        pricing = try PricingEngine(configuration: merchant, calendar: BusinessDayCalendar(now: now))
        development = try merchant.developmentMode
            ? DevelopmentPayments(merchantIdentifier: merchant.merchantIdentifier, now: now()) : nil
        tokens = try TokenTrust(merchant: merchant, development: development)
        self.merchantValidator = merchantValidator
        if let walletOrders = merchant.walletOrders, walletOrderIssuer == nil {
            logger.warning(
                "walletOrders is configured but no Wallet order issuer is available: paid orders are not handed to Wallet",
                metadata: ["orderTypeIdentifier": "\(walletOrders.orderTypeIdentifier)"])
        }
        if merchant.developmentMode {
            logger.warning("checkout development mode is on: test payments are accepted (never use in production)")
        }
        if let webhook = processor as? WebhookPaymentProcessor {
            let budget = webhook.configuration.tries * webhook.configuration.timeoutSeconds
            if configuration.authorizationLease <= TimeInterval(budget) {
                // Recovery would take the held authorization over while its first call is still waiting.
                logger.warning(
                    "the authorization lease is not longer than the payment processor's tries: recovery may call the processor again, with the same idempotency key, while a first call is still waiting",
                    metadata: ["authorizationLease": "\(Int(configuration.authorizationLease))",
                               "processorSeconds": "\(budget)"])
            }
        }
    }

    /// Long-lived parts to run with the application: the heartbeat and recovery of held authorizations and owed
    /// passes, and the merchant validator's HTTP client.
    public var services: [any Service] {
        var services: [any Service] = [CheckoutRecovery(service: self)]
        if let merchantValidator { services.append(merchantValidator) }
        if let processor = processor as? any Service { services.append(processor) }
        return services
    }

    /// Whether development mode's test payments are taken (`POST /checkout/v1/sessions/{id}/test-authorize`).
    public var acceptsTestPayments: Bool { development != nil }

    /// A session the credentials may see (its client secret or the merchant's API key).
    /// - Parameters:
    ///   - id: The session identifier.
    ///   - credentials: What the request gave.
    /// - Returns: The session.
    /// - Throws: ``CheckoutError`` `notFound` (404) or `unauthorized` (401).
    public func session(id: String, credentials: CheckoutCredentials) async throws -> CheckoutSession {
        guard Identifiers.isPlausible(id), let session = try await store.session(id: id) else {
            throw CheckoutError.notFound("session")
        }
        try checkAccess(to: session, credentials)
        return session
    }

    /// A session the credentials may see, which must still be pending (the sheet's updates change it).
    /// - Parameters:
    ///   - id: The session identifier.
    ///   - credentials: What the request gave.
    /// - Returns: The pending session.
    /// - Throws: ``CheckoutError`` `notFound` (404), `unauthorized` (401) or `sessionNotPending` (409).
    public func pendingSession(id: String, credentials: CheckoutCredentials) async throws -> CheckoutSession {
        let session = try await self.session(id: id, credentials: credentials)
        guard session.state == .pending else {
            throw CheckoutError(.sessionNotPending, status: .conflict, session.state == .authorized
                                ? "the session is already authorized" : "the session is already being paid")
        }
        let expiresAt = self.expiresAt(session)
        guard now() < expiresAt else {
            throw CheckoutError(.sessionExpired, status: .gone,
                                "the session expired at \(ISO8601.string(expiresAt)): create a new one")
        }
        return session
    }

    /// When a session stops taking updates and payments: ``Configuration/sessionLifetime`` after its creation.
    func expiresAt(_ session: CheckoutSession) -> Date {
        session.createdAt.addingTimeInterval(configuration.sessionLifetime)
    }

    /// Makes a change to a pending session and stores it over the revision it was made from. When the session
    /// changed meanwhile (another of the sheet's updates, a payment's claim or decline), it is read again and, while
    /// still pending and unexpired, the change is made again from it: no update is lost to a concurrent one.
    /// - Parameters:
    ///   - session: The pending session as read.
    ///   - change: Makes the change (and checks it against the session it is given) and returns the answer.
    /// - Returns: The answer of the change that was stored.
    /// - Throws: What `change` throws; ``CheckoutError`` `sessionNotPending` (409) or `sessionExpired` (410).
    func update<Answer>(_ session: CheckoutSession, _ change: (inout CheckoutSession) throws -> Answer)
        async throws -> Answer
    {
        var current = session
        for _ in 0..<8 {
            var changed = current.nextRevision()
            let answer = try change(&changed)
            if try await store.updatePendingSession(changed) { return answer }
            guard let reread = try await store.session(id: session.id) else { throw CheckoutError.notFound("session") }
            guard reread.state == .pending else {
                throw CheckoutError(.sessionNotPending, status: .conflict, reread.state == .authorized
                                    ? "the session is already authorized" : "the session is already being paid")
            }
            guard now() < expiresAt(reread) else {
                throw CheckoutError(.sessionExpired, status: .gone,
                                    "the session expired at \(ISO8601.string(expiresAt(reread))): create a new one")
            }
            current = reread
        }
        throw CheckoutError(.sessionNotPending, status: .conflict,
                            "the session is being changed by other requests: try again")
    }
}

/// Random identifiers for sessions and orders.
enum Identifiers {
    /// `prefix` and 24 random letters and digits.
    static func make(prefix: String) -> String {
        prefix + SecretToken.random(length: 24)
    }

    static func isPlausible(_ id: String) -> Bool {
        id.count <= 64 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
