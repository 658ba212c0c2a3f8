import TesseraHTTP
import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import PassBundle
import PassCrypto
import PassStore
import PassWebService
import PaymentRequest
import PaymentToken
import Synchronization
import TesseraServer
import TesseraTestSupport

/// A merchant with a catalogue, shipping, tax and coupons; a test Apple PKI and merchant key; a pass issuer; and the
/// checkout and pass web service routes on one router.
struct CheckoutFixture: Sendable {
    static let merchantID = "merchant.dev.tessera.test"

    let pki: ApplePayTestPKI
    let merchantIdentity: TestMerchantIdentity
    let merchant: MerchantConfiguration
    let store: MemoryCheckoutStore
    let processor: RecordingPaymentProcessor
    let issuer: PassIssuer
    /// The chain the passes are signed with (its root verifies them).
    let passChain: TestChain
    let passService: PassWebService
    let service: CheckoutService
    let clock: Clock

    /// A clock tests move by hand.
    final class Clock: Sendable {
        private let current = Mutex(Date())
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// The merchant's API key, made at test time; the request helpers below send it, as the merchant's server would.
    static let apiKey = "sk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")

    static func merchantConfiguration() -> MerchantConfiguration {
        var merchant = MerchantConfiguration(merchantIdentifier: merchantID, displayName: "Tessera Arena",
                                             countryCode: "US", currencyCode: "USD")
        merchant.platformName = "Tessera Market"
        merchant.shippingMethods = [
            .init(identifier: "standard", label: "Standard", amount: 5, businessDays: 3...5),
            .init(identifier: "express", label: "Express", amount: 15, businessDays: 1...2),
        ]
        merchant.tax = .init(label: "Sales Tax", rate: Decimal(string: "0.0825")!)
        merchant.coupons = [
            .init(code: "SAVE10", percentOff: 10),
            .init(code: "FIVEOFF", amountOff: 5),
            .init(code: "OLD", percentOff: 50, expires: Date(timeIntervalSince1970: 1_600_000_000)),
        ]
        merchant.requiredShippingContactFields = [.postalAddress, .name, .email]
        merchant.shippingRegions = [.init(countryCode: "US", postalCodePrefixes: ["9"]), .init(countryCode: "CA")]
        merchant.products = [
            "TICKET-GA": .init(name: "The Midnight Echo - General Admission", unitPrice: 45, requiresShipping: false,
                               passTemplate: "event-ticket", passFields: ["seat": "GA-{number}"]),
            "TSHIRT": .init(name: "Tour T-shirt", unitPrice: 25),
            "POSTER": .init(name: "Poster", unitPrice: Decimal(string: "12.50")!),
        ]
        merchant.initiativeContext = "shop.example.test"
        return merchant
    }

