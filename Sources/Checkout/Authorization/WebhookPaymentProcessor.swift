import PassModel
import AsyncHTTPClient
import Crypto
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import PassCrypto
import PaymentRequest
import PaymentToken
import Webhooks
public import ServiceLifecycle

/// Sends each authorization to the merchant's own endpoint (which talks to the gateway) and takes its answer:
/// `paymentProcessor` kinds `webhook` (the decrypted payment) and `forwardToken` (the Apple Pay token unopened).
///
/// The request is a JSON `POST` with `Idempotency-Key` and a `Tessera-Signature: t=<unix seconds>,v1=<hex>` header,
/// `v1` being HMAC-SHA256 with the shared secret over `<t>.<body bytes>`. The endpoint answers 2xx with
/// `{"status": "approved" | "declined", "reference": ..., "reason": ...}`. A timeout, a connection failure or a 5xx
/// is retried with the same idempotency key (three tries in all); then the processor throws and the authorization
/// becomes `processorUnknown`, which recovery retries with the same key.
public final class WebhookPaymentProcessor: PaymentProcessor, Service, Sendable {
    /// Where and how to call the endpoint.
    public struct Configuration: Sendable {
        /// The endpoint: `https`, or `http` to a loopback host (development).
        public var url: URL
        /// The shared secret the signature is made with.
        public var secret: Data
        /// Seconds each try may take.
        public var timeoutSeconds: Int
        /// Forward the encrypted token instead of the decrypted payment.
        public var forwardToken: Bool
        /// Tries per authorization (timeouts, connection failures and 5xx are tried again).
        public var tries: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - url: The endpoint.
        ///   - secret: The signing secret.
        ///   - timeoutSeconds: Seconds per try.
        ///   - forwardToken: Forward the encrypted token.
        ///   - tries: Tries per authorization.
        public init(url: URL, secret: Data, timeoutSeconds: Int = 10, forwardToken: Bool = false, tries: Int = 3) {
            self.url = url
            self.secret = secret
            self.timeoutSeconds = timeoutSeconds
            self.forwardToken = forwardToken
            self.tries = tries
        }
    }

