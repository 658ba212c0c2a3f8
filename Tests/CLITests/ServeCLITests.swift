import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TesseraTestSupport

/// `tessera serve` run as a subprocess and spoken to over loopback HTTP.
@Suite("tessera serve (subprocess)", .serialized)
struct ServeCLITests {
    @Test("serves, issues a pass through the issuer API, and stops cleanly on SIGTERM")
    func servesAndStops() async throws {
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve")
        let token = "serve-test-admin-token-0123456789"
        let tokenFile = folder.appendingPathComponent("admin.token")
        try Data((token + "\n").utf8).write(to: tokenFile)
        let log = folder.appendingPathComponent("serve.log")
        let (process, base) = try await Self.launch(chain: chain, database: "sqlite:\(folder.path)/data/tessera.sqlite",
                                                    tokenFile: tokenFile, log: log)
        defer { if process.isRunning { process.terminate() } }

        var create = URLRequest(url: URL(string: "\(base)/api/v1/passes")!)
        create.httpMethod = "POST"
        create.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(#"{"template":"coupon","data":{"serialNumber":"CLI-1"}}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: create)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        let created = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
        let link = try #require(created["downloadURL"] as? String)
        #expect(link.hasPrefix("\(base)/download/"))
        let (bundle, downloaded) = try await URLSession.shared.data(from: URL(string: link)!)
        #expect((downloaded as? HTTPURLResponse)?.statusCode == 200)
        #expect(bundle.starts(with: [0x50, 0x4B]))  // a ZIP

        // A second server on the same SQLite file is refused at start-up, naming the file: it would post every
        // webhook event again and take over what the first holds.
        let second = try await Subprocess.tessera([
            "serve", "--port", "0", "--database", "sqlite:\(folder.path)/data/tessera.sqlite", "--cert", chain.path("pass.pem"),
            "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"), "--admin-token-file", tokenFile.path,
        ])
        #expect(second.status != 0)
        #expect(second.stderr.contains("another tessera serve process uses the SQLite database \(folder.path)/data/tessera.sqlite"),
                "\(second.stderr)")
        #expect(process.isRunning)

