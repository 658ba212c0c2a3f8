import PassModel
import Foundation
import PassCrypto
import PaymentToken
import Testing
import TesseraTestSupport

/// Tokens generated at test time under a test PKI: EC_v1 and RSA_v1, with and without applicationData.
@Suite("Generated tokens")
struct GeneratedTokenTests {
    static let plaintext = Data("""
    {"applicationPrimaryAccountNumber":"4111111111111111","applicationExpirationDate":"291231","currencyCode":"978",\
    "transactionAmount":1234,"deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure",\
    "paymentData":{"onlinePaymentCryptogram":"AAAAAAAAAAAAAAAAAAAAAAAAAAA=","eciIndicator":"7"}}
    """.utf8)

    /// A signed token for a fresh merchant identity, with everything needed to check it.
    struct Fixture {
        let pki: ApplePayTestPKI
        let merchant: TestMerchantIdentity
        let key: MerchantKey
        let token: ApplePayPaymentToken
        let signingTime: Date

        init(rsa: Bool, applicationData: Data? = nil, plaintext: Data = GeneratedTokenTests.plaintext,
             signingTime: Date = Date(), pki: ApplePayTestPKI? = nil) throws {
            self.pki = try pki ?? ApplePayTestPKI(rsaLeaf: rsa)
            merchant = try TestMerchantIdentity(rsa: rsa)
            key = try MerchantKey(data: Data(merchant.keyPEM.utf8))
            var token = try PaymentTokenEncryptor(merchantKey: key, merchantIdentifier: MerchantIdentifier(merchantID: merchant.merchantID))
                .seal(plaintext, applicationData: applicationData)
            token.signature = try self.pki.signature(for: token.signedContent, at: signingTime)
            self.token = token
            self.signingTime = signingTime
        }

        var verifier: PaymentTokenVerifier {
            PaymentTokenVerifier(configuration: .init(appleRootCertificates: [pki.root]))
        }

        var decryptor: PaymentTokenDecryptor {
            get throws {
                PaymentTokenDecryptor(merchantKeys: [key], merchantIdentifier: try MerchantIdentifier(certificate: merchant.certificate))
            }
        }
    }