    /// Why the endpoint gave no usable answer.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What happened on the last try.
        public let description: String
    }

    /// The configuration.
    public let configuration: Configuration
    private let client: HTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Date

    /// Creates the processor and its HTTP client (add it to the application's services so the client shuts down).
    /// - Parameters:
    ///   - configuration: Endpoint, secret and timeout.
    ///   - logger: The logger.
    ///   - now: The clock for signature timestamps.
    public init(configuration: Configuration, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        var http = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                            timeout: .init(connect: .seconds(Int64(configuration.timeoutSeconds)),
                                                           read: .seconds(Int64(configuration.timeoutSeconds))))
        http.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    /// Whether the encrypted token is forwarded (kind `forwardToken`).
    public var forwardsEncryptedToken: Bool { configuration.forwardToken }

    /// Posts the authorization and reads the endpoint's decision, retrying with the same idempotency key.
    /// - Parameter request: The payment.
    /// - Returns: Approved or declined, as the endpoint said.
    /// - Throws: ``Failure`` when no try got an answer.
    public func process(_ request: PaymentProcessingRequest) async throws -> PaymentProcessingResult {
        let body = try Self.body(for: request, forwardToken: configuration.forwardToken)
        var lastFailure = "not tried"
        for attempt in 1...max(configuration.tries, 1) {
            if attempt > 1 { try await Task.sleep(for: .milliseconds(250 << (attempt - 2))) }
            do {
                if let result = try await send(body, idempotencyKey: request.idempotencyKey) { return result }
                lastFailure = "the endpoint answered 5xx"
            } catch let failure as Failure {
                throw failure
            } catch {
                lastFailure = "\(error)"
            }
            logger.warning("payment webhook try failed", metadata: [
                "order": "\(request.orderId)", "try": "\(attempt)", "error": "\(lastFailure)",
            ])
        }
        throw Failure(description: "no answer from the payment endpoint after \(configuration.tries) tries: \(lastFailure)")
    }

    /// One try: the decision, `nil` for a 5xx (try again), or ``Failure`` for an answer that is not a decision.
    private func send(_ body: Data, idempotencyKey: String) async throws -> PaymentProcessingResult? {
        var request = HTTPClientRequest(url: configuration.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        request.headers.add(name: "Tessera-Signature",
                            value: Self.signature(body: body, secret: configuration.secret, timestamp: now()))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(Int64(configuration.timeoutSeconds)),
                                                logger: logger)
        let bytes = try await response.body.collect(upTo: 1 << 16)
        if response.status.code >= 500 { return nil }
        guard (200..<300).contains(response.status.code) else {
            throw Failure(description: "the payment endpoint answered \(response.status.code)")
        }
        struct Answer: Decodable {
            var status: String
            var reference: String?
            var reason: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(bytes.readableBytesView)) else {
            throw Failure(description: "the payment endpoint's answer is not {\"status\": ...} JSON")
        }
        switch answer.status {
        case "approved": return .approved(reference: answer.reference)
        case "declined":
            var result = PaymentProcessingResult.declined(answer.reason ?? "The payment was declined.")
            result.reference = answer.reference
            return result
        default: throw Failure(description: "the payment endpoint answered status \"\(answer.status)\"")
        }
    }

    /// `t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`.
    /// - Parameters:
    ///   - body: The request body.
    ///   - secret: The shared secret.
    ///   - timestamp: When.
    /// - Returns: The `Tessera-Signature` header value.
    public static func signature(body: Data, secret: Data, timestamp: Date) -> String {
        WebhookSignature.header(body: body, secret: secret, timestamp: timestamp)
    }

    /// The JSON body: order, session, idempotency key, amount (decimal string), currency, network, transaction
    /// identifier, `paymentSource` (`applePay` or `card`), and `paymentData` (decrypted), `token` (encrypted) or
    /// `cardPayment` (the gateway's token for a card paid on the sheet's payment step).
    static func body(for request: PaymentProcessingRequest, forwardToken: Bool) throws -> Data {
        let amount = Currency(code: request.currencyCode).map { Money(request.amount, $0).string } ?? "\(request.amount)"
        var object: [String: JSONValue] = [
            "orderId": .string(request.orderId), "sessionId": .string(request.sessionId),
            "idempotencyKey": .string(request.idempotencyKey), "amount": .string(amount),
            "currencyCode": .string(request.currencyCode),
            "transactionIdentifier": .string(request.transactionIdentifier),
        ]
        // The network and type the sheet names are outside Apple's signature: a decrypted payment's account number
        // gives its own scheme (as the order records it), and a type is passed on only when it is one Apple names.
        let named = request.paymentMethod?.network
        let scheme = request.paymentData.flatMap {
            PaymentNetwork.scheme(ofAccountNumber: $0.applicationPrimaryAccountNumber, named: named)?.schemeName
        }
        object["network"] = (scheme ?? named).map { JSONValue.string($0) }
        if let type = request.paymentMethod?.type, CheckoutService.paymentMethodTypes.contains(type) {
            object["type"] = .string(type)
        }
        object["paymentSource"] = request.cardPayment == nil ? "applePay" : "card"
        if let card = request.cardPayment {
            var fields: [String: JSONValue] = ["token": .string(card.token)]
            fields["network"] = card.network.map { JSONValue.string($0) }
            fields["lastFour"] = card.lastFour.map { JSONValue.string($0) }
            fields["type"] = card.type.map { JSONValue.string($0) }
            object["cardPayment"] = .object(fields)
        } else if forwardToken, let token = request.token {
            object["token"] = try JSONValue(jsonData: try token.jsonData())
        } else if let payment = request.paymentData {
            object["paymentData"] = try JSONValue(jsonData: payment.rawJSON)
        }
        return try JSONValue.object(object).jsonData(sortedKeys: true, prettyPrinted: false)
    }

    /// Shuts the HTTP client down (when the processor is not run as a service).
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Waits for shutdown, then shuts the HTTP client down.
    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
