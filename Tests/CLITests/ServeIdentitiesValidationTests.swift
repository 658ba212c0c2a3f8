import Foundation
import PassCrypto
import Testing
import TesseraTestSupport

/// An identities file's mistakes stop `tessera serve` before anything is created, naming the file, the entry and the
/// field; certificates near or past expiry are reported by `tessera certs status` for cron.
@Suite("tessera serve --identities: bad files and expiry")
struct ServeIdentitiesValidationTests {
    typealias Server = IdentitiesServer

    /// Runs `tessera serve --identities` on the file `edit` makes of the prepared one; it must stop at once.
    private func refused(
        _ work: URL, extra: [String] = [], _ edit: (inout [String: Any]) throws -> Void
    ) async throws -> ProcessResult {
        let url = work.appendingPathComponent("identities.json")
        let original = try Data(contentsOf: url)
        var object = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        try edit(&object)
        let edited = work.appendingPathComponent("edited-\(UUID().uuidString.prefix(6)).json")
        try JSONSerialization.data(withJSONObject: object).write(to: edited)
        let database = work.appendingPathComponent("refused-\(UUID().uuidString.prefix(6)).sqlite")
        let result = try await Subprocess.tessera([
            "serve", "--identities", edited.path, "--port", "0", "--database", "sqlite:\(database.path)",
        ] + extra)
        #expect(!FileManager.default.fileExists(atPath: database.path), "nothing is created: \(result.stderr)")
        return result
    }

    private static func entries(_ object: [String: Any]) -> [[String: Any]] {
        (object["identities"] as? [[String: Any]]) ?? []
    }

    @Test("unknown field, wrong identifier, clashing templates, wrong password, missing APNs credentials, mixed flags")
    func refusedFiles() async throws {
        let work = try await Server.prepare()
        let unknown = try await refused(work) { object in
            var entries = Self.entries(object)
            entries[1]["cerrt"] = "b/pass.pem"
            object["identities"] = entries
        }
        #expect(unknown.status == 1 && unknown.stderr.contains("identities[1].cerrt: unknown field"), "\(unknown.stderr)")

        let mismatch = try await refused(work) { object in
            var entries = Self.entries(object)
            entries[1]["identifier"] = "pass.com.brand-b.other"
            object["identities"] = entries
        }
        #expect(mismatch.stderr.contains("identities[1].identifier: pass.com.brand-b.other is not the certificate's identifier (\(Server.loyaltyType))"),
                "\(mismatch.stderr)")

        // The same template name in two folders: which certificate signs it would be a guess.
        try FileManager.default.copyItem(
            at: work.appendingPathComponent("a/templates/event-ticket"), to: work.appendingPathComponent("b/clash/event-ticket"))
        let clash = try await refused(work) { object in
            var entries = Self.entries(object)
            entries[1]["templates"] = "b/clash"
            object["identities"] = entries
        }
        #expect(clash.stderr.contains("identities[1].templates: template event-ticket is also in identities[0]"), "\(clash.stderr)")

        try Data("not-the-password\n".utf8).write(to: work.appendingPathComponent("wrong.password"))
        let password = try await refused(work) { object in
            var entries = Self.entries(object)
            entries[0]["p12PasswordFile"] = "wrong.password"
            object["identities"] = entries
        }
        #expect(password.status == 1 && password.stderr.contains("identities[0].p12"), "\(password.stderr)")
        #expect(!password.stderr.contains("not-the-password"), "a password is never printed")

        // Team A's key removed: its .p12 identity has no PEM certificate to push with.
        let noKey = try await refused(work, extra: ["--apns-auth", "certificate"]) { object in
            object["apns"] = [[String: Any]]()
        }
        #expect(noKey.stderr.contains("identities[0]: no APNs credentials cover \(Server.ticketType)"), "\(noKey.stderr)")

        // A key written twice: JSON readers keep one value silently, so the file is refused naming the key.
        let text = try String(contentsOf: work.appendingPathComponent("identities.json"), encoding: .utf8)
        let range = try #require(text.range(of: #""identifier""#))
        let twice = work.appendingPathComponent("twice.json")
        try Data(text.replacingCharacters(in: range, with: #""identifier": "pass.com.brand-b.tickets", "identifier""#).utf8)
            .write(to: twice)
        let duplicate = try await Subprocess.tessera([
            "serve", "--identities", twice.path, "--port", "0",
            "--database", "sqlite:\(work.appendingPathComponent("twice.sqlite").path)",
        ])
        #expect(duplicate.status == 1 && duplicate.stderr.contains("identities[0].identifier: appears twice in one object"),
                "\(duplicate.stderr)")

        let mixed = try await refused(work, extra: ["--cert", work.appendingPathComponent("a/pass.pem").path]) { _ in }
        #expect(mixed.status == 2 && mixed.stderr.contains("--identities: --cert"), "\(mixed.stderr)")
    }

