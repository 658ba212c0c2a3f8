import TesseraHTTP
@_spi(Testing) import Checkout
import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import HummingbirdTLS
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import PassCrypto
import PassWebService
import Synchronization
import Testing
import TesseraTestSupport

/// A local stand-in for Apple's payment-session endpoint: TLS with a test server certificate, requiring a client
/// certificate and recording it, the requests and their bodies. ``serve(_:)`` runs it on a thread and event loop of
/// its own, so the merchant validator calling it never waits for it behind the suite's other work.
final class AppleGatewayStandIn: Sendable {
    struct Seen: Sendable {
        var handshakes = 0
        var clientCertificates: [[UInt8]] = []
        var bodies: [[String: String]] = []
    }

    let seen = Mutex(Seen())
    let certificates: TestServerCertificates
    static let session = #"{"epochTimestamp":1790000000000,"merchantSessionIdentifier":"SSH-TEST","nonce":"0a1b2c","signature":"c2lnbmF0dXJl"}"#

    init() throws { certificates = try TestServerCertificates() }

    /// Runs the stand-in on `127.0.0.1` (a free port) on a thread of its own for as long as `body` runs.
    /// - Parameter body: The test, given the stand-in's port.
    /// - Returns: What `body` returns.
    func serve<T: Sendable>(_ body: (_ port: Int) async throws -> T) async throws -> T {
        try await EventLoopExecutor.serve({ executor, onServerRunning in
            try application(eventLoopGroup: executor.eventLoopGroup, onServerRunning: onServerRunning)
        }, body)
    }

    private func application(
        eventLoopGroup: any EventLoopGroup, onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) throws -> some ApplicationProtocol {
        let router = Router()
        router.post("paymentservices/paymentSession") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 16)
            let object = try JSONDecoder().decode([String: String].self, from: Data(body.readableBytesView))
            self.seen.withLock { $0.bodies.append(object) }
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: Self.session)))
        }
        router.post("paymentservices/refuse") { _, _ -> Response in
            Response(status: .badRequest, headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"statusCode":"400","statusMessage":"Payment Services Exception merchantId=test unauthorized"}"#)))
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificates.serverCertificatePEMPath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificates.serverKeyPEMPath, format: .pem)))
        tls.certificateVerification = .noHostnameVerification
        let server = try HTTPServerBuilder.tls(.http1(), configuration: TLSChannelConfiguration(
            tlsConfiguration: tls,
            customVerificationCallback: { peer, promise in
                let der = (try? peer.first?.toDERBytes()) ?? []
                self.seen.withLock { $0.handshakes += 1; $0.clientCertificates.append(der) }
                promise.succeed(peer.isEmpty ? .failed : .certificateVerified)
            }))
        return Application(router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           onServerRunning: onServerRunning, eventLoopGroupProvider: .shared(eventLoopGroup))
    }
}

@Suite("Merchant validation over mutual TLS")
struct MerchantValidationTests {
    /// The checkout routes of `service`.
    static func router(_ service: CheckoutService) -> RouteTable {
        let router = RouteTable()
        service.addRoutes(to: router)
        return router
    }