    init(developmentMode: Bool = false, withIssuer: Bool = true, processor custom: (any PaymentProcessor)? = nil,
         configuration: CheckoutService.Configuration = .init(), logger: Logger = Logger(label: "test.checkout"),
         passesBundleMaximumSize: Int = PassesBundle.maximumSize, walletOrderIssuer: (any WalletOrderIssuing)? = nil,
         wrapPassIssuer: PassIssuerWrapper = PassIssuerWrapper { $0 },
         wrapStore: CheckoutStoreWrapper = CheckoutStoreWrapper { $0 },
         configure: (inout MerchantConfiguration) -> Void = { _ in }) throws {
        ExecutorWatchdog.start()
        let clock = Clock()
        self.clock = clock
        pki = try ApplePayTestPKI()
        merchantIdentity = try TestMerchantIdentity(merchantID: Self.merchantID)
        let directory = try TemporaryDirectory.make(prefix: "checkout")
        var merchant = Self.merchantConfiguration()
        merchant.appleRootCertificatePath = try pki.writeRoot(to: directory)
        merchant.paymentProcessingKeyPaths = [try merchantIdentity.write(to: directory).key]
        merchant.developmentMode = developmentMode
        let keyFile = directory.appendingPathComponent("api.key")
        try Data((Self.apiKey + "\n").utf8).write(to: keyFile)
        merchant.apiKeyFile = keyFile.path
        configure(&merchant)
        self.merchant = merchant
        store = MemoryCheckoutStore(now: { clock.now })
        processor = RecordingPaymentProcessor()
        let chain = try TestChain()
        passChain = chain
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
            wwdrPath: chain.path("wwdr.pem")))
        issuer = PassIssuer(
            store: MemoryPassStore(), signer: signer,
            configuration: .init(templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"),
                                 publicURL: URL(string: "https://passes.example.test")!,
                                 passesBundleMaximumSize: passesBundleMaximumSize),
            now: { clock.now })
        passService = PassWebService(issuer: issuer, configuration: .init(), now: { clock.now })
        service = try CheckoutService(merchant: merchant, configuration: configuration, store: wrapStore.wrap(store),
                                      processor: custom ?? processor,
                                      passIssuer: withIssuer ? wrapPassIssuer.wrap(OrderPassIssuer(issuer: issuer)) : nil,
                                      walletOrderIssuer: walletOrderIssuer, logger: logger,
                                      now: { clock.now })
    }

    /// The router with the checkout and pass web service routes.
    func router() -> RouteTable {
        let router = RouteTable()
        passService.addRoutes(to: router)
        service.addRoutes(to: router)
        return router
    }

    /// Runs `test` against the routes on a real loopback socket. The server, its handlers and `test` run on a
    /// thread of their own (``EventLoopExecutor/run(_:)``), so neither waits behind the suite's synchronous tests
    /// for one of Swift's few cooperative threads.
    func withClient<Value: Sendable>(_ test: @escaping @Sendable (LiveTestClient) async throws -> Value)
        async throws -> Value
    {
        try await Self.withClient(router: { router() }, test)
    }

    /// Runs `test` against the routes `router` builds, on a real loopback socket, the server and `test` on a thread
    /// of their own, as ``withClient(_:)`` does for the fixture's routes.
    /// - Parameters:
    ///   - router: Builds the routes (a checkout service of the test's own, say).
    ///   - test: The test, given the live client.
    /// - Returns: What `test` returns.
    static func withClient<Value: Sendable>(
        router: @escaping @Sendable () -> RouteTable,
        _ test: @escaping @Sendable (LiveTestClient) async throws -> Value
    ) async throws -> Value {
        try await EventLoopExecutor.run { executor in
            let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  eventLoopGroupProvider: .shared(executor.eventLoopGroup))
            return try await app.testLive { client in try await test(client) }
        }
    }

    /// A payment like ``payment(minorUnits:currencyNumeric:applicationData:transactionId:signingTime:tamper:shippingContact:)``
    /// signed at the wall-clock time, for a `tessera serve` process: it checks the signing time against its own clock,
    /// not the fixture's (which stays where the fixture was made, and a loaded machine can take longer than the five
    /// minutes Apple Pay's tolerance allows to reach the request).
    func paymentSignedNow(minorUnits: Decimal, currencyNumeric: String = "840", applicationData: Data?,
                          transactionId: Data? = nil, tamper: Bool = false,
                          shippingContact: [String: Any]? = Self.fullContact) throws -> Data {
        try payment(minorUnits: minorUnits, currencyNumeric: currencyNumeric, applicationData: applicationData,
                    transactionId: transactionId, signingTime: Date(), tamper: tamper, shippingContact: shippingContact)
    }

    /// A signed, encrypted Apple Pay payment (`{"token": ..., "shippingContact": ...}`) as a device would send it.
    /// - Parameters:
    ///   - accountNumber: The device account number inside (a Visa number by default).
    ///   - paymentMethod: The token's `paymentMethod`, outside Apple's signature; left out when `nil`.
    func payment(minorUnits: Decimal, currencyNumeric: String = "840", applicationData: Data?,
                 transactionId: Data? = nil, signingTime: Date? = nil, tamper: Bool = false,
                 shippingContact: [String: Any]? = Self.fullContact, accountNumber: String = "4761120010001234",
                 paymentMethod: [String: Any]? = ["displayName": "Visa 1234", "network": "Visa", "type": "debit"]) throws -> Data {
        let plaintext: [String: Any] = [
            "applicationPrimaryAccountNumber": accountNumber, "applicationExpirationDate": "291231",
            "currencyCode": currencyNumeric, "transactionAmount": NSDecimalNumber(decimal: minorUnits),
            "deviceManufacturerIdentifier": "040010030273", "paymentDataType": "3DSecure",
            "paymentData": ["onlinePaymentCryptogram": "AOOXGFQAAAAAAAAAAAAAAAAAAAAA=", "eciIndicator": "7"],
        ]
        let encryptor = try PaymentTokenEncryptor(merchantPublicKeyDER: try MerchantKey(data: Data(merchantIdentity.keyPEM.utf8)).publicKeyDER,
                                                  merchantIdentifier: MerchantIdentifier(merchantID: Self.merchantID))
        var token = try encryptor.seal(try JSONSerialization.data(withJSONObject: plaintext), transactionId: transactionId,
                                       applicationData: applicationData)
        token.signature = try pki.signature(for: token.signedContent, at: signingTime ?? clock.now)
        if tamper { token.data[token.data.startIndex] ^= 0x01 }
        var tokenObject: [String: Any] = [
            "paymentData": try JSONSerialization.jsonObject(with: try token.jsonData()),
            "transactionIdentifier": token.header.transactionIdHex.uppercased(),
        ]
        tokenObject["paymentMethod"] = paymentMethod
        var payment: [String: Any] = ["token": tokenObject, "billingContact": Self.fullContact]
        payment["shippingContact"] = shippingContact
        return try JSONSerialization.data(withJSONObject: payment)
    }

    /// What Apple Pay gives for goods that do not ship when the merchant asks for a name and an email: no address.
    nonisolated(unsafe) static let ticketContact: [String: Any] = [
        "givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.test",
    ]

    nonisolated(unsafe) static let fullContact: [String: Any] = [
        "givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.test", "phoneNumber": "+1 415 555 0100",
        "addressLines": ["1 Infinite Loop"], "locality": "Cupertino", "administrativeArea": "CA", "postalCode": "95014",
        "countryCode": "US",
    ]
}

