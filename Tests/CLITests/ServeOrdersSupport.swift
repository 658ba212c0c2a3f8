import Foundation
import Testing
import TesseraTestSupport

/// A `tessera serve` issuing Wallet orders (the shipped `OrderTemplates`, a development Order Type ID certificate from
/// `tessera certs dev`) with pushes going to a local APNs stand-in, on SQLite or PostgreSQL.
struct OrdersServer {
    /// The certificate's Order Type ID: a merchant's own, not the one the shipped template names
    /// (`order.com.example.shop`), so every version must carry the certificate's identity.
    static let orderType = "order.com.example.hidden"
    static let passType = "pass.dev.tessera.demo"
    static let pushToken = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    enum Database: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
        static let tested: [Database] = TestPostgres.skipped ? [.sqlite] : allCases
    }

    let serve: ServeProcess
    let apns: APNsStandIn
    let work: URL
    /// The PostgreSQL URL (with its `schema`) the servers share, or `nil` on SQLite.
    let database: String?

    /// Starts the stand-in and the server; `body` runs with them, and both stop afterwards.
    static func with(
        _ database: Database, arguments extra: [String] = [], environment: [String: String] = [:],
        _ body: (OrdersServer) async throws -> Void
    ) async throws {
        try await with(database, processes: 1, arguments: extra, environment: environment) { servers in
            try await body(servers[0])
        }
    }

    /// Starts the stand-in and `processes` servers on one database (with the same certificates and APNs stand-in,
    /// like several instances of one service); `body` runs with them, and all stop afterwards.
    static func with(
        _ database: Database, processes: Int, arguments extra: [String] = [], environment: [String: String] = [:],
        _ body: ([OrdersServer]) async throws -> Void
    ) async throws {
        let work = try TemporaryDirectory.make(prefix: "serve-orders")
        let certs = work.appendingPathComponent("certs")
        let made = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--order-type-id", orderType,
                                           "--team-id", "SHOP123456"])
        try #require(made.status == 0, "\(made.stderr)")
        let p8 = work.appendingPathComponent("apns.p8").path
        let key = try await Subprocess.run("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt",
                                                      "ec_paramgen_curve:P-256", "-out", p8])
        try #require(key.status == 0, "\(key.stderr)")
        let tls = try TestServerCertificates()
        let apns = try await APNsStandIn.start(
            certificatePEMPath: tls.serverCertificatePEMPath, keyPEMPath: tls.serverKeyPEMPath)
        var arguments = [
            "--cert", certs.appendingPathComponent("pass.pem").path, "--key", certs.appendingPathComponent("pass.key").path,
            "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
            "--order-templates", Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates").path,
            "--order-cert", certs.appendingPathComponent("order.pem").path,
            "--order-key", certs.appendingPathComponent("order.key").path,
            "--apns-auth", "token", "--apns-p8", p8, "--apns-key-id", "KEY1234567", "--apns-team-id", "SHOP123456",
            "--apns-host", apns.host, "--apns-port", "\(apns.port)", "--apns-ca-file", tls.authorityPEMPath,
        ] + extra
        var databaseURL: String?
        if database == .postgres {
            guard let url = TestPostgres.url else {
                Issue.record(Comment(rawValue: TestPostgres.missingServer("the orders web service over PostgreSQL")))
                try await apns.shutdown()
                return
            }
            let shared = url + (url.contains("?") ? "&" : "?") + "schema=tessera_orders_\(UInt32.random(in: 0...UInt32.max))"
            databaseURL = shared
            arguments += ["--database", shared]
        }
        var servers: [OrdersServer] = []
        func stopAll() async throws {
            for server in servers { _ = try await server.serve.terminate() }
            try await apns.shutdown()
        }
        do {
            for _ in 0..<processes {
                servers.append(OrdersServer(
                    serve: try await ServeProcess(arguments: arguments, environment: environment), apns: apns, work: work, database: databaseURL))
            }
            try await body(servers)
        } catch {
            try await stopAll()
            throw error
        }
        try await stopAll()
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

    /// A response body as a JSON object.
    static func json(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// A response header's value.
    static func header(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// Writes a signed order and checks it with `tessera order verify` (its CMS signature, chain and manifest).
    func verify(_ bundle: Data, name: String) async throws -> ProcessResult {
        let file = work.appendingPathComponent(name)
        try bundle.write(to: file)
        return try await offCooperativePool { try Subprocess.tessera(["order", "verify", file.path]) }
    }

    /// Waits (up to 60 s) until the stand-in got `count` pushes for the order type.
    func waitForOrderPush(count: Int) async throws -> [APNsStandIn.RecordedRequest] {
        try await apns.requests(topic: OrdersServer.orderType, within: 60) { $0.count >= count }
    }
}
