import PassModel
import AsyncHTTPClient
public import Foundation
public import Logging
public import NIOCore
import NIOHTTP1
public import NIOSSL
public import ServiceLifecycle
import HTTPTypes

/// Validates the merchant with Apple: posts `merchantIdentifier`, `displayName`, `initiative` and
/// `initiativeContext` to the sheet's `validationURL` over mutual TLS with the merchant identity certificate and
/// returns Apple's opaque merchant session unchanged.
///
/// Only hosts in ``Configuration/allowedHosts`` are ever called, over https on the default port; anything else is
/// refused before a connection is made. It owns an `HTTPClient`: run it as a service (it shuts the client down).
public final class MerchantValidator: Service, Sendable {
    /// What the validator sends and where it may go.
    public struct Configuration: Sendable {
        /// The Apple Pay merchant identifier.
        public var merchantIdentifier: String
        /// The merchant's name for the session.
        public var displayName: String
        /// `web` or `messaging`.
        public var initiative: String
        /// The domain (for `web`).
        public var initiativeContext: String
        /// Hosts that may be called.
        public var allowedHosts: [String]
        /// For tests only: the authority (`localhost:8443`) actually connected to for an allowed host (a stand-in for
        /// Apple's endpoint). Not public API: `@_spi(Testing) import Checkout`.
        @_spi(Testing) public var endpointOverrides: [String: String]
        /// How long Apple may take.
        public var timeout: TimeAmount

        /// Creates a configuration.
        /// - Parameters:
        ///   - merchantIdentifier: The merchant identifier.
        ///   - displayName: The display name.
        ///   - initiative: `web` or `messaging`.
        ///   - initiativeContext: The domain.
        ///   - allowedHosts: Hosts that may be called (Apple's by default).
        ///   - timeout: Request timeout.
        public init(merchantIdentifier: String, displayName: String, initiative: String = "web",
                    initiativeContext: String, allowedHosts: [String] = MerchantValidationHosts.appleDefaults,
                    timeout: TimeAmount = .seconds(30)) {
            self.merchantIdentifier = merchantIdentifier
            self.displayName = displayName
            self.initiative = initiative
            self.initiativeContext = initiativeContext
            self.allowedHosts = allowedHosts
            self.endpointOverrides = [:]
            self.timeout = timeout
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let client: HTTPClient
    private let logger: Logger

    /// Creates a validator with the merchant identity certificate and key.
    /// - Parameters:
    ///   - configuration: What to send and where.
    ///   - certificatePath: The merchant identity certificate (PEM; further certificates in the file are sent as
    ///     the chain).
    ///   - keyPath: Its private key (PEM).
    ///   - logger: The logger.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the certificate or key cannot be read.
    public convenience init(configuration: Configuration, certificatePath: String, keyPath: String, logger: Logger) throws {
        try self.init(configuration: configuration, certificatePath: certificatePath, keyPath: keyPath, trustRoots: nil,
                      logger: logger)
    }

    /// Creates a validator that trusts `trustRoots` instead of the system's roots: for tests against a stand-in of
    /// Apple's endpoint. Not public API: `@_spi(Testing) import Checkout`.
    /// - Parameters:
    ///   - configuration: What to send and where.
    ///   - certificatePath: The merchant identity certificate (PEM).
    ///   - keyPath: Its private key (PEM).
    ///   - trustRoots: Roots to trust for the server instead of the system's; `nil` for the system's.
    ///   - logger: The logger.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the certificate or key cannot be read.
    @_spi(Testing) public init(configuration: Configuration, certificatePath: String, keyPath: String,
                               trustRoots: [NIOSSLCertificate]?, logger: Logger) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        do {
            tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem))
        } catch {
            throw CheckoutError.configuration("merchantIdentity", "cannot read the merchant identity certificate or key: \(error)")
        }
        if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
        tls.minimumTLSVersion = .tlsv12
        var http = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                            timeout: .init(connect: .seconds(10), read: configuration.timeout))
        http.httpVersion = .http1Only
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
        self.configuration = configuration
        self.logger = logger
    }

    /// Checks `validationURL` and, when it names an allowed host, fetches a merchant session from it.
    /// - Parameter validationURL: The URL from `onvalidatemerchant`.
    /// - Returns: Apple's response body, unchanged.
    /// - Throws: ``CheckoutError`` `merchantValidationRefused` (400, nothing was sent) or `merchantValidationFailed`
    ///   (502, with Apple's status or the connection error).
    public func merchantSession(validationURL: String) async throws -> Data {
        let (url, host) = try MerchantValidationHosts.check(validationURL, allowed: configuration.allowedHosts)
        var target = url.absoluteString
        if let authority = configuration.endpointOverrides[host], var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            let parts = authority.split(separator: ":")
            components.host = String(parts[0])
            components.port = parts.count > 1 ? Int(parts[1]) : nil
            target = components.url?.absoluteString ?? target
        }
        let body: [String: String] = [
            "merchantIdentifier": configuration.merchantIdentifier, "displayName": configuration.displayName,
            "initiative": configuration.initiative, "initiativeContext": configuration.initiativeContext,
        ]
        var request = HTTPClientRequest(url: target)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        func fail(_ reason: String) -> CheckoutError {
            CheckoutError(.merchantValidationFailed, status: .badGateway, reason, field: "validationURL")
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: configuration.timeout, logger: logger)
        } catch {
            // The transport's own error (addresses, ports, TLS state) stays in the log: the answer goes to anyone.
            logger.warning("merchant validation failed", metadata: ["host": "\(host)", "error": "\(error)"])
            throw fail("Apple Pay gateway \(host) could not be reached")
        }
        let bytes: ByteBuffer
        do {
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch {
            logger.warning("merchant validation answer unreadable", metadata: ["host": "\(host)", "error": "\(error)"])
            throw fail("Apple Pay gateway \(host) sent an unreadable response")
        }
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            let message = (try? JSONValue(jsonData: data))?["statusMessage"]?.stringValue
            logger.warning("merchant validation refused", metadata: ["host": "\(host)", "status": "\(response.status.code)"])
            throw fail("Apple Pay gateway \(host) answered \(response.status.code)" + (message.map { ": \($0)" } ?? ""))
        }
        logger.info("merchant validated", metadata: ["host": "\(host)"])
        return data
    }

    /// Waits for graceful shutdown, then shuts the HTTP client down.
    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }

    /// Shuts the HTTP client down (when not run as a service).
    public func shutdown() async throws {
        try await client.shutdown()
    }
}
