import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TesseraTestSupport

/// Issuing as a real issuer does: their own Pass Type ID certificate (not the demo one), the shipped templates, CSV
/// files with mistakes in them, Ctrl-C in the middle of a batch, and every problem reported at once. `tessera` runs as
/// a subprocess throughout.
@Suite("Issuing with a real certificate (CLI)")
struct IssuingCLITests {
    let work: URL
    let certs: URL
    static let passTypeIdentifier = "pass.com.acme.arena.tickets"
    static let team = "ACME7Q2ZX9"

    init() async throws {
        work = try TemporaryDirectory.make(prefix: "issuing")
        certs = work.appendingPathComponent("acme")
        let result = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--pass-type-id", Self.passTypeIdentifier,
                                             "--team-id", Self.team, "--organization", "Acme Arena"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    var templates: URL { Subprocess.repositoryRoot.appendingPathComponent("PassTemplates") }
    var eventTicket: String { templates.appendingPathComponent("event-ticket").path }
    var credentials: [String] {
        ["--p12", certs.appendingPathComponent("pass.p12").path,
         "--p12-password-file", certs.appendingPathComponent("pass.p12.password").path,
         "--wwdr", certs.appendingPathComponent("wwdr.pem").path]
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = work.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// `tessera pass batch` of the event ticket over a rows file, into a folder of `work`.
    func batch(_ rows: String, into folder: String) async throws -> ProcessResult {
        try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                      "--out-dir", work.appendingPathComponent(folder).path] + credentials)
    }

