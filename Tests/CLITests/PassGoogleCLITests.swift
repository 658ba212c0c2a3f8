import Foundation
import Testing
import TesseraTestSupport

/// `tessera pass google` as users run it, against a stand-in of Google's token endpoint and REST API; save links'
/// JWTs verified by PyJWT and payloads checked against Google's discovery document (`scripts/check-google.py`).
@Suite("tessera pass google")
struct PassGoogleCLITests {
    let google: GoogleWalletStandIn
    let work: URL
    static let issuerId = "3388000000033333333"

    init() throws {
        google = try GoogleWalletStandIn()
        work = google.folder
    }

    var templates: URL { Subprocess.repositoryRoot.appendingPathComponent("PassTemplates") }

    func tessera(_ arguments: [String]) async throws -> ProcessResult {
        try await offCooperativePool { try Subprocess.tessera(arguments) }
    }

    func googleArguments(_ template: String) -> [String] {
        ["pass", "google", "--template", template, "--google-issuer-id", Self.issuerId,
         "--google-service-account", google.serviceAccountFile.path, "--google-api-url", google.baseURL,
         "--origin", "https://tickets.example.com"]
    }

    func checkLink(_ url: String) async throws {
        let check = try await Subprocess.run("python3", [Subprocess.repositoryRoot.appendingPathComponent("scripts/check-google.py").path,
                                                        "jwt", url, google.publicKeyFile.path, google.clientEmail, google.privateKeyID])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aSmallPassFitsInlineAndItsJWTVerifiesWithPyJWT() async throws {
        // A generic pass without images or translations: class and object inline, nothing sent to Google.
        let template = work.appendingPathComponent("member")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        try Data(#"""
        {"formatVersion": 1, "passTypeIdentifier": "pass.dev.tessera.demo", "teamIdentifier": "TESSERA123",
         "serialNumber": "M-1", "description": "Member card", "organizationName": "Tessera Fitness",
         "backgroundColor": "rgb(10, 20, 30)",
         "barcodes": [{"format": "PKBarcodeFormatQR", "message": "M-1", "messageEncoding": "iso-8859-1"}],
         "generic": {"primaryFields": [{"key": "name", "label": "Member", "value": "Jane Doe"}]}}
        """#.utf8).write(to: template.appendingPathComponent("pass.json"))
        try TestPNG.make(width: 29, height: 29).write(to: template.appendingPathComponent("icon.png"))
        let output = work.appendingPathComponent("link.json")
        let result = try await tessera(googleArguments(template.path) + ["--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let url = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        #expect(url.hasPrefix("https://pay.google.com/gp/v/save/"))
        #expect(url.count <= 1800)
        try await checkLink(url)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        #expect(document?["saveURL"] as? String == url)
        let payload = document?["payload"] as? [String: Any]
        #expect((payload?["genericClasses"] as? [Any])?.count == 1)
        #expect(((payload?["genericObjects"] as? [[String: Any]])?.first?["id"] as? String) == "\(Self.issuerId).pass.dev.tessera.demo.M-2D1")
        #expect(google.requests(matching: "walletobjects").isEmpty)
    }

    @Test func aLongLinkNeedsInsertClassesThenCarriesIdsOnly() async throws {
        let template = templates.appendingPathComponent("event-ticket").path
        let refused = try await tessera(googleArguments(template) + ["--public-url", "https://tessera.example.com"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Google takes 1800"))
        #expect(refused.stderr.contains("--insert-classes"))
        #expect(google.requests(matching: "walletobjects").isEmpty)

        let result = try await tessera(googleArguments(template) + ["--public-url", "https://tessera.example.com", "--insert-classes"])
        #expect(result.status == 0, "\(result.stderr)")
        let url = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        #expect(url.count <= 1800)
        try await checkLink(url)
        let inserted = google.requests(matching: "/walletobjects/v1/eventTicketClass")
        #expect(inserted.first?.method == "POST" && inserted.first?.status == 200)
        #expect((inserted.first?.body["eventName"] as? [String: Any]) != nil)
        // The object inline was still too long: it was inserted too, and the link carries its id only.
        #expect(google.requests(matching: "/walletobjects/v1/eventTicketObject").first?.status == 200)
        #expect(result.stdout.contains("classes and objects inserted"))

        // Again: the class exists (409), so it is updated in place.
        let again = try await tessera(googleArguments(template) + ["--public-url", "https://tessera.example.com", "--insert-classes"])
        #expect(again.status == 0, "\(again.stderr)")
        let classCalls = google.requests(matching: "/walletobjects/v1/eventTicketClass")
        #expect(classCalls.map(\.status).contains(409))
        #expect(classCalls.last?.method == "PUT" && classCalls.last?.status == 200)

        // An origin with a path or a query would never match the page's origin: refused, naming the flag.
        for origin in ["https://a.example.com/path?x", "https://a.example.com/shop", "https://user@a.example.com", "ftp://a.example.com"] {
            var arguments = googleArguments(template) + ["--public-url", "https://tessera.example.com"]
            arguments[arguments.lastIndex(of: "https://tickets.example.com")!] = origin
            let refusedOrigin = try await tessera(arguments)
            #expect(refusedOrigin.status == 2 && refusedOrigin.stderr.contains("--origin \(origin): not a web origin"), "\(origin): \(refusedOrigin.stderr)")
        }
    }

    @Test func httpsToGoogleTrustsTheCAFileGivenAndNothingElse() async throws {
        let tls = try TestServerCertificates()
        let secure = try GoogleWalletStandIn(tls: tls)
        defer { secure.stop() }
        let arguments = ["pass", "google", "--template", templates.appendingPathComponent("event-ticket").path,
                         "--google-issuer-id", Self.issuerId, "--google-service-account", secure.serviceAccountFile.path,
                         "--google-api-url", secure.baseURL, "--public-url", "https://tessera.example.com", "--insert-classes"]
        #expect(secure.baseURL.hasPrefix("https://"))
        let untrusted = try await tessera(arguments)
        #expect(untrusted.status == 1, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("Google Wallet API"))
        let trusted = try await tessera(arguments + ["--google-ca-file", tls.authorityPEMPath])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(secure.requests(matching: "/walletobjects/v1/eventTicketClass").first?.status == 200)
        let missing = try await tessera(arguments + ["--google-ca-file", "/nonexistent/ca.pem"])
        #expect(missing.status == 2 && missing.stderr.contains("--google-ca-file /nonexistent/ca.pem"))
        // A file that holds no certificate (text, a private key) is refused naming the flag, before any request.
        let before = secure.requests(matching: "/walletobjects/v1/eventTicketClass").count
        for (name, contents) in [("notpem.txt", "hello\n"), ("key.pem", try String(contentsOfFile: tls.serverKeyPEMPath, encoding: .utf8))] {
            let file = work.appendingPathComponent(name)
            try Data(contents.utf8).write(to: file)
            let refused = try await tessera(arguments + ["--google-ca-file", file.path])
            #expect(refused.status == 2 && refused.stderr.contains("--google-ca-file \(file.path): no PEM certificate"),
                    "\(name): \(refused.stderr)")
        }
        #expect(secure.requests(matching: "/walletobjects/v1/eventTicketClass").count == before)
    }

    @Test func badInputIsRefusedNamingTheFlagOrField() async throws {
        let template = templates.appendingPathComponent("generic").path
        let account = work.appendingPathComponent("broken.json")
        try Data(#"{"type": "service_account", "client_email": "a@b", "private_key_id": "k", "token_uri": "https://x/token"}"#.utf8)
            .write(to: account)
        let broken = try await tessera(["pass", "google", "--template", template, "--google-issuer-id", Self.issuerId,
                                        "--google-service-account", account.path])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("private_key is missing"))
        let issuer = try await tessera(["pass", "google", "--template", template, "--google-issuer-id", "abc",
                                        "--google-service-account", google.serviceAccountFile.path])
        #expect(issuer.status == 2)
        #expect(issuer.stderr.contains("--google-issuer-id abc"))
        let http = try await tessera(googleArguments(template) + ["--public-url", "http://tessera.example.com"])
        #expect(http.status == 2)
        #expect(http.stderr.contains("https"))
    }
}
