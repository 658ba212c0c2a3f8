import Foundation
import PassBundle
import PassCrypto
import Testing
import TesseraTestSupport

@Suite("Credentials")
struct CredentialsTests {
    let chain: TestChain

    init() async throws {
        chain = try TestChain()
    }

    @Test func loadsPEMCertificateAndPKCS8Key() async throws {
        let credentials = try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"),
                                                   keyPassword: nil, wwdrPath: chain.path("wwdr.pem"))
        #expect(credentials.identity.passTypeIdentifier == "pass.dev.tessera.demo")
        #expect(credentials.identity.teamIdentifier == "TESSERA123")
    }

    @Test func loadsPKCS1AndEncryptedKeys() async throws {
        let pkcs1 = try chain.write("pkcs1.key", try chain.chain.passKey.traditionalPEM())
        #expect(try String(contentsOfFile: pkcs1, encoding: .utf8).contains("-----BEGIN RSA "))
        _ = try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: pkcs1, keyPassword: nil,
                                     wwdrPath: chain.path("wwdr.pem"))

        let encrypted = try chain.write("encrypted.key", try chain.chain.passKey.pkcs8PEM(password: "s3cret"))
        _ = try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: encrypted, keyPassword: "s3cret",
                                     wwdrPath: chain.path("wwdr.pem"))

        let wrong = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: encrypted, keyPassword: "nope",
                                     wwdrPath: chain.path("wwdr.pem"))
        }
        #expect(wrong?.reason.contains("wrong password") == true)
        #expect(wrong?.reason.contains("encrypted.key") == true)

        let missing = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: encrypted, keyPassword: nil,
                                     wwdrPath: chain.path("wwdr.pem"))
        }
        #expect(missing?.code == .passwordRequired)
        #expect(missing?.reason.contains("encrypted and no password was given") == true)
        // The library names what is missing, not a CLI flag; the CLI adds the flag.
        #expect(missing?.reason.contains("--") == false)
    }

    @Test func readsSEC1ECKeys() async throws {
        let key = try PrivateKey.generateP256()
        let pem = try key.traditionalPEM()
        #expect(pem.contains("-----BEGIN EC "))
        let read = try PrivateKey(data: Data(pem.utf8))
        #expect(read.algorithmDescription == "EC 256")
    }

    @Test func rejectsAKeyOfAnotherCertificate() async throws {
        let other = try TestChain(freshKeys: true)
        let error = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: other.path("pass.key"),
                                     keyPassword: nil, wwdrPath: chain.path("wwdr.pem"))
        }
        #expect(error?.reason.contains("does not belong to the certificate") == true)
    }

    @Test func rejectsAnExpiredCertificate() async throws {
        let expired = try TestChain(validFrom: Date().addingTimeInterval(-400 * 86_400), passValidity: 30 * 86_400)
        let error = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(certificatePath: expired.path("pass.pem"), keyPath: expired.path("pass.key"),
                                     keyPassword: nil, wwdrPath: expired.path("wwdr.pem"))
        }
        #expect(error?.reason.contains("expired on") == true)
    }

    @Test("a WWDR file holding an expired intermediate and its reissue (same name and key): the valid one is used, in either order")
    func prefersTheValidIntermediate() async throws {
        let expired = try TestChain(validFrom: Date().addingTimeInterval(-7_200), intermediateValidity: 3_600)
        let both = try TemporaryDirectory.make(prefix: "wwdr").appendingPathComponent("wwdr.pem")
        for files in [[expired.path("wwdr.pem"), chain.path("wwdr.pem")], [chain.path("wwdr.pem"), expired.path("wwdr.pem")]] {
            try Data(try files.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined().utf8).write(to: both)
            let credentials = try PassCredentials.load(
                certificatePath: expired.path("pass.pem"), keyPath: expired.path("pass.key"), keyPassword: nil,
                wwdrPath: both.path)
            #expect(credentials.wwdr.notAfter.map { $0 > Date() } == true)
        }
    }

    @Test func namesTheIntermediateThatIsNeeded() async throws {
        let other = try TestChain(freshKeys: true)
        let error = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"),
                                     keyPassword: nil, wwdrPath: other.path("wwdr.pem"))
        }
        #expect(error?.reason.contains("did not issue the Pass Type ID certificate") == true)
        #expect(error?.reason.contains("(G4)") == true)
        #expect(error?.code == .wrongIntermediate)
        #expect(error?.reason.contains("the WWDR intermediate (wwdr)") == true)
        #expect(error?.reason.contains("--wwdr") == false)
        // Two chains whose intermediates have the same name: the message says the keys differ, not two equal names alone.
        #expect(error?.reason.contains("The names are the same but the keys differ: this WWDR certificate (serial "
                                       + "\(other.chain.wwdr.serialNumberHex))") == true, "\(error?.reason ?? "")")
    }

    @Test func loadsP12WithAndWithoutTheRightPassword() async throws {
        let credentials = try PassCredentials.load(p12Path: chain.path("pass.p12"), password: chain.p12Password, wwdrPath: nil)
        #expect(credentials.wwdr.subject["CN"] == chain.chain.wwdr.subject["CN"])
        let error = #expect(throws: PassBundleError.self) {
            try PassCredentials.load(p12Path: chain.path("pass.p12"), password: "wrong", wwdrPath: chain.path("wwdr.pem"))
        }
        #expect(error?.reason.contains("wrong password") == true)
    }

    @Test func loadsLegacyRC2P12AsMacOSExportsIt() async throws {
        let legacy = chain.path("legacy.p12")
        let result = try await Subprocess.run("openssl", [
            "pkcs12", "-export", "-legacy", "-in", chain.path("pass.pem"), "-inkey", chain.path("pass.key"),
            "-certfile", chain.path("wwdr.pem"), "-passout", "pass:legacy-pw", "-out", legacy,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try await Subprocess.run("openssl", ["pkcs12", "-info", "-noout", "-legacy", "-in", legacy, "-passin", "pass:legacy-pw"])
        #expect((info.stdout + info.stderr).contains("RC2"), "the fixture should use RC2-40 like macOS exports")
        let credentials = try PassCredentials.load(p12Path: legacy, password: "legacy-pw", wwdrPath: chain.path("wwdr.pem"))
        #expect(credentials.identity.passTypeIdentifier == "pass.dev.tessera.demo")
    }
}