    func passJSON(_ pkpass: String) async throws -> [String: Any] {
        let inspect = try await Subprocess.tessera(["pass", "inspect", pkpass, "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        return object?["pass"] as? [String: Any] ?? [:]
    }

    @Test func everyShippedTemplateSignsWithTheIssuersOwnCertificate() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter {
            FileManager.default.fileExists(atPath: templates.appendingPathComponent("\($0)/pass.json").path)
        }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let output = work.appendingPathComponent("\(name).pkpass").path
            let create = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent(name).path,
                                                 "--output", output] + credentials)
            #expect(create.status == 0, "\(name): \(create.stderr)")
            let pass = try await passJSON(output)
            #expect(pass["passTypeIdentifier"] as? String == Self.passTypeIdentifier, "\(name)")
            #expect(pass["teamIdentifier"] as? String == Self.team, "\(name)")
            let verify = try await Subprocess.tessera(["pass", "verify", output, "--root", certs.appendingPathComponent("root.pem").path])
            #expect(verify.status == 0, "\(name): \(verify.stdout)")
        }
    }

    @Test func passwordFilesComeFromTheEnvironmentAndMayEndWithCRLF() async throws {
        // The .p12's password file as a Windows editor saves it, named by TESSERA_P12_PASSWORD_FILE as serve takes it.
        let password = try String(contentsOf: certs.appendingPathComponent("pass.p12.password"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        let crlf = work.appendingPathComponent("p12-password-crlf")
        try Data((password + "\r\n").utf8).write(to: crlf)
        let output = work.appendingPathComponent("env.pkpass").path
        let create = try await Subprocess.tessera(
            ["pass", "create", "--template", eventTicket, "--output", output,
             "--p12", certs.appendingPathComponent("pass.p12").path, "--wwdr", certs.appendingPathComponent("wwdr.pem").path],
            environment: ["TESSERA_P12_PASSWORD_FILE": crlf.path])
        #expect(create.status == 0, "\(create.stderr)")
        let missing = try await Subprocess.tessera(
            ["pass", "create", "--template", eventTicket, "--output", work.appendingPathComponent("missing.pkpass").path,
             "--p12", certs.appendingPathComponent("pass.p12").path, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
             "--p12-password-file", work.appendingPathComponent("absent").path])
        #expect(missing.status == 1 && missing.stderr.contains("--p12-password-file:") && missing.stderr.contains("not found"), "\(missing.stderr)")
    }

    @Test func dataMayNameOnlyTheCertificatesIdentity() async throws {
        let same = try write("same.json", #"{"passTypeIdentifier": "\#(Self.passTypeIdentifier)", "teamIdentifier": "\#(Self.team)"}"#)
        let ok = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--data", same,
                                         "--output", work.appendingPathComponent("same.pkpass").path] + credentials)
        #expect(ok.status == 0, "\(ok.stderr)")

        let other = try write("other.json", #"{"passTypeIdentifier": "pass.com.other.id"}"#)
        let output = work.appendingPathComponent("other.pkpass").path
        let refused = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--data", other,
                                              "--output", output] + credentials)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("would need a Pass Type ID certificate whose Pass Type ID is \"pass.com.other.id\""))
        #expect(refused.stderr.contains(Self.passTypeIdentifier))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aCertificateFileHoldingTheChainInAnyOrderSigns() async throws {
        // The intermediate first, then the pass certificate (as some exports write a chain); a WWDR file with two
        // intermediates, the one that issued the certificate second.
        let chainFile = work.appendingPathComponent("chain-first.pem")
        let wwdr = try Data(contentsOf: certs.appendingPathComponent("wwdr.pem"))
        try (wwdr + Data(contentsOf: certs.appendingPathComponent("pass.pem"))).write(to: chainFile)
        let intermediates = work.appendingPathComponent("two-wwdr.pem")
        try (Data(contentsOf: certs.appendingPathComponent("root.pem")) + wwdr).write(to: intermediates)
        let output = work.appendingPathComponent("chain-first.pkpass").path
        let create = try await Subprocess.tessera([
            "pass", "create", "--template", eventTicket, "--output", output, "--cert", chainFile.path,
            "--key", certs.appendingPathComponent("pass.key").path, "--wwdr", intermediates.path,
        ])
        #expect(create.status == 0, "\(create.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func textUnderTheBarcodeMatchesWhatItEncodes() async throws {
        let rows = try write("alt.csv", "serialNumber,barcodeMessage,barcodeAltText\nA1,ENTRY-A1,\nA2,ENTRY-A2,Gate 4\n")
        let outDir = work.appendingPathComponent("alt")
        let batch = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                            "--out-dir", outDir.path] + credentials)
        #expect(batch.status == 0, "\(batch.stderr)")
        let noText = try await passJSON(outDir.appendingPathComponent("A1.pkpass").path)["barcodes"] as? [[String: Any]]
        #expect(noText?.first?["message"] as? String == "ENTRY-A1")
        #expect(noText?.first?["altText"] == nil)
        let explicit = try await passJSON(outDir.appendingPathComponent("A2.pkpass").path)["barcodes"] as? [[String: Any]]
        #expect(explicit?.first?["altText"] as? String == "Gate 4")

        // Only the message given: the template's placeholder text follows it.
        let jsonl = try write("alt.jsonl", #"{"serialNumber": "A3", "barcodeMessage": "ENTRY-A3"}"# + "\n")
        let followed = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", jsonl,
                                               "--out-dir", outDir.path] + credentials)
        #expect(followed.status == 0, "\(followed.stderr)")
        let barcodes = try await passJSON(outDir.appendingPathComponent("A3.pkpass").path)["barcodes"] as? [[String: Any]]
        #expect(barcodes?.first?["altText"] as? String == "ENTRY-A3")
        #expect(!String(describing: barcodes).contains("TICKET-0001"))
    }

    @Test(arguments: [("SIGINT", SIGINT, Int32(130)), ("SIGTERM", SIGTERM, Int32(143))])
    func anInterruptedBatchLeavesNoTemporaryFile(name: String, signal: Int32, status: Int32) async throws {
        // On a thread of its own: a task sleep in a busy test process could resume only after the batch has finished.
        try await offCooperativePool { try interruptBatch(name: name, signal: signal, status: status) }
    }

    func interruptBatch(name: String, signal: Int32, status: Int32) throws {
        var csv = "serialNumber,fields.seat\n"
        for index in 0..<20_000 { csv += "I-\(index),\(index)\n" }
        let rows = try write("many-\(name).csv", csv)
        let outDir = work.appendingPathComponent("many-\(name)")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        // A temporary left by an earlier, killed run is removed; someone else's hidden file is not.
        let stale = outDir.appendingPathComponent(".I-0.pkpass.\(UUID().uuidString).tmp")
        let foreign = outDir.appendingPathComponent(".keep.tmp")
        try Data("partial".utf8).write(to: stale)
        try Data().write(to: foreign)

        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Subprocess.tesseraPath)
        process.arguments = ["pass", "batch", "--template", eventTicket, "--rows", rows, "--out-dir", outDir.path,
                             "--jobs", "2"] + credentials
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var started = false
        for _ in 0..<600 where !started {
            Thread.sleep(forTimeInterval: 0.02)
            started = ((try? FileManager.default.contentsOfDirectory(atPath: outDir.path)) ?? []).filter { $0.hasSuffix(".pkpass") }.count >= 20
        }
        #expect(started)
        kill(process.processIdentifier, signal)
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(stdout)\(stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: outDir.path)
        #expect(!names.contains { $0.hasSuffix(".pkpass.tmp") || ($0.hasPrefix(".I-") && $0.hasSuffix(".tmp")) }, "\(names.filter { $0.hasPrefix(".") })")
        #expect(names.contains(".keep.tmp"))
        let written = names.filter { $0.hasSuffix(".pkpass") }.count
        #expect(written < 20_000)
        #expect(stdout.contains("interrupted by \(name): \(written) of 20000 passes written"), "\(stdout)")
        #expect(stderr.contains("removed 1 unfinished temporary file"))
    }

    @Test func verifyReportsEveryProblemWhenTheChainFails() async throws {
        // A pass whose pass.json names another Pass Type ID, signed by this certificate with OpenSSL itself.
        let made = work.appendingPathComponent("made.pkpass").path
        #expect(try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--output", made] + credentials).status == 0)
        let folder = work.appendingPathComponent("resigned")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try await Subprocess.run("python3", ["-c", Self.resignScript, made, folder.path,
                                               certs.appendingPathComponent("pass.pem").path,
                                               certs.appendingPathComponent("pass.key").path,
                                               certs.appendingPathComponent("wwdr.pem").path]).status == 0)
        let resigned = folder.appendingPathComponent("resigned.pkpass").path
        let other = work.appendingPathComponent("other-chain")
        #expect(try await Subprocess.tessera(["certs", "dev", "--out", other.path]).status == 0)
        let verify = try await Subprocess.tessera(["pass", "verify", resigned, "--root", other.appendingPathComponent("root.pem").path,
                                             "--wwdr", other.appendingPathComponent("wwdr.pem").path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("error: signature: the signer's certificate chain does not verify"), "\(verify.stdout)")
        #expect(verify.stdout.contains("did not issue the Pass Type ID certificate"), "\(verify.stdout)")
        #expect(verify.stdout.contains("error: passTypeIdentifier: \"pass.com.elsewhere\" does not match"), "\(verify.stdout)")
        #expect(verify.stdout.contains("error: description: appears twice"), "\(verify.stdout)")
    }

    /// Rewrites pass.json with another Pass Type ID and a duplicate key, then re-signs the manifest with `openssl cms`.
    static let resignScript = #"""
    import hashlib, json, re, subprocess, sys, zipfile
    source, folder, cert, key, wwdr = sys.argv[1:]
    files = {n: zipfile.ZipFile(source).read(n) for n in zipfile.ZipFile(source).namelist()}
    text = files["pass.json"].decode()
    text = re.sub(r'"passTypeIdentifier"\s*:\s*"[^"]*"', '"passTypeIdentifier": "pass.com.elsewhere"', text, count=1)
    text = text.replace("{", '{"description": "first",', 1)
    assert "pass.com.elsewhere" in text, text[:400]
    files["pass.json"] = text.encode()
    manifest = {n: hashlib.sha1(d).hexdigest() for n, d in files.items() if n not in ("manifest.json", "signature")}
    files["manifest.json"] = json.dumps(manifest).encode()
    open(folder + "/manifest.json", "wb").write(files["manifest.json"])
    subprocess.run(["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-signer", cert,
                    "-inkey", key, "-certfile", wwdr, "-in", folder + "/manifest.json", "-out", folder + "/signature"], check=True)
    files["signature"] = open(folder + "/signature", "rb").read()
    with zipfile.ZipFile(folder + "/resigned.pkpass", "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files.items(): z.writestr(n, d)
    """#

    @Test func verifyStreamsLargeEntries() async throws {
        let made = work.appendingPathComponent("small.pkpass").path
        #expect(try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--output", made] + credentials).status == 0)
        let big = work.appendingPathComponent("big.pkpass").path
        let script = """
        import sys, zipfile
        src = zipfile.ZipFile(sys.argv[1])
        with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
            for n in src.namelist(): z.writestr(n, src.read(n))
            z.writestr("huge.png", b"\\0" * (100 << 20))
        """
        #expect(try await Subprocess.run("python3", ["-c", script, made, big]).status == 0)
        // The child's peak memory, measured by its parent.
        let measure = """
        import resource, subprocess, sys
        result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
        print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        print(result.stdout)
        """
        let run = try await Subprocess.run("python3", ["-c", measure, Subprocess.tesseraPath, "pass", "verify", big])
        let first = run.stdout.split(separator: "\n").first?.split(separator: " ") ?? []
        #expect(first.first == "1", "\(run.stdout)")
        let kilobytes = Int(first.last ?? "") ?? .max
        #expect(kilobytes < 100 * 1024, "peak RSS \(kilobytes) KB for a 100 MiB entry")
        #expect(run.stdout.contains("error: huge.png: 104857600 bytes: larger than the 16 MiB"), "\(run.stdout)")
        #expect(run.stdout.contains("not listed in manifest.json"), "\(run.stdout)")
    }

    @Test func cliDetails() async throws {
        let version = try await Subprocess.tessera(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: ".").count == 3, "\(version.stdout)")

        let help = try await Subprocess.tessera(["pass", "batch", "--help"])
        #expect(help.stdout.contains("Parallel jobs (default: the number of cores)."))
        #expect(!help.stdout.contains("(default: all cores). (default:"))

        let folder = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--output", work.path] + credentials)
        #expect(folder.status == 1)
        #expect(folder.stderr.contains("is a folder; give the path of the file to write"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("errno"))

        let missing = try await Subprocess.tessera(["pass", "verify", work.appendingPathComponent("nope.pkpass").path, "--json"])
        #expect(missing.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: Any]
        #expect(report?["wouldOpen"] as? Bool == false)

        let preview = try await Subprocess.tessera(["pass", "preview", "--template", eventTicket, "--lang", "de",
                                              "--output", work.appendingPathComponent("p.svg").path])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stderr.contains("--lang de: the pass has no de.lproj"), "\(preview.stderr)")

        let key = work.appendingPathComponent("enc.key").path
        #expect(try await Subprocess.run("openssl", ["genrsa", "-aes256", "-passout", "pass:right-one", "-out", key, "2048"]).status == 0)
        let wrong = try write("wrong.password", "not-it\n")
        let password = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--cert",
                                               certs.appendingPathComponent("pass.pem").path, "--key", key,
                                               "--key-password-file", wrong, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
                                               "--output", work.appendingPathComponent("k.pkpass").path])
        #expect(password.status == 1)
        #expect(password.stderr.contains("wrong password"))
        #expect(!password.stderr.contains("OpenSSL"), "\(password.stderr)")

        let svg = work.appendingPathComponent("code.svg").path
        let barcode = try await Subprocess.tessera(["barcode", "--format", "qr", "--message", "HELLO", "--alt-text", "Hello",
                                              "--output", svg])
        #expect(barcode.status == 0, "\(barcode.stderr)")
        let document = try String(contentsOfFile: svg, encoding: .utf8)
        let width = document.firstMatch(of: /width="(\d+)" height="(\d+)"/)
        #expect(width != nil)
        if let width { #expect(barcode.stdout.contains("\(width.1)x\(width.2) px SVG"), "\(barcode.stdout) vs \(width.0)") }

        let data = try write("dates.json", """
        {"relevantDates": [{"startDate": "2026-05-07T18:00-05:00", "endDate": "2026-05-07T23:00-05:00"}],
         "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
         "nfc": {"message": "TICKET-1", "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACp0l4qKJnWbUAkuUu8Qa8kHr8CBQMhNLe5lYX9PUVJfs=", "requiresAuthentication": true},
         "semantics": {"eventName": "The Midnight Echo", "venueName": "Tessera Arena",
                       "eventType": "PKEventTypeLivePerformance", "performerNames": ["The Midnight Echo"]}}
        """)
        let dated = work.appendingPathComponent("dated.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--data", data, "--output", dated] + credentials)
        #expect(create.status == 0, "\(create.stderr)")
        let inspect = try await Subprocess.tessera(["pass", "inspect", dated])
        #expect(inspect.stdout.contains("2026-05-07T18:00-05:00 to 2026-05-07T23:00-05:00"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("posterEventTicket, eventTicket"), "\(inspect.stdout)")
    }
}