    /// An identities file over chains made with `TestChain` (validity chosen by the test).
    private func expiringFile(_ chains: [(TestChain, String)], work: URL) throws -> URL {
        var entries: [String] = []
        for (index, (chain, type)) in chains.enumerated() {
            let templates = work.appendingPathComponent("templates-\(index)")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            let name = index == 0 ? "event-ticket" : "store-card"
            try FileManager.default.copyItem(
                at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"),
                to: templates.appendingPathComponent(name))
            entries.append(#"{"identifier": "\#(type)", "cert": "\#(chain.path("pass.pem"))", "key": "\#(chain.path("pass.key"))", "wwdr": "\#(chain.path("wwdr.pem"))", "templates": "\#(templates.path)"}"#)
        }
        let url = work.appendingPathComponent("identities.json")
        try Data(#"{"identities": [\#(entries.joined(separator: ","))]}"#.utf8).write(to: url)
        return url
    }

    @Test("certs status: days left for each identity, exit 1 within 7 days")
    func certsStatus() async throws {
        let work = try TemporaryDirectory.make(prefix: "certs-status")
        let soon = try TestChain(passTypeIdentifier: "pass.com.soon.tickets", validFrom: .hourAgo, passValidity: 3 * 86_400 + 3600 + 600)
        let later = try TestChain(passTypeIdentifier: "pass.com.later.cards", validFrom: .hourAgo, passValidity: 200 * 86_400)
        let both = try expiringFile([(soon, "pass.com.soon.tickets"), (later, "pass.com.later.cards")], work: work)
        let due = try await Subprocess.tessera(["certs", "status", "--identities", both.path, "--json"])
        #expect(due.status == 1, "\(due.stdout)\(due.stderr)")
        let listed = (try JSONSerialization.jsonObject(with: Data(due.stdout.utf8)) as? [String: Any])?["identities"] as? [[String: Any]]
        #expect(listed?.map { $0["daysLeft"] as? Int } == [3, 199])
        #expect(listed?.first?["serialNumber"] as? String == soon.chain.pass.serialNumberHex)

        let laterOnly = try TemporaryDirectory.make(prefix: "certs-status")
        let fine = try await Subprocess.tessera([
            "certs", "status", "--identities", try expiringFile([(later, "pass.com.later.cards")], work: laterOnly).path,
        ])
        #expect(fine.status == 0, "\(fine.stdout)\(fine.stderr)")
        #expect(fine.stdout.contains("pass.com.later.cards") && fine.stdout.contains("199"))
        // A WWDR intermediate expiring before the certificate: the identity stops signing then, and is due.
        let intermediate = try TestChain(passTypeIdentifier: "pass.com.wwdr.tickets", validFrom: .hourAgo, passValidity: 300 * 86_400,
                                         intermediateValidity: 3 * 86_400 + 3600 + 600)
        let wwdrDue = try await Subprocess.tessera([
            "certs", "status", "--identities",
            try expiringFile([(intermediate, "pass.com.wwdr.tickets")], work: try TemporaryDirectory.make(prefix: "certs-status")).path,
        ])
        #expect(wwdrDue.status == 1 && wwdrDue.stdout.contains("renew now (WWDR intermediate)"), "\(wwdrDue.stdout)\(wwdrDue.stderr)")
        let usage = try await Subprocess.tessera(["certs", "status"])
        #expect(usage.status == 2)

        // An identity whose key is another certificate's: listed as not loading, and the others still listed.
        let mixed = try TemporaryDirectory.make(prefix: "certs-status")
        let mismatched = try expiringFile([(later, "pass.com.later.cards"), (soon, "pass.com.soon.tickets")], work: mixed)
        var text = try String(contentsOf: mismatched, encoding: .utf8)
        let stranger = try TestChain(passTypeIdentifier: "pass.com.stranger", freshKeys: true)
        text = text.replacingOccurrences(of: later.path("pass.key"), with: stranger.path("pass.key"))
        try Data(text.utf8).write(to: mismatched)
        let report = try await Subprocess.tessera(["certs", "status", "--identities", mismatched.path, "--json"])
        #expect(report.status == 1, "\(report.stdout)\(report.stderr)")
        let rows = (try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["identities"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["identifier"] as? String } == ["pass.com.later.cards", "pass.com.soon.tickets"], "\(report.stdout)")
        #expect(rows.first?["usable"] as? Bool == false && (rows.first?["reason"] as? String ?? "").contains("does not load"), "\(rows)")
        #expect(rows.last?["daysLeft"] as? Int == 3, "\(rows)")

        // The table shows each certificate's serial number; a missing key or intermediate file is named as that
        // field, not as the certificate; a file that is not JSON is told with the line and column.
        #expect(fine.stdout.contains("SERIAL") && fine.stdout.contains(later.chain.pass.serialNumberHex), "\(fine.stdout)")
        for (field, original) in [("key", soon.path("pass.key")), ("wwdr", soon.path("wwdr.pem"))] {
            let missing = try TemporaryDirectory.make(prefix: "certs-status")
            let file = try expiringFile([(soon, "pass.com.soon.tickets")], work: missing)
            let edited = try String(contentsOf: file, encoding: .utf8)
                .replacingOccurrences(of: original, with: missing.appendingPathComponent("gone.pem").path)
            try Data(edited.utf8).write(to: file)
            let answer = try await Subprocess.tessera(["certs", "status", "--identities", file.path])
            #expect(answer.status == 1 && answer.stdout.contains("identities[0].\(field): "), "\(field): \(answer.stdout)\(answer.stderr)")
        }
        let notJSON = mixed.appendingPathComponent("cut.json")
        try Data("{\n  \"identities\": [\n".utf8).write(to: notJSON)
        let cut = try await Subprocess.tessera(["certs", "status", "--identities", notJSON.path])
        #expect(cut.status == 1 && cut.stderr.contains("not JSON: line 3, column 1"), "\(cut.stderr)")
    }

    @Test("an identity that expires while serving: its passes are still served, new versions refused, /health names it")
    func expiryWhileServing() async throws {
        let work = try TemporaryDirectory.make(prefix: "serve-expiry")
        // Both identities start with a year; once a pass exists, the first is renewed with a certificate that expires
        // 30 s later (how long a busy machine takes to start a server does not matter then).
        let first = try TestChain(passTypeIdentifier: "pass.com.brief.tickets")
        let lasting = try TestChain(passTypeIdentifier: "pass.com.lasting.cards")
        let file = try expiringFile([(first, "pass.com.brief.tickets"), (lasting, "pass.com.lasting.cards")], work: work)
        let serve = try await ServeProcess(
            arguments: ["--identities", file.path, "--template-poll-interval", "0"], singleIdentity: false)
        let server = IdentitiesServer(work: work, apns: nil, serve: serve)
        let token = try await server.createPass(template: "event-ticket", serial: "E-1")
        let brief = try TestChain(passTypeIdentifier: "pass.com.brief.tickets", validFrom: .hourAgo, passValidity: 3600 + 30)
        for name in ["pass.pem", "pass.key", "wwdr.pem"] {
            let staged = first.directory.appendingPathComponent(".\(name).new")
            try FileManager.default.copyItem(at: brief.directory.appendingPathComponent(name), to: staged)
            #expect(rename(staged.path, first.path(name)) == 0)
        }
        kill(serve.process.processIdentifier, SIGHUP)
        var warned = false
        for _ in 0..<80 where !warned {
            try await Task.sleep(for: .milliseconds(250))
            warned = serve.log.contains("signing certificate expires soon")
        }
        #expect(warned, "the renewal's warning: \(serve.log)")
        let expiresAt = try #require(brief.chain.pass.notAfter)
        try await Task.sleep(for: .seconds(max(0, expiresAt.timeIntervalSinceNow) + 1.5))

        let fetched = try await server.send("GET", "/v1/passes/pass.com.brief.tickets/E-1", headers: ["Authorization: ApplePass \(token)"])
        #expect(fetched.status == 200, "the stored pass is still served")
        let change = try await server.api("PATCH", "/api/v1/passes/pass.com.brief.tickets/E-1", body: #"{"data":{"fields":{"seat":"1A"}}}"#)
        #expect(change.status == 503, "\(String(decoding: change.body, as: UTF8.self))")
        let envelope = try OrdersServer.json(change.body)["error"] as? [String: Any]
        #expect(envelope?["code"] as? String == "signingUnavailable")
        #expect((envelope?["message"] as? String)?.contains("expired") == true)
        let created = try await server.api("POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{}}"#)
        #expect(created.status == 503)
        // The other identity carries on.
        _ = try await server.createPass(template: "store-card", serial: "L-1")

        let health = try await server.send("GET", "/health")
        #expect(health.status == 200)
        let report = try OrdersServer.json(health.body)
        #expect(report["status"] as? String == "degraded")
        #expect(report["expired"] as? [String] == ["pass.com.brief.tickets"])
        _ = try await serve.terminate()

        // At start-up with no identity left that can sign: refused, naming it.
        let alone = try TemporaryDirectory.make(prefix: "serve-expiry")
        let onlyExpired = try expiringFile([(brief, "pass.com.brief.tickets")], work: alone)
        let refused = try await Subprocess.tessera([
            "serve", "--identities", onlyExpired.path, "--port", "0", "--database", "sqlite:\(alone.path)/db.sqlite",
        ])
        #expect(refused.status == 1 && refused.stderr.contains("no identity can sign"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass.com.brief.tickets"))
    }
}
