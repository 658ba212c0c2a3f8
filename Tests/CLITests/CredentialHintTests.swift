import Foundation
import Testing
import TesseraTestSupport

/// The libraries' credential errors name parameters (`keyPassword`, `wwdrPath`); the CLI adds the flag that gives each.
@Suite("tessera CLI: credential errors name the flags")
struct CredentialHintTests {
    let work: URL
    let certs: URL

    init() async throws {
        (work, certs) = try await Subprocess.folderWithDevelopmentCertificates(prefix: "cli-hints")
    }

    private var template: String { Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/coupon").path }
    private func path(_ name: String) -> String { certs.appendingPathComponent(name).path }
    private func create(_ credentials: [String]) async throws -> ProcessResult {
        try await Subprocess.tessera(["pass", "create", "--template", template,
                                "--output", work.appendingPathComponent("out.pkpass").path] + credentials)
    }

    @Test("an encrypted key or a .p12 without its password names the password flag and variable")
    func missingPasswords() async throws {
        let key = work.appendingPathComponent("enc.key").path
        #expect(try await Subprocess.run("openssl", ["genrsa", "-aes256", "-passout", "pass:right-one", "-out", key, "2048"]).status == 0)
        let encrypted = try await create(["--cert", path("pass.pem"), "--key", key, "--wwdr", path("wwdr.pem")])
        #expect(encrypted.status == 1)
        #expect(encrypted.stderr.contains("the key is encrypted and no password was given"), "\(encrypted.stderr)")
        #expect(encrypted.stderr.contains("give its password with --key-password-file or TESSERA_KEY_PASSWORD"),
                "\(encrypted.stderr)")

        let p12 = try await create(["--p12", path("pass.p12"), "--wwdr", path("wwdr.pem")])
        #expect(p12.status == 1)
        #expect(p12.stderr.contains("password-protected and no password was given"), "\(p12.stderr)")
        #expect(p12.stderr.contains("give the password with --p12-password-file or TESSERA_P12_PASSWORD"), "\(p12.stderr)")
    }

    @Test("a key encrypted with DES by older tools loads with its password, in a process that read no .p12 first")
    func desEncryptedKey() async throws {
        let key = work.appendingPathComponent("des.key").path
        let made = try await Subprocess.run("openssl", [
            "rsa", "-in", path("pass.key"), "-des", "-traditional", "-passout", "pass:old-tool", "-out", key, "-provider", "default",
            "-provider", "legacy",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try String(contentsOfFile: key, encoding: .utf8).contains("DEK-Info: DES-CBC"))
        let password = work.appendingPathComponent("des.password")
        try Data("old-tool\n".utf8).write(to: password)
        let created = try await create(["--cert", path("pass.pem"), "--key", key, "--key-password-file", password.path,
                                        "--wwdr", path("wwdr.pem")])
        #expect(created.status == 0, "\(created.stderr)")
    }

    @Test("a missing or wrong WWDR intermediate names --wwdr; pass verify without a root names --root")
    func intermediateAndRoot() async throws {
        let bare = work.appendingPathComponent("bare.p12").path
        #expect(try await Subprocess.run("openssl", [
            "pkcs12", "-export", "-in", path("pass.pem"), "-inkey", path("pass.key"), "-passout", "pass:pw", "-out", bare,
        ]).status == 0)
        let password = work.appendingPathComponent("bare.password")
        try Data("pw\n".utf8).write(to: password)
        let missing = try await create(["--p12", bare, "--p12-password-file", password.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("holds no WWDR intermediate"), "\(missing.stderr)")
        #expect(missing.stderr.contains("give it with --wwdr"), "\(missing.stderr)")

        let other = work.appendingPathComponent("other")
        #expect(try await Subprocess.tessera(["certs", "dev", "--out", other.path]).status == 0)
        let wrong = try await create(["--cert", path("pass.pem"), "--key", path("pass.key"),
                                "--wwdr", other.appendingPathComponent("wwdr.pem").path])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("did not issue the Pass Type ID certificate"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("give that intermediate with --wwdr"), "\(wrong.stderr)")

        let made = work.appendingPathComponent("made.pkpass").path
        let created = try await Subprocess.tessera(["pass", "create", "--template", template, "--output", made,
                                              "--cert", path("pass.pem"), "--key", path("pass.key"), "--wwdr", path("wwdr.pem")])
        #expect(created.status == 0, "\(created.stderr)")
        let verify = try await Subprocess.tessera(["pass", "verify", made])
        #expect(verify.stdout.contains("not checked against a root certificate; give --root to check it"), "\(verify.stdout)")
    }
}
