@testable import APNs
import Crypto
import Foundation
import PassCrypto
import TesseraTestSupport
import Synchronization
import Testing

@Suite("APNs requests: headers, authentication, HTTP/2")
struct APNsClientRequestTests {
    @Test("POST /3/device/<token> with {} , apns-topic and an apns-expiration a day ahead, over h2")
    func requestShape() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_900_000_000))
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }, clock: clock) {
            standIn, client in
            _ = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            let request = try #require(standIn.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/3/device/\(StandInFixture.pushToken)")
            #expect(request.pushToken == StandInFixture.pushToken)
            #expect(request.body == Data("{}".utf8))
            #expect(request.headers["apns-topic"] == StandInFixture.topic)
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["apns-expiration"] == String(1_900_000_000 + 86_400))
            #expect(request.headers["apns-priority"] == nil)
            #expect(request.headers["apns-push-type"] == nil)
            #expect(request.negotiatedProtocol == "h2")
        }
    }

    @Test("An explicit expiration, priority and push type are sent as given")
    func explicitHeaders() async throws {
        try await StandInFixture.with(
            authentication: { _ in try StandInFixture.tokenAuthentication().0 },
            configure: { $0.priority = 5; $0.pushType = "background" }
        ) { standIn, client in
            let expiration = Date().addingTimeInterval(3600)
            _ = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic, expiration: expiration)
            let request = try #require(standIn.requests.first)
            let sent = try #require(request.headers["apns-expiration"].flatMap(TimeInterval.init))
            #expect(sent == floor(expiration.timeIntervalSince1970))
            #expect(sent > Date().timeIntervalSince1970)
            #expect(request.headers["apns-priority"] == "5")
            #expect(request.headers["apns-push-type"] == "background")
        }
    }

    @Test("Token authentication sends a verifiable ES256 bearer token")
    func tokenAuthentication() async throws {
        let (authentication, publicKey) = try StandInFixture.tokenAuthentication(keyID: "KEY1234567", teamID: "TEAM765432")
        let options: (TestServerCertificates) -> APNsStandIn.Options = { _ in
            APNsStandIn.Options(authorize: { header in
                guard let header, header.hasPrefix("bearer ") else { return "MissingProviderToken" }
                guard let jwt = JWT.decode(String(header.dropFirst("bearer ".count)), publicKey: publicKey),
                      jwt.valid else { return "InvalidProviderToken" }
                return nil
            })
        }
        try await StandInFixture.with(authentication: { _ in authentication }, options: options) { standIn, client in
            // The token is made during the send: `iat` lies between these two times (whole seconds, rounded down).
            let before = Date().timeIntervalSince1970.rounded(.down)
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            let after = Date().timeIntervalSince1970
            #expect(result.isDelivered)
            let header = try #require(standIn.requests.first?.headers["authorization"])
            let jwt = try #require(JWT.decode(String(header.dropFirst("bearer ".count)), publicKey: publicKey))
            #expect(jwt.valid)
            #expect(jwt.signatureLength == 64)
            #expect(jwt.header["alg"] as? String == "ES256")
            #expect(jwt.header["kid"] as? String == "KEY1234567")
            #expect(jwt.claims["iss"] as? String == "TEAM765432")
            let issuedAt = try #require((jwt.claims["iat"] as? NSNumber)?.doubleValue)
            #expect(issuedAt >= before && issuedAt <= after, "iat \(issuedAt) outside the send's \(before)...\(after)")
        }
    }

    @Test("ExpiredProviderToken: the push is retryable and the next one goes with a newly signed token")
    func expiredProviderTokenIsRenewed() async throws {
        let expired = Mutex<String?>(nil)
        let options: (TestServerCertificates) -> APNsStandIn.Options = { _ in
            APNsStandIn.Options(authorize: { header in
                // The first token the stand-in sees is the stale one; any other is fine.
                expired.withLock { first in
                    if first == nil { first = header }
                    return first == header ? "ExpiredProviderToken" : nil
                }
            })
        }
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }, options: options) {
            standIn, client in
            let refused = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(refused == .retryable(status: 403, reason: "ExpiredProviderToken", retryAfter: nil))
            let again = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(again.isDelivered)
            let tokens = standIn.requests.compactMap { $0.headers["authorization"] }
            #expect(tokens.count == 2 && tokens[0] != tokens[1])
        }
    }

    @Test("A token signed with another key is refused as InvalidProviderToken, kept to be tried again")
    func wrongTokenKey() async throws {
        let (_, otherPublicKey) = try StandInFixture.tokenAuthentication()
        let options: (TestServerCertificates) -> APNsStandIn.Options = { _ in
            APNsStandIn.Options(authorize: { header in
                let jwt = header.flatMap { JWT.decode(String($0.dropFirst("bearer ".count)), publicKey: otherPublicKey) }
                return jwt?.valid == true ? nil : "InvalidProviderToken"
            })
        }
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }, options: options) {
            _, client in
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(result == .retryable(status: 403, reason: "InvalidProviderToken", retryAfter: APNsResult.credentialRefusalDelay))
        }
    }

    @Test("Certificate authentication presents the Pass Type ID certificate (encrypted key)", arguments: [nil, "s3cret-pass"])
    func certificateAuthentication(password: String?) async throws {
        let chain = try TestChain()
        let keyPath = try chain.write("pass-encrypted.key", try chain.chain.passKey.pkcs8PEM(password: password))
        let certificatePath = try chain.write("pass-chain.pem", chain.chain.pass.pemString + chain.chain.wwdr.pemString)
        try await StandInFixture.with(
            authentication: { _ in .certificate(certificatePEMPath: certificatePath, keyPEMPath: keyPath, keyPassword: password) },
            options: { _ in APNsStandIn.Options(clientCertificateAuthorityPEMPath: chain.path("root.pem")) }
        ) { standIn, client in
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(result.isDelivered)
            let request = try #require(standIn.requests.first)
            #expect(request.clientCertificateDER == chain.chain.pass.derData)
            #expect(request.headers["authorization"] == nil)
        }
    }

    @Test("A chain file with the intermediate first, and a certificate and key in DER, authenticate as in PEM")
    func certificateFilesInOtherShapes() async throws {
        let chain = try TestChain()
        let pemKey = try chain.write("pass-key.pem", try chain.chain.passKey.pkcs8PEM())
        let reversed = try chain.write("wwdr-then-pass.pem", chain.chain.wwdr.pemString + chain.chain.pass.pemString)
        let derKey = chain.path("pass-key.der"), derCertificate = chain.path("pass.der")
        let body = try chain.chain.passKey.pkcs8PEM().split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        try #require(Data(base64Encoded: body)).write(to: URL(fileURLWithPath: derKey))
        try chain.chain.pass.derData.write(to: URL(fileURLWithPath: derCertificate))
        // A DER file holds the certificate alone: the stand-in knows the intermediate beside the root.
        let authorities = try chain.write("authorities.pem", chain.chain.root.pemString + chain.chain.wwdr.pemString)
        for (certificatePath, keyPath) in [(reversed, pemKey), (derCertificate, derKey)] {
            try await StandInFixture.with(
                authentication: { _ in .certificate(certificatePEMPath: certificatePath, keyPEMPath: keyPath, keyPassword: nil) },
                options: { _ in APNsStandIn.Options(clientCertificateAuthorityPEMPath: authorities) }
            ) { standIn, client in
                let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
                #expect(result.isDelivered, "\(certificatePath): \(result)")
                #expect(standIn.requests.first?.clientCertificateDER == chain.chain.pass.derData)
            }
        }
    }

    @Test("Without a client certificate the handshake fails and the send is retryable")
    func missingClientCertificate() async throws {
        let chain = try TestChain()
        try await StandInFixture.with(
            authentication: { _ in try StandInFixture.tokenAuthentication().0 },
            options: { _ in APNsStandIn.Options(clientCertificateAuthorityPEMPath: chain.path("root.pem")) }
        ) { standIn, client in
            let result = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(result.isRetryable)
            #expect(standIn.requests.isEmpty)
        }
    }

    @Test("A wrong key password is reported when the client is created")
    func wrongKeyPassword() throws {
        let chain = try TestChain()
        let keyPath = try chain.write("pass-encrypted.key", try chain.chain.passKey.pkcs8PEM(password: "right"))
        let configuration = APNsClient.Configuration(
            authentication: .certificate(certificatePEMPath: chain.path("pass.pem"), keyPEMPath: keyPath, keyPassword: "wrong"))
        #expect(throws: APNsError.self) { _ = try APNsClient(configuration: configuration, logger: StandInFixture.logger) }
    }

    @Test("Several sends share HTTP/2 connections rather than opening one each")
    func connectionReuse() async throws {
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }) { standIn, client in
            let sent = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            #expect(sent.isDelivered)
            try await withThrowingTaskGroup(of: APNsResult.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic) }
                }
                for try await result in group { #expect(result.isDelivered) }
            }
            #expect(standIn.requests.count == 9)
            #expect(standIn.requests.allSatisfy { $0.negotiatedProtocol == "h2" })
            // Nine sends share connections instead of opening one each. On a loaded machine AsyncHTTPClient has been
            // seen to open a second HTTP/2 connection while eight sends start at once (2 of about 10 full runs).
            #expect((1...2).contains(standIn.connections), "\(standIn.connections) connections for 9 sends")
        }
    }
}

extension APNsResult {
    var isDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }
}
