@testable import APNs
import Crypto
import Foundation
import TesseraTestSupport
import Testing

@Suite("APNs provider token (ES256 JWT)")
struct APNsProviderTokenTests {
    @Test("The token is ES256 over base64url header and claims, with a 64-byte r||s signature")
    func shape() async throws {
        let key = try TestAPNsSigningKey()
        let publicKey = try P256.Signing.PrivateKey(pemRepresentation: key.pem).publicKey
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let source = try APNsProviderToken(p8PEM: key.pem, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", now: clock.closure)
        let token = try await source.token()
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
        let jwt = try #require(JWT.decode(token, publicKey: publicKey))
        #expect(jwt.valid)
        #expect(jwt.signatureLength == 64)
        #expect(jwt.header.count == 2 && jwt.header["alg"] as? String == "ES256" && jwt.header["kid"] as? String == "ABC123DEFG")
        #expect(jwt.claims["iss"] as? String == "DEF123GHIJ")
        #expect((jwt.claims["iat"] as? NSNumber)?.intValue == 1_800_000_000)
    }

    @Test("A token is reused until the refresh age, then replaced")
    func refreshTiming() async throws {
        let key = try TestAPNsSigningKey()
        let clock = ManualClock()
        let source = try APNsProviderToken(p8PEM: key.pem, keyID: "ABC123DEFG", teamID: "DEF123GHIJ",
                                           refreshInterval: 20 * 60, now: clock.closure)
        let first = try await source.token()
        clock.advance(by: 10 * 60)
        let atTen = try await source.token()
        #expect(atTen == first)
        clock.advance(by: 9 * 60 + 59)
        let atNineteen = try await source.token()
        #expect(atNineteen == first)
        clock.advance(by: 2)
        let second = try await source.token()
        #expect(second != first)
        #expect(await source.issuedAt == clock.now)
        clock.advance(by: 19 * 60)
        let atThirtyNine = try await source.token()
        #expect(atThirtyNine == second)
    }

    @Test("The client refreshes the JWT it sends after its refresh interval (injected clock)")
    func clientRefresh() async throws {
        let clock = ManualClock()
        try await StandInFixture.with(authentication: { _ in try StandInFixture.tokenAuthentication().0 }, clock: clock,
                                      configure: { $0.tokenRefreshInterval = 25 * 60 }) { standIn, client in
            for minutes in [0.0, 12, 12, 2] {
                clock.advance(by: minutes * 60)
                _ = try await client.send(pushToken: StandInFixture.pushToken, topic: StandInFixture.topic)
            }
            let tokens = standIn.requests.map { $0.headers["authorization"] ?? "" }
            #expect(tokens.count == 4)
            #expect(tokens[0] == tokens[1] && tokens[1] == tokens[2])
            #expect(tokens[3] != tokens[2])
        }
    }

    @Test("The refresh interval is kept within 20 to 50 minutes")
    func clamp() {
        var configuration = APNsClient.Configuration(authentication: .token(p8Path: "x", keyID: "k", teamID: "t"))
        #expect(configuration.effectiveTokenRefreshInterval == 30 * 60)
        configuration.tokenRefreshInterval = 60
        #expect(configuration.effectiveTokenRefreshInterval == 20 * 60)
        configuration.tokenRefreshInterval = 3 * 3600
        #expect(configuration.effectiveTokenRefreshInterval == 50 * 60)
    }
}