    /// A merchant identity certificate and key written as PEM.
    static func identity() throws -> (certificate: Certificate, certificatePath: String, keyPath: String) {
        let key = try PrivateKey.generateP256()
        let now = Date()
        let certificate = try CertificateBuilder(
            subject: DistinguishedName([("UID", CheckoutFixture.merchantID), ("CN", "Merchant ID: \(CheckoutFixture.merchantID)")]),
            notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400),
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("extendedKeyUsage", "clientAuth")]
        ).issue(publicKeyOf: key, issuer: nil, issuerKey: key)
        let directory = try TemporaryDirectory.make(prefix: "identity")
        let certificatePath = directory.appendingPathComponent("identity.pem").path
        let keyPath = directory.appendingPathComponent("identity.key").path
        try Data(certificate.pemString.utf8).write(to: URL(fileURLWithPath: certificatePath))
        try Data(try key.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        return (certificate, certificatePath, keyPath)
    }

    /// Runs `test` with a client of a checkout whose merchant validation reaches the stand-in as `localhost` (a
    /// listed validation host), then shuts the validator down.
    static func withValidatingCheckout(
        _ standIn: AppleGatewayStandIn, identity: (certificate: Certificate, certificatePath: String, keyPath: String),
        configuration: CheckoutService.Configuration = .init(),
        _ test: @escaping @Sendable (LiveTestClient) async throws -> Void
    ) async throws {
        try await standIn.serve { port in
            let fixture = try CheckoutFixture { merchant in
                merchant.merchantIdentity = .init(certificatePath: identity.certificatePath, keyPath: identity.keyPath)
                merchant.merchantValidationHosts = ["localhost"]
            }
            let validator = try MerchantValidator(
                merchant: fixture.merchant,
                trustRoots: try NIOSSLCertificate.fromPEMFile(standIn.certificates.authorityPEMPath),
                endpointOverrides: ["localhost": "localhost:\(port)"], logger: Logger(label: "test.validation"))
            let service = try CheckoutService(merchant: fixture.merchant, configuration: configuration,
                                              merchantValidator: validator, logger: Logger(label: "test.checkout"))
            try await CheckoutFixture.withClient(router: { Self.router(service) }, test)
            try await validator.shutdown()
        }
    }

    @Test("A gateway that cannot be reached is a 502 naming the host; the transport's addresses stay in the log")
    func unreachableGateway() async throws {
        let standIn = try AppleGatewayStandIn()
        let identity = try Self.identity()
        let fixture = try CheckoutFixture { merchant in
            merchant.merchantIdentity = .init(certificatePath: identity.certificatePath, keyPath: identity.keyPath)
            merchant.merchantValidationHosts = ["localhost"]
        }
        // Port 1 on loopback: nothing listens there.
        let validator = try MerchantValidator(
            merchant: fixture.merchant, trustRoots: try NIOSSLCertificate.fromPEMFile(standIn.certificates.authorityPEMPath),
            endpointOverrides: ["localhost": "127.0.0.1:1"], logger: Logger(label: "test.validation"))
        do {
            _ = try await validator.merchantSession(validationURL: "https://localhost/paymentservices/paymentSession")
            Issue.record("a closed port validated")
        } catch let error as CheckoutError {
            #expect(error.status == .badGateway)
            #expect(error.description.contains("could not be reached"), "\(error)")
            #expect(!error.description.contains("127.0.0.1") && !error.description.contains(":1"), "\(error)")
        }
        try await validator.shutdown()
    }

    @Test("Apple's session is returned unchanged; the stand-in saw the client certificate and the merchant's fields")
    func validates() async throws {
        let standIn = try AppleGatewayStandIn()
        let identity = try Self.identity()
        try await Self.withValidatingCheckout(standIn, identity: identity) { client in
            try await client.execute(
                uri: "/checkout/v1/merchant-validation", method: .post, headers: JSONBody.json,
                body: try JSONBody.buffer(["validationURL": "https://localhost/paymentservices/paymentSession"])
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == AppleGatewayStandIn.session)
            }
            let (failed, error) = try await client.post("/checkout/v1/merchant-validation",
                                                        ["validationURL": "https://localhost/paymentservices/refuse"])
            #expect(failed == .badGateway)
            let message = (error["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("400") && message.contains("unauthorized"))
        }
        let seen = standIn.seen.withLock { $0 }
        #expect(seen.bodies.first == ["merchantIdentifier": CheckoutFixture.merchantID, "displayName": "Tessera Arena",
                                      "initiative": "web", "initiativeContext": "shop.example.test"])
        #expect(seen.clientCertificates.first == Array(identity.certificate.derData))
    }

    @Test("A client asking past 20 validations at once is answered 429 with Retry-After, and Apple is not called")
    func limitedPerClient() async throws {
        let standIn = try AppleGatewayStandIn()
        let identity = try Self.identity()
        // No refill during the test: on a loaded machine 22 calls to the stand-in can take a minute, and the default
        // 20 a minute would hand back what they used.
        var configuration = CheckoutService.Configuration()
        configuration.merchantValidationsPerMinute = 0
        try await Self.withValidatingCheckout(standIn, identity: identity, configuration: configuration) { client in
            let body = try JSONBody.buffer(["validationURL": "https://localhost/paymentservices/paymentSession"])
            var statuses: [HTTPResponse.Status] = []
            var retryAfter: String?
            for _ in 0..<22 {
                try await client.execute(uri: "/checkout/v1/merchant-validation", method: .post, headers: JSONBody.json,
                                         body: body) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests { retryAfter = response.headers[.retryAfter] }
                }
            }
            #expect(statuses.filter { $0 == .ok }.count >= 20, "\(statuses)")
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
            #expect(Int(retryAfter ?? "") ?? 0 >= 1)
        }
        let calls = standIn.seen.withLock { $0.bodies.count }
        #expect(calls < 22 && calls >= 20)
    }

    @Test("Hosts outside the list, IPs, ports and plain http are refused without any connection")
    func refusesWithoutConnecting() async throws {
        let standIn = try AppleGatewayStandIn()
        let identity = try Self.identity()
        try await standIn.serve { port in
            let fixture = try CheckoutFixture { merchant in
                merchant.merchantIdentity = .init(certificatePath: identity.certificatePath, keyPath: identity.keyPath)
            }
            // The override would reach the stand-in if the host check let anything through.
            let validator = try MerchantValidator(
                merchant: fixture.merchant,
                trustRoots: try NIOSSLCertificate.fromPEMFile(standIn.certificates.authorityPEMPath),
                endpointOverrides: ["localhost": "localhost:\(port)", "127.0.0.1": "localhost:\(port)"],
                logger: Logger(label: "test.validation"))
            let service = try CheckoutService(merchant: fixture.merchant, merchantValidator: validator,
                                              logger: Logger(label: "test.checkout"))
            try await CheckoutFixture.withClient(router: { Self.router(service) }) { client in
                for url in ["https://localhost/paymentservices/paymentSession",
                            "https://127.0.0.1:\(port)/paymentservices/paymentSession",
                            "https://localhost:\(port)/paymentservices/paymentSession",
                            "http://apple-pay-gateway.apple.com/paymentservices/paymentSession",
                            "https://x@apple-pay-gateway.apple.com/paymentservices/paymentSession",
                            "https://apple-pay-gateway.apple.com.localhost/paymentservices/paymentSession"] {
                    let (status, body) = try await client.post("/checkout/v1/merchant-validation", ["validationURL": url])
                    #expect(status == .badRequest, "\(url)")
                    #expect((body["error"] as? [String: Any])?["code"] as? String == "merchantValidationRefused")
                }
            }
            try await validator.shutdown()
            let seen = standIn.seen.withLock { $0 }
            #expect(seen.handshakes == 0)
            #expect(seen.bodies.isEmpty)
        }
    }
}