        process.terminate()  // SIGTERM: graceful shutdown
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: "\(folder.path)/data/tessera.sqlite"))
    }

    @Test("an issuer's own certificate issues passes from the shipped templates unchanged")
    func issuesWithTheIssuersOwnCertificate() async throws {
        let chain = try TestChain(passTypeIdentifier: "pass.com.acme.arena.tickets", teamIdentifier: "ACME7Q2ZX9")
        let folder = try TemporaryDirectory.make(prefix: "serve-identity")
        let token = "serve-identity-admin-token-0123456789"
        let tokenFile = folder.appendingPathComponent("admin.token")
        try Data((token + "\n").utf8).write(to: tokenFile)
        let (process, base) = try await Self.launch(chain: chain, database: "sqlite:\(folder.path)/tessera.sqlite",
                                                    tokenFile: tokenFile, log: folder.appendingPathComponent("serve.log"))
        defer { if process.isRunning { process.terminate() } }

        func create(_ body: String) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(string: "\(base)/api/v1/passes")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }
        for template in ["event-ticket", "coupon", "boarding-pass", "generic", "store-card"] {
            let (status, created) = try await create(#"{"template":"\#(template)","data":{}}"#)
            #expect(status == 201, "\(template): \(created)")
            #expect(created["passTypeIdentifier"] as? String == "pass.com.acme.arena.tickets", "\(template): \(created)")
            guard let link = created["downloadURL"] as? String else { continue }
            let (bundle, _) = try await URLSession.shared.data(from: URL(string: link)!)
            let file = folder.appendingPathComponent("\(template).pkpass")
            try bundle.write(to: file)
            let verify = try await Subprocess.tessera(["pass", "verify", file.path, "--root", chain.path("root.pem"), "--json"])
            #expect(verify.status == 0, "\(template): \(verify.stdout)")
        }
        let (same, _) = try await create(#"{"template":"coupon","data":{"passTypeIdentifier":"pass.com.acme.arena.tickets","teamIdentifier":"ACME7Q2ZX9"}}"#)
        #expect(same == 201)
        let (other, refused) = try await create(#"{"template":"coupon","data":{"passTypeIdentifier":"pass.dev.tessera.demo"}}"#)
        #expect(other == 422)
        let message = ((refused["error"] as? [String: Any])?["message"] as? String) ?? "\(refused)"
        #expect(message.contains("would need a Pass Type ID certificate"), "\(refused)")
        #expect(message.contains("pass.com.acme.arena.tickets"), "\(refused)")
    }

    @Test("usage errors exit 2 with the flag named")
    func usageErrors() async throws {
        let chain = try TestChain()
        let badDatabase = try await Subprocess.tessera([
            "serve", "--database", "mysql://localhost/x", "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"),
            "--wwdr", chain.path("wwdr.pem"),
        ])
        #expect(badDatabase.status == 2)
        #expect(badDatabase.stderr.contains("--database"))
        // A password is never repeated in the message, whether the scheme is unknown or the URL does not parse.
        for url in ["mysql://root:hunter2@db/x", "postgres://tessera:pa%ss#hunter2@127.0.0.1:1/db"] {
            let refused = try await Subprocess.tessera([
                "serve", "--database", url, "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"),
                "--wwdr", chain.path("wwdr.pem"),
            ])
            #expect(refused.status == 2 && refused.stderr.contains("--database"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("hunter2"), "\(refused.stderr)")
        }
        let noCredentials = try await Subprocess.tessera(["serve", "--port", "0"])
        #expect(noCredentials.status == 2)
        #expect(noCredentials.stderr.contains("signing credentials are needed"))
        for port in ["99999", "65536", "-1"] {
            let outOfRange = try await Subprocess.tessera([
                "serve", "--port=\(port)", "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"),
                "--wwdr", chain.path("wwdr.pem"),
            ])
            #expect(outOfRange.status == 2 && outOfRange.stderr.contains("--port: \(port) is not a port number"), "\(port): \(outOfRange.stderr)")
        }
    }

    @Test("a port in use, an address not this machine's, a database that cannot be reached: start-up stops naming the flag")
    func startFailuresNameTheFlag() async throws {
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-start")
        let signing = ["--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem")]
        let sqlite = ["--database", "sqlite:\(folder.path)/data/tessera.sqlite"]

        let taken = try SilentListener()
        let inUse = try await Subprocess.tessera(["serve", "--host", "127.0.0.1", "--port", String(taken.port)] + sqlite + signing)
        #expect(inUse.status == 1)
        #expect(inUse.stderr.contains("--port \(taken.port): 127.0.0.1:\(taken.port) is already in use"), "\(inUse.stderr)")
        // The services stopped with it say nothing of their own (a cancelled statement is not a failure).
        #expect(!inUse.stderr.contains("warning"), "\(inUse.stderr)")
        withExtendedLifetime(taken) {}

        let notHere = try await Subprocess.tessera(["serve", "--host", "192.0.2.1", "--port", "0"] + sqlite + signing)
        #expect(notHere.status == 1 && notHere.stderr.contains("--host 192.0.2.1: not an address of this machine"), "\(notHere.stderr)")

        // Nothing listens on the port: the start waits --database-wait seconds, saying so, then stops with where it
        // looked, without the password.
        let closed = ServeProcess.unusedPort()
        let started = Date()
        let unreachable = try await Subprocess.tessera(
            ["serve", "--port", "0", "--database", "postgres://tessera:pw-not-shown@127.0.0.1:\(closed)/wallet",
             "--database-wait", "2"] + signing)
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("no connection to the database at 127.0.0.1:\(closed)/wallet within 2 s"),
                "\(unreachable.stderr)")
        #expect(!unreachable.stderr.contains("pw-not-shown"))
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(30))
        let badWait = try await Subprocess.tessera(["serve", "--port", "0", "--database-wait", "0"] + sqlite + signing)
        #expect(badWait.status == 2 && badWait.stderr.contains("--database-wait"), "\(badWait.stderr)")
    }

    @Test("an APNs key that cannot be loaded stops start-up with the reason, before the database is created")
    func unreadableAPNsKey() async throws {
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-apns")
        let database = folder.appendingPathComponent("data/tessera.sqlite")
        let result = try await Subprocess.tessera([
            "serve", "--port", "0", "--database", "sqlite:\(database.path)", "--cert", chain.path("pass.pem"),
            "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"), "--apns-auth", "token",
            "--apns-p8", folder.appendingPathComponent("missing.p8").path, "--apns-key-id", "ABC123DEFG",
            "--apns-team-id", "TEAM123456",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("APNs: "), "\(result.stderr)")
        #expect(result.stderr.contains("missing.p8"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    /// Starts `tessera serve` on a random loopback port with the shipped templates and waits until `/health` answers.
    /// - Returns: The process and its base URL.
    /// - Throws: ``ServeStartFailure`` (the process stopped) when it does not answer.
    private static func launch(chain: TestChain, database: String, tokenFile: URL, log: URL) async throws
        -> (ChildProcess, String)
    {
        let port = ServeProcess.unusedPort()
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Subprocess.tesseraPath)
        process.arguments = [
            "serve", "--port", "\(port)", "--database", database,
            "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
            "--admin-token-file", tokenFile.path, "--log-level", "warning",
        ]
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        // Bounded by time on a thread of its own, as for every test server: start-up on a loaded machine can take
        // longer than a fixed number of tries.
        do {
            try await ServeProcess.waitUntilHealthy(port: port, process: process) {
                String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            }
        } catch {
            if process.isRunning { process.terminate() }
            throw error
        }
        return (process, base)
    }

    private static func status(of request: URLRequest) async throws -> Int {
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
