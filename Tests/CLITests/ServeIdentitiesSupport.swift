import Foundation
import Testing
import TesseraTestSupport

/// Two brands of two teams on one `tessera serve --identities`: brand A's event tickets (token-authenticated pushes
/// with its team's `.p8`), brand B's loyalty cards and shop orders (pushes with each identity's own certificate), each
/// with its own development chain, templates folder and APNs credentials, pushing to one local APNs stand-in.
struct IdentitiesServer: Sendable {
    static let ticketType = "pass.com.brand-a.tickets"
    static let loyaltyType = "pass.com.brand-b.loyalty"
    static let orderType = "order.com.brand-b.shop"
    static let teamA = "TEAMAAAAAA"
    static let teamB = "TEAMBBBBBB"

    /// The folder holding the identities file, the chains (`a/`, `b/`) and the templates.
    let work: URL
    /// The APNs stand-in; `nil` for a server started without pushes.
    let apns: APNsStandIn!
    let serve: ServeProcess

    var identitiesFile: URL { work.appendingPathComponent("identities.json") }

    /// Makes the chains, templates and identities file in a new folder.
    /// - Parameter brandAAsP12: Whether brand A's identity is given as its `.p12` with a password file (else PEM
    ///   certificate and key).
    static func prepare(brandAAsP12: Bool = true) async throws -> URL {
        let work = try TemporaryDirectory.make(prefix: "serve-identities")
        for (folder, type, team, extra) in [("a", ticketType, teamA, [String]()), ("b", loyaltyType, teamB, ["--order-type-id", orderType])] {
            let made = try await Subprocess.tessera(
                ["certs", "dev", "--out", work.appendingPathComponent(folder).path, "--pass-type-id", type, "--team-id", team] + extra)
            try #require(made.status == 0, "\(made.stderr)")
        }
        let manager = FileManager.default
        let templates = Subprocess.repositoryRoot
        for (source, destination) in [
            ("PassTemplates/event-ticket", "a/templates/event-ticket"), ("PassTemplates/store-card", "b/templates/store-card"),
            ("OrderTemplates/shop-order", "b/orders/shop-order"),
        ] {
            let target = work.appendingPathComponent(destination)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: templates.appendingPathComponent(source), to: target)
        }
        // Brand B's pass identity names its intermediate in a file of its own, so a renewal test can replace it.
        try manager.copyItem(at: work.appendingPathComponent("b/wwdr.pem"), to: work.appendingPathComponent("b/pass-wwdr.pem"))
        let p8 = work.appendingPathComponent("a/AuthKey.p8").path
        let key = try await Subprocess.run("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt",
                                                            "ec_paramgen_curve:P-256", "-out", p8])
        try #require(key.status == 0, "\(key.stderr)")
        let brandA = brandAAsP12
            ? #""p12": "a/pass.p12", "p12PasswordFile": "a/pass.p12.password", "wwdr": "a/wwdr.pem""#
            : #""cert": "a/pass.pem", "key": "a/pass.key", "wwdr": "a/wwdr.pem""#
        try Data("""
            {"identities": [
              {"identifier": "\(ticketType)", \(brandA), "templates": "a/templates"},
              {"identifier": "\(loyaltyType)", "cert": "b/pass.pem", "key": "b/pass.key", "wwdr": "b/pass-wwdr.pem", "templates": "b/templates"},
              {"identifier": "\(orderType)", "cert": "b/order.pem", "key": "b/order.key", "wwdr": "b/wwdr.pem", "orderTemplates": "b/orders"}
            ],
             "apns": [{"teamIdentifier": "\(teamA)", "p8": "a/AuthKey.p8", "keyIdentifier": "KEYA123456"}]}
            """.utf8).write(to: work.appendingPathComponent("identities.json"))
        return work
    }

    /// Starts the stand-in and the server over a prepared folder; `body` runs with them, and both stop afterwards.
    static func with(
        _ work: URL? = nil, arguments extra: [String] = [], _ body: (IdentitiesServer) async throws -> Void
    ) async throws {
        let work = try await { () async throws -> URL in
            if let work { return work }
            return try await prepare()
        }()
        let tls = try TestServerCertificates()
        let apns = try await APNsStandIn.start(
            certificatePEMPath: tls.serverCertificatePEMPath, keyPEMPath: tls.serverKeyPEMPath)
        let arguments = [
            "--identities", work.appendingPathComponent("identities.json").path,
            "--apns-host", apns.host, "--apns-port", "\(apns.port)", "--apns-ca-file", tls.authorityPEMPath,
            "--template-poll-interval", "0.5",
        ] + extra
        let serve: ServeProcess
        do {
            serve = try await ServeProcess(arguments: arguments, singleIdentity: false)
        } catch {
            try await apns.shutdown()
            throw error
        }
        do {
            try await body(IdentitiesServer(work: work, apns: apns, serve: serve))
        } catch {
            _ = try? await serve.terminate()
            try await apns.shutdown()
            throw error
        }
        _ = try await serve.terminate()
        try await apns.shutdown()
    }

    /// One request: method, path, extra header lines, body.
    func send(_ method: String, _ path: String, headers: [String] = [], body: String? = nil) async throws
        -> (status: Int, head: String, body: Data)
    {
        try #require(try await serve.send(method, path, headers: headers, body: body), "no answer to \(method) \(path)")
    }

    /// An issuer API request with the admin token.
    func api(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, head: String, body: Data) {
        try await send(method, path, headers: ["Authorization: Bearer \(ServeProcess.adminToken)"], body: body)
    }

    /// Creates a pass and returns its authentication token.
    func createPass(template: String, serial: String) async throws -> String {
        let created = try await api("POST", "/api/v1/passes", body: #"{"template":"\#(template)","data":{"serialNumber":"\#(serial)"}}"#)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return try #require(try OrdersServer.json(created.body)["authenticationToken"] as? String)
    }

    /// The device protocol's fetch of a pass, verified with `tessera pass verify --root` against `root` (a chain
    /// folder's `root.pem`): the verification's JSON report and exit status.
    func fetchAndVerify(type: String, serial: String, token: String, root: String) async throws
        -> (status: Int32, report: [String: Any])
    {
        let fetched = try await send("GET", "/v1/passes/\(type)/\(serial)", headers: ["Authorization: ApplePass \(token)"])
        #expect(fetched.status == 200)
        let file = work.appendingPathComponent("\(serial)-\(UUID().uuidString.prefix(6)).pkpass")
        try fetched.body.write(to: file)
        let verified = try await offCooperativePool {
            try Subprocess.tessera(["pass", "verify", file.path, "--root", work.appendingPathComponent(root).path, "--json"])
        }
        let report = (try? JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any]) ?? [:]
        return (verified.status, report)
    }
}
