import Foundation
@testable import PassCrypto
import Testing
import TesseraTestSupport

/// `CMSSigner` signs through a pattern of its own signature (``CMSSignatureTemplate``) for RSA keys; these tests hold
/// that path to OpenSSL's own `CMS_sign` output, byte for byte.
@Suite("CMS signature template")
struct SignatureTemplateTests {
    let chain: TestChain
    let signer: CMSSigner

    init() throws {
        chain = try TestChain()
        signer = try CMSSigner(certificate: chain.chain.pass, privateKey: chain.chain.passKey, chain: [chain.chain.wwdr])
    }

    static let times: [Date] = [
        Date(),
        Date(timeIntervalSince1970: 1_795_000_000),            // 2026-11-18
        Date(timeIntervalSince1970: 946_684_799),              // 1999-12-31 23:59:59, the last 199x UTCTime
        Date(timeIntervalSince1970: 2_524_607_999),            // 2049-12-31 23:59:59, the last UTCTime
        Date(timeIntervalSince1970: 86_400 * 365 * 30 + 0.75), // fractions of a second are dropped alike
    ]

    @Test func rsaSignersUseTheTemplate() {
        #expect(signer.usesTemplate)
    }

    @Test(arguments: times)
    func templateSignatureIsOpenSSLsSignature(time: Date) throws {
        for content in [Data(), Data("{\"pass.json\":\"0\"}".utf8), Data((0..<5000).map { UInt8($0 % 251) })] {
            let fast = try signer.signDetached(content, at: time)
            let openSSL = try signer.signWithOpenSSL(content, signingTime: time)
            #expect(fast == openSSL, "content of \(content.count) bytes at \(time)")
        }
    }

    @Test func signaturesVerifyAndCarryTheirTime() throws {
        let content = Data("manifest".utf8)
        let verifier = CMSVerifier(trustedRoots: [chain.chain.root])
        for time in [Date(timeIntervalSince1970: 1_795_000_000), Date()] {
            let info = try verifier.verify(signature: try signer.signDetached(content, at: time), content: content)
            #expect(info.signingTime == Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down)))
            #expect(info.digestAlgorithm == "SHA256")
            #expect(info.chainVerified)
        }
        #expect(throws: CryptoError.self) {
            try verifier.verify(signature: try signer.signDetached(content), content: Data("other".utf8))
        }
    }

    /// Threads share the template and its RSA context (each signature signs with a copy of it).
    @Test func concurrentSignaturesAreEachOpenSSLs() async throws {
        let signer = self.signer
        let time = Date(timeIntervalSince1970: 1_795_000_000)
        let results = try await withThrowingTaskGroup(of: [(Data, Data)].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var pairs: [(Data, Data)] = []
                    for index in 0..<10 {
                        let content = Data("task \(task) signature \(index)".utf8)
                        pairs.append((content, try signer.signDetached(content, at: time)))
                    }
                    return pairs
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 80)
        for (content, signature) in results {
            #expect(signature == (try signer.signWithOpenSSL(content, signingTime: time)))
        }
    }

    /// From 2050 a signing time is a GeneralizedTime, longer than the pattern's UTCTime: OpenSSL signs those in full.
    @Test func timesWithoutUTCTimeTakeOpenSSLsPath() throws {
        let time = Date(timeIntervalSince1970: 2_524_608_000)  // 2050-01-01 00:00:00
        #expect(CMSSignatureTemplate.utcTime(time_t(time.timeIntervalSince1970)) == nil)
        let content = Data("later".utf8)
        let signature = try signer.signDetached(content, at: time)
        let info = try CMSVerifier(trustedRoots: [chain.chain.root], verificationTime: Date())
            .verify(signature: signature, content: content)
        #expect(info.signingTime == time)
    }

    @Test func utcTimeDigits() {
        #expect(CMSSignatureTemplate.utcTime(1_795_000_000).map { String(decoding: $0, as: UTF8.self) } == "261118110640Z")
        #expect(CMSSignatureTemplate.utcTime(-631_152_001) == nil)  // 1949-12-31 23:59:59
        #expect(CMSSignatureTemplate.utcTime(-631_152_000).map { String(decoding: $0, as: UTF8.self) } == "500101000000Z")
    }

    @Test func ecSignersSignThroughOpenSSL() throws {
        let pki = try ApplePayTestPKI()
        #expect(!pki.signer.usesTemplate)
        let content = Data("token".utf8)
        let info = try CMSVerifier(trustedRoots: [pki.root]).verify(signature: try pki.signer.signDetached(content), content: content)
        #expect(info.chainVerified)
    }
}

/// A signer is made with one signature: a key that cannot make Wallet's signature is refused where it is loaded.
@Suite("CMS signer's first signature")
struct SignerLoadTests {
    @Test("a key CMS cannot sign with SHA-256 (Ed25519) is refused when the signer is made, naming the certificate")
    func keyThatCannotSign() async throws {
        let folder = try TemporaryDirectory.make(prefix: "ed25519")
        let key = folder.appendingPathComponent("key.pem").path, certificate = folder.appendingPathComponent("cert.pem").path
        let made = try await Subprocess.run("openssl", [
            "req", "-x509", "-newkey", "ed25519", "-nodes", "-subj", "/CN=Edwards Pass", "-days", "30",
            "-keyout", key, "-out", certificate,
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let wwdr = try TestChain().chain.wwdr
        #expect {
            try CMSSigner(certificate: try Certificate(contentsOf: certificate), privateKey: try PrivateKey(contentsOf: key),
                          chain: [wwdr])
        } throws: { error in
            let error = error as? CryptoError
            return error?.code == .signingFailed && "\(error!)".contains("Edwards Pass") && "\(error!)".contains("cannot sign")
        }
    }
}