/// JSON helpers for requests and responses.
enum JSONBody {
    static func buffer(_ object: Any) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    static func object(_ response: LiveTestClient.Response) throws -> [String: Any] {
        let data = Data(response.body.readableBytesView)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CheckoutTestError("not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    /// JSON with the merchant's API key.
    static let json: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(CheckoutFixture.apiKey)"]
    /// JSON with no credentials, as a buyer's browser sends it before it has a client secret.
    static let anonymous: HTTPFields = [.contentType: "application/json"]

    static func headers(idempotencyKey: String, anonymous: Bool = false) -> HTTPFields {
        var fields = anonymous ? Self.anonymous : json
        fields[HTTPField.Name("Idempotency-Key")!] = idempotencyKey
        return fields
    }
}

struct CheckoutTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension LiveTestClient {
    /// Creates a session and returns its JSON.
    func createSession(_ body: [String: Any], key: String = UUID().uuidString) async throws -> [String: Any] {
        try await execute(uri: "/checkout/v1/sessions", method: .post, headers: JSONBody.headers(idempotencyKey: key),
                          body: try JSONBody.buffer(body)) { response in
            guard response.status == .created else {
                throw CheckoutTestError("create session: \(response.status) \(String(buffer: response.body))")
            }
            return try JSONBody.object(response)
        }
    }

    /// POSTs JSON and returns the status and the JSON answer.
    func post(_ uri: String, _ body: Any) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await execute(uri: uri, method: .post, headers: JSONBody.json, body: try JSONBody.buffer(body)) { response in
            (response.status, try JSONBody.object(response))
        }
    }

    /// POSTs raw bytes.
    func post(_ uri: String, data: Data) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await execute(uri: uri, method: .post, headers: JSONBody.json, body: ByteBuffer(bytes: data)) { response in
            (response.status, try JSONBody.object(response))
        }
    }

    /// GETs JSON.
    func get(_ uri: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await execute(uri: uri, method: .get, headers: JSONBody.json) { response in
            (response.status, try JSONBody.object(response))
        }
    }

    /// Sends a request with only the given headers and returns the status and the JSON answer.
    func send(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: Any? = nil)
        async throws -> (HTTPResponse.Status, [String: Any])
    {
        var fields = headers
        if body != nil { fields[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: fields,
                                 body: try body.map { try JSONBody.buffer($0) }) { response in
            (response.status, (try? JSONBody.object(response)) ?? [:])
        }
    }
}

/// What the fixture's pass issuer is wrapped in (a test's stand-in of a failing issuer); a struct, so that a
/// trailing closure still configures the merchant.
struct PassIssuerWrapper {
    var wrap: (any OrderPassIssuing) -> any OrderPassIssuing
}

/// What the checkout service's store is wrapped in (a test's stand-in of a failing store); the fixture's `store` stays
/// the memory store underneath.
struct CheckoutStoreWrapper {
    var wrap: (any CheckoutStore) -> any CheckoutStore
}
