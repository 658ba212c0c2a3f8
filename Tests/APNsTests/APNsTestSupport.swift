@testable import APNs
import Crypto
import Foundation
import Logging
import TesseraTestSupport

/// A clock tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date()) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    var closure: @Sendable () -> Date { { [self] in now } }
}

/// Decodes JWTs in tests and checks their ES256 signature.
enum JWT {
    static func base64URLDecode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// The header and claims objects, and whether the signature verifies with `publicKey`.
    static func decode(_ token: String, publicKey: P256.Signing.PublicKey)
        -> (header: [String: Any], claims: [String: Any], signatureLength: Int, valid: Bool)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = base64URLDecode(parts[0]), let claimsData = base64URLDecode(parts[1]),
              let signature = base64URLDecode(parts[2]),
              let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
              let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any] else { return nil }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        let valid = (try? P256.Signing.ECDSASignature(rawRepresentation: signature))
            .map { publicKey.isValidSignature($0, for: signingInput) } ?? false
        return (header, claims, signature.count, valid)
    }
}

/// A stand-in, its certificates and a client pointed at it; everything is closed when the body returns.
struct StandInFixture {
    static let topic = "pass.dev.tessera.demo"
    static let pushToken = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    static let logger = Logger(label: "tessera.apns.tests")

    /// Runs `body` with a stand-in and a client using `authentication`.
    static func with(
        authentication: (TestServerCertificates) throws -> APNsClient.Configuration.Authentication,
        options: (TestServerCertificates) -> APNsStandIn.Options = { _ in APNsStandIn.Options() },
        clock: ManualClock? = nil,
        configure: (inout APNsClient.Configuration) -> Void = { _ in },
        _ body: (APNsStandIn, APNsClient) async throws -> Void
    ) async throws {
        let certificates = try TestServerCertificates()
        let standIn = try await APNsStandIn.start(certificatePEMPath: certificates.serverCertificatePEMPath,
                                                  keyPEMPath: certificates.serverKeyPEMPath,
                                                  options: options(certificates))
        var configuration = APNsClient.Configuration(
            host: standIn.host, port: standIn.port, authentication: try authentication(certificates),
            trustRoots: .only(pemPath: certificates.authorityPEMPath),
            connectTimeout: TestTime.seconds(5), requestTimeout: TestTime.seconds(10)
        )
        configure(&configuration)
        let client: APNsClient
        var now: @Sendable () -> Date = { Date() }
        if let clock { now = clock.closure }
        do {
            client = try APNsClient(configuration: configuration, logger: logger, now: now)
        } catch {
            try await standIn.shutdown()
            throw error
        }
        do {
            try await body(standIn, client)
        } catch {
            try await client.shutdown()
            try await standIn.shutdown()
            throw error
        }
        try await client.shutdown()
        try await standIn.shutdown()
    }

    /// Token authentication with a fresh `.p8` key; returns the authentication and the key's public half.
    static func tokenAuthentication(keyID: String = "ABC123DEFG", teamID: String = "TEAM123456") throws
        -> (APNsClient.Configuration.Authentication, P256.Signing.PublicKey) {
        let key = try TestAPNsSigningKey(keyID: keyID)
        let publicKey = try P256.Signing.PrivateKey(pemRepresentation: key.pem).publicKey
        return (.token(p8Path: key.path, keyID: keyID, teamID: teamID), publicKey)
    }
}
