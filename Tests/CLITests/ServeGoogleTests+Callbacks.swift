import Foundation
import Testing
import TesseraTestSupport

/// Google's save and delete callbacks against `tessera serve`, signed with Tink's published test keys by an
/// independent signer; and the holder landing page in headless Chromium with a phone's and a desktop's user agent.
@Suite("tessera serve Google Wallet callbacks and landing page")
struct ServeGoogleCallbackTests {
    static let issuerId = ServeGoogleTests.issuerId
    static let admin = ServeGoogleTests.admin

    static func server(_ google: GoogleWalletStandIn) async throws -> ServeProcess {
        let keys = google.folder.appendingPathComponent("callback-keys.json")
        try TinkTestKeys.keysDocument(nowMillis: Int64(Date().timeIntervalSince1970 * 1000)).write(to: keys)
        return try await ServeProcess(arguments: ServeGoogleTests.arguments(google) + ["--google-callback-keys", keys.path],
                                      environment: ServeGoogleTests.environment)
    }

    @Test("verified callbacks are counted once per nonce and recorded as events; forged, stale and foreign ones are refused")
    func callbacks() async throws {
        try #require(GoogleCallbackSigner.isAvailable, "python3 with cryptography (installed by the test command)")
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await Self.server(google)
        _ = try await ServeGoogleTests.create(server, serial: "CB-1")
        let object = "\(Self.issuerId).pass.dev.tessera.demo.CB-2D1"
        let classId = "\(Self.issuerId).event-2Dticket"
        func post(_ body: Data) async throws -> Int {
            try #require(try await server.send("POST", "/google/v1/callbacks", body: String(decoding: body, as: UTF8.self))).status
        }
        let save = try GoogleCallbackSigner.sign(issuerId: Self.issuerId, classId: classId, objectId: object, eventType: "save", nonce: "n-1")
        #expect(try await post(save) == 200)
        #expect(try await post(save) == 200, "a repeated delivery is acknowledged")
        let delete = try GoogleCallbackSigner.sign(issuerId: Self.issuerId, classId: classId, objectId: object, eventType: "del", nonce: "n-2")
        #expect(try await post(delete) == 200)

        // Forged (an intermediate key signed by another root), stale, another issuer's, and a pass that is not here.
        let forged = try GoogleCallbackSigner.sign(issuerId: Self.issuerId, classId: classId, objectId: object, eventType: "save",
                                                   nonce: "n-3", rootPrivate: TinkTestKeys.intermediatePrivate)
        #expect(try await post(forged) == 400)
        let stale = try GoogleCallbackSigner.sign(issuerId: Self.issuerId, classId: classId, objectId: object, eventType: "save",
                                                  nonce: "n-4", lifetimeMillis: -60_000)
        #expect(try await post(stale) == 400)
        let foreign = try GoogleCallbackSigner.sign(issuerId: "3388000000099999999", classId: "3388000000099999999.x",
                                                    objectId: "3388000000099999999.pass.x.1", eventType: "save", nonce: "n-5")
        #expect(try await post(foreign) == 400)
        let missing = try GoogleCallbackSigner.sign(issuerId: Self.issuerId, classId: classId,
                                                    objectId: "\(Self.issuerId).pass.dev.tessera.demo.NOPE", eventType: "save", nonce: "n-6")
        #expect(try await post(missing) == 404)
        #expect(try await server.send("POST", "/google/v1/callbacks", body: "{not json")?.status == 400)
        // A malformed chunk is the request's fault, not a body too large (it was 413 "at most 64 KiB").
        let chunked = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try chunked.send("POST /google/v1/callbacks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
        let malformed = try await chunked.reading(until: { _ in false }, deadline: Date().addingTimeInterval(8))
        #expect(malformed.text.hasPrefix("HTTP/1.1 400"), "\(malformed.text)")

        let state = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/CB-1", headers: [Self.admin]))
        let member = ServeGoogleTests.json(state.body)["google"] as? [String: Any]
        #expect(member?["saves"] as? Int == 1 && member?["deletes"] as? Int == 1, "\(member ?? [:])")
        let events = try #require(try await server.send("GET", "/api/v1/events?type=pass.registered,pass.unregistered", headers: [Self.admin]))
        let list = (ServeGoogleTests.json(events.body)["events"] as? [[String: Any]]) ?? []
        #expect(list.map { $0["type"] as? String ?? "" } == ["pass.registered", "pass.unregistered"])
        #expect(list.allSatisfy { ($0["data"] as? [String: Any])?["wallet"] as? String == "google" })
        #expect(!String(decoding: events.body, as: UTF8.self).contains(object), "the device is a hash, not the object id")
        _ = try await server.terminate()

        // A keys file that is not Google's keys document stops start-up, naming the flag: running with it, every
        // genuine callback would be refused and lost.
        let notKeys = google.folder.appendingPathComponent("not-keys.json")
        try Data(#"{"type": "service_account"}"#.utf8).write(to: notKeys)
        let chain = try TestChain()
        let refused = try await Subprocess.tessera(
            ["serve", "--port", "0", "--database", "sqlite:\(google.folder.path)/refused.sqlite",
             "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
             "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem")]
                + ServeGoogleTests.arguments(google) + ["--google-callback-keys", notKeys.path],
            environment: ServeGoogleTests.environment)
        #expect(refused.status == 2 && refused.stderr.contains("--google-callback-keys"), "\(refused.stderr)")
    }

    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
    static let android = "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
    static let desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

    /// The page as headless Chromium builds it for a user agent.
    static func dom(_ url: String, userAgent: String) async throws -> String {
        let browser = try #require(["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile(atPath:)),
                                   "Chromium (installed by the test command)")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("landing-\(UUID().uuidString)")
        let run = try await Subprocess.run(browser, ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                     "--user-data-dir=\(profile.path)", "--user-agent=\(userAgent)", "--dump-dom", url])
        try? FileManager.default.removeItem(at: profile)
        return run.stdout
    }

    @Test("the landing page offers the .pkpass on an iPhone, the Google link on Android, and both with a QR code on a desktop")
    func landingPage() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await Self.server(google)
        let created = try await ServeGoogleTests.create(server, serial: "LP-1")
        let download = try #require(created["downloadURL"] as? String)
        let token = try #require(download.split(separator: "/").last.map { String($0.dropLast(".pkpass".count)) })
        let page = "\(server.baseURL)/p/\(token)"

        let phone = try await Self.dom(page, userAgent: Self.iPhone)
        #expect(phone.contains("Add to Apple Wallet") && !phone.contains("Add to Google Wallet"), "\(phone)")
        #expect(phone.contains(download))
        let droid = try await Self.dom(page, userAgent: Self.android)
        #expect(droid.contains("Add to Google Wallet") && !droid.contains("Add to Apple Wallet"), "\(droid)")
        #expect(droid.contains("https://pay.google.com/gp/v/save/"))
        let desk = try await Self.dom(page, userAgent: Self.desktop)
        #expect(desk.contains("Add to Apple Wallet") && desk.contains("Add to Google Wallet"))
        #expect(desk.contains("<svg") && desk.contains("QR code of this page"))
        #expect(desk.contains("The Midnight Echo") && !desk.contains("EVENT_DESCRIPTION"), "the page reads in English, as the pass")

        let missing = try #require(try await server.send("GET", "/p/no-such-token"))
        #expect(missing.status == 404)
        let headers = try #require(try await server.send("GET", "/p/\(token)"))
        #expect(headers.head.lowercased().contains("content-security-policy: default-src 'none'"))
        // Its address holds the download token: not passed on to the wallets it links to.
        #expect(headers.head.lowercased().contains("referrer-policy: no-referrer"), "\(headers.head)")
        _ = try await server.terminate()
    }
}