    @Test(arguments: [false, true], [false, true])
    func verifiesAndDecrypts(rsa: Bool, withApplicationData: Bool) throws {
        let applicationData = withApplicationData ? Data("order-42;nonce=7f3a".utf8) : nil
        let fixture = try Fixture(rsa: rsa, applicationData: applicationData)
        #expect(fixture.token.version == (rsa ? .rsaV1 : .ecV1))
        #expect(fixture.key.algorithm == (rsa ? .rsa : .ecP256))
        // Through JSON and back, as a server receives it.
        let token = try ApplePayPaymentToken(jsonData: try fixture.token.jsonData())
        #expect(token == fixture.token)
        #expect((token.header.applicationData != nil) == withApplicationData)

        let signature = try fixture.verifier.verify(token, now: fixture.signingTime.addingTimeInterval(60))
        #expect(abs(signature.signingTime.timeIntervalSince(fixture.signingTime)) < 1)
        #expect(try fixture.decryptor.decryptedBytes(of: token) == Self.plaintext)
        let payment = try fixture.decryptor.decrypt(token)
        #expect(payment.applicationPrimaryAccountNumber == "4111111111111111")
        #expect(payment.transactionAmount == 1234)

        if let applicationData {
            #expect(token.matchesApplicationData(applicationData))
            try token.verifyApplicationData(applicationData)
            #expect(!token.matchesApplicationData(Data("order-43".utf8)))
            let error = try #require(throws: PaymentTokenError.self) { try token.verifyApplicationData(Data("order-43".utf8)) }
            #expect(error.code == .applicationDataMismatch)
            // applicationData is signed: replacing it breaks the signature.
            var altered = token
            altered.header.applicationData = Data(repeating: 0xAB, count: 32)
            let signatureError = try #require(throws: PaymentTokenError.self) {
                try fixture.verifier.verify(altered, now: fixture.signingTime)
            }
            #expect(signatureError.code == .signatureInvalid)
        } else {
            let error = try #require(throws: PaymentTokenError.self) { try token.verifyApplicationData(Data("x".utf8)) }
            #expect(error.code == .applicationDataMismatch)
            #expect(error.field == "header.applicationData")
        }
    }

    @Test(arguments: [false, true])
    func rotationPicksTheKeyNamedByPublicKeyHash(rsa: Bool) throws {
        let fixture = try Fixture(rsa: rsa)
        let old = try MerchantKey(data: Data(try TestMerchantIdentity(rsa: rsa).keyPEM.utf8))
        let identifier = MerchantIdentifier(merchantID: fixture.merchant.merchantID)
        let both = PaymentTokenDecryptor(merchantKeys: [old, fixture.key], merchantIdentifier: identifier)
        #expect(try both.decryptedBytes(of: fixture.token) == Self.plaintext)

        let onlyOld = PaymentTokenDecryptor(merchantKeys: [old], merchantIdentifier: identifier)
        let error = try #require(throws: PaymentTokenError.self) { try onlyOld.decrypt(fixture.token) }
        #expect(error.code == .noMatchingKey)
        #expect(error.publicKeyHash == fixture.key.publicKeyHashBase64)
        #expect(error.reason.contains(old.publicKeyHashBase64))
    }

    @Test func wrongMerchantIdentifierFailsTheGCMTag() throws {
        let fixture = try Fixture(rsa: false)
        let decryptor = PaymentTokenDecryptor(merchantKeys: [fixture.key], merchantIdentifier: MerchantIdentifier(merchantID: "merchant.other"))
        let error = try #require(throws: PaymentTokenError.self) { try decryptor.decrypt(fixture.token) }
        #expect(error.code == .decryptionFailed)
    }

    @Test func certificateExtensionCarriesTheMerchantIdentifierHash() throws {
        let merchant = try TestMerchantIdentity(merchantID: "merchant.com.example.shop")
        #expect(try MerchantIdentifier(certificate: merchant.certificate) == MerchantIdentifier(merchantID: "merchant.com.example.shop"))
        let error = try #require(throws: PaymentTokenError.self) { try MerchantIdentifier(certificate: try ApplePayTestPKI().root) }
        #expect(error.code == .invalidMerchantIdentifier)
    }

    @Test(arguments: [(false, true), (true, false)])
    func missingAppleOIDsAreRejected(leafOID: Bool, intermediateOID: Bool) throws {
        let pki = try ApplePayTestPKI(leafOID: leafOID, intermediateOID: intermediateOID)
        let fixture = try Fixture(rsa: false, pki: pki)
        let error = try #require(throws: PaymentTokenError.self) { try fixture.verifier.verify(fixture.token) }
        #expect(error.code == .missingAppleOID)
        #expect(error.reason.contains(leafOID ? PaymentTokenVerifier.intermediateOID : PaymentTokenVerifier.leafOID))
    }

    @Test(.vectorsPresent) func anotherRootIsRejected() throws {
        let fixture = try Fixture(rsa: false)
        let other = try ApplePayTestPKI()
        let verifier = PaymentTokenVerifier(configuration: .init(appleRootCertificates: [other.root]))
        let error = try #require(throws: PaymentTokenError.self) { try verifier.verify(fixture.token) }
        #expect(error.code == .certificateChainInvalid)
        let apple = try #require(throws: PaymentTokenError.self) { try VectorSet.appleVerifier().verify(fixture.token) }
        #expect(apple.code == .certificateChainInvalid)
    }

    @Test func signingTimeIsCheckedAgainstTheInjectedClock() throws {
        let signed = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))  // CMS keeps whole seconds
        let fixture = try Fixture(rsa: false, signingTime: signed)
        _ = try fixture.verifier.verify(fixture.token, now: signed.addingTimeInterval(300))
        for now in [signed.addingTimeInterval(301), signed.addingTimeInterval(-301), Date()] {
            let error = try #require(throws: PaymentTokenError.self) { try fixture.verifier.verify(fixture.token, now: now) }
            #expect(error.code == .signingTimeOutOfRange)
            #expect(error.now == now)
        }
        var lenient = fixture.verifier
        lenient.configuration.signingTimeTolerance = 7200
        _ = try lenient.verify(fixture.token, now: Date())
    }

    @Test func certificatesMustBeValidAtTheVerificationTime() throws {
        let validFrom = Date().addingTimeInterval(-10 * 86_400)
        let pki = try ApplePayTestPKI(validFrom: validFrom, validity: 86_400)
        let fixture = try Fixture(rsa: false, signingTime: validFrom.addingTimeInterval(3600), pki: pki)
        let verifier = fixture.verifier  // one verifier: its remembered chain must not outlive the certificates
        _ = try verifier.verify(fixture.token, now: fixture.signingTime)
        let error = try #require(throws: PaymentTokenError.self) {
            try verifier.verify(fixture.token, now: validFrom.addingTimeInterval(2 * 86_400))
        }
        #expect(error.code == .certificateChainInvalid)
    }

    @Test func rememberedChainsAreKeyedByTheirRootAndCertificates() throws {
        let fixture = try Fixture(rsa: false)
        let cache = VerifiedChainCache()
        let trusted = CMSVerifier(trustedRoots: [fixture.pki.root], chainCache: cache)
        for _ in 0..<3 {
            let info = try trusted.verify(signature: fixture.token.signature, content: fixture.token.signedContent)
            #expect(info.chain.map(\.derData) == [fixture.pki.leaf, fixture.pki.intermediate, fixture.pki.root].map(\.derData))
        }
        #expect(cache.count == 1)
        // The same signature under another root, with the same cache, is checked in full and fails.
        let other = CMSVerifier(trustedRoots: [try ApplePayTestPKI().root], chainCache: cache)
        #expect(throws: CryptoError.self) {
            try other.verify(signature: fixture.token.signature, content: fixture.token.signedContent)
        }
        // Another signer's chain is remembered on its own; the signature itself is always checked.
        let second = try Fixture(rsa: false, pki: fixture.pki)
        _ = try trusted.verify(signature: second.token.signature, content: second.token.signedContent)
        #expect(throws: CryptoError.self) {
            try trusted.verify(signature: fixture.token.signature, content: second.token.signedContent)
        }
        #expect(cache.count == 1)  // same leaf, intermediate and root: one chain
    }

    @Test func newerFieldsAndUnknownKeysAreKept() throws {
        let plaintext = Data("""
        {"applicationPrimaryAccountNumber":"5204240000001234","applicationExpirationDate":"300131","currencyCode":"840",\
        "transactionAmount":500,"deviceManufacturerIdentifier":"050110030273","paymentDataType":"3DSecure",\
        "paymentData":{"onlinePaymentCryptogram":"SECRETCRYPTOGRAM000000000000","eciIndicator":"5"},\
        "merchantTokenIdentifier":"DNITHE000000000000000000001","authenticationResponses":[{"merchantIdentifier":"m",\
        "authenticationData":"abc","transactionAmount":500}],"futureKey":{"nested":[1,true,null]}}
        """.utf8)
        let fixture = try Fixture(rsa: false, plaintext: plaintext)
        let payment = try fixture.decryptor.decrypt(fixture.token)
        #expect(payment.merchantTokenIdentifier == "DNITHE000000000000000000001")
        #expect(payment.authenticationResponses?.count == 1)
        #expect(payment.unknownKeys == ["futureKey"])
        #expect(payment.fields["futureKey"] == .object(["nested": .array([.integer(1), .bool(true), .null])]))
        #expect(payment.rawJSON == plaintext)
        let pretty = String(decoding: try payment.prettyJSON(), as: UTF8.self)
        #expect(pretty.contains("\"futureKey\""))
        #expect(pretty.contains("\"transactionAmount\" : 500"))
    }
}
