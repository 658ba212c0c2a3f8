import Foundation
import Testing
import TesseraTestSupport

/// The `tessera` CLI run as a subprocess, as users and scripts run it.
@Suite("tessera CLI")
struct CLITests {
    let work: URL
    let certs: URL

    init() async throws {
        (work, certs) = try await Subprocess.folderWithDevelopmentCertificates(prefix: "cli")
    }

    var templates: URL { Subprocess.repositoryRoot.appendingPathComponent("PassTemplates") }
    var credentials: [String] {
        ["--p12", certs.appendingPathComponent("pass.p12").path,
         "--p12-password-file", certs.appendingPathComponent("pass.p12.password").path,
         "--wwdr", certs.appendingPathComponent("wwdr.pem").path]
    }

    @Test func certsDevWritesTheChainAndLabelsIt() async throws {
        for name in ["root.pem", "wwdr.pem", "pass.pem", "pass.key", "pass.p12", "pass.p12.password"] {
            #expect(FileManager.default.fileExists(atPath: certs.appendingPathComponent(name).path), "\(name)")
        }
        let subject = try await Subprocess.run("openssl", ["x509", "-in", certs.appendingPathComponent("pass.pem").path,
                                                     "-noout", "-subject", "-ext", "extendedKeyUsage", "-nameopt", "RFC2253"])
        #expect(subject.stdout.contains("UID=pass.dev.tessera.demo"))
        #expect(subject.stdout.contains("CN=Pass Type ID: pass.dev.tessera.demo"))
        #expect(subject.stdout.contains("OU=TESSERA123"))
        let text = try await Subprocess.run("openssl", ["x509", "-in", certs.appendingPathComponent("pass.pem").path, "-noout", "-text"])
        #expect(text.stdout.contains("1.2.840.113635.100.6.1.16"))
        let keyMode = try FileManager.default.attributesOfItem(atPath: certs.appendingPathComponent("pass.key").path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        let passwordMode = try FileManager.default.attributesOfItem(atPath: certs.appendingPathComponent("pass.p12.password").path)[.posixPermissions] as? Int
        #expect(passwordMode == 0o600)
        let again = try await Subprocess.tessera(["certs", "dev", "--out", work.appendingPathComponent("c2").path])
        #expect(again.stdout.contains("NOT FOR PRODUCTION"))

        // A folder that holds keys already is refused, and its key left as it was; --force replaces them.
        let key = try Data(contentsOf: certs.appendingPathComponent("pass.key"))
        let refused = try await Subprocess.tessera(["certs", "dev", "--out", certs.path])
        #expect(refused.status == 1 && refused.stderr.contains("already holds") && refused.stderr.contains("pass.key"), "\(refused.stderr)")
        #expect(try Data(contentsOf: certs.appendingPathComponent("pass.key")) == key)
        let forced = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: certs.appendingPathComponent("pass.key")) != key)

        // Replaced with a password of the user's own: the earlier generated password file, which no longer opens
        // the new pass.p12, is not left behind.
        let own = work.appendingPathComponent("c3")
        #expect(try await Subprocess.tessera(["certs", "dev", "--out", own.path]).status == 0)
        let chosen = try await Subprocess.tessera(["certs", "dev", "--out", own.path, "--force"],
                                                  environment: ["TESSERA_P12_PASSWORD": "chosen-password"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(!FileManager.default.fileExists(atPath: own.appendingPathComponent("pass.p12.password").path))
        let signed = try await Subprocess.tessera(
            ["pass", "create", "--template", templates.appendingPathComponent("coupon").path, "--p12", own.appendingPathComponent("pass.p12").path,
             "--output", work.appendingPathComponent("chosen.pkpass").path], environment: ["TESSERA_P12_PASSWORD": "chosen-password"])
        #expect(signed.status == 0, "\(signed.stderr)")
        // Replaced with the password read from the folder's own password file: that file stays (it opens the new
        // pass.p12); an earlier run's order files, which a new root no longer signs, do not.
        let kept = work.appendingPathComponent("c5")
        #expect(try await Subprocess.tessera(["certs", "dev", "--out", kept.path, "--order-type-id", "order.dev.tessera.shop"]).status == 0)
        let keptPassword = kept.appendingPathComponent("pass.p12.password")
        let renewed = try await Subprocess.tessera(["certs", "dev", "--out", kept.path, "--force", "--p12-password-file", keptPassword.path])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(FileManager.default.fileExists(atPath: keptPassword.path), "the password file the password came from is kept")
        for name in ["order.pem", "order.key", "order.p12"] {
            #expect(!FileManager.default.fileExists(atPath: kept.appendingPathComponent(name).path), "\(name) left behind")
        }
        let opened = try await Subprocess.tessera(
            ["pass", "create", "--template", templates.appendingPathComponent("coupon").path, "--p12", kept.appendingPathComponent("pass.p12").path,
             "--p12-password-file", keptPassword.path, "--output", work.appendingPathComponent("kept.pkpass").path])
        #expect(opened.status == 0, "\(opened.stderr)")
        // An empty password, and a file where the folder should be, are refused by name.
        let empty = work.appendingPathComponent("empty.password")
        try Data().write(to: empty)
        let emptyRefused = try await Subprocess.tessera(["certs", "dev", "--out", work.appendingPathComponent("c4").path,
                                                         "--p12-password-file", empty.path])
        #expect(emptyRefused.status == 1 && emptyRefused.stderr.contains("the password is empty"), "\(emptyRefused.stderr)")
        let fileInTheWay = try await Subprocess.tessera(["certs", "dev", "--out", empty.appendingPathComponent("sub").path])
        #expect(fileInTheWay.status == 1 && fileInTheWay.stderr.contains("\(empty.path) is a file, not a folder"), "\(fileInTheWay.stderr)")
    }

    @Test("inspect --json of a bundle whose pass.json or order.json is missing or not JSON exits 1 saying so, as without --json")
    func inspectJSONOfABrokenBundleFails() async throws {
        let broken = work.appendingPathComponent("broken.pkpass").path
        let empty = work.appendingPathComponent("empty.order").path
        let made = try await Subprocess.run("python3", ["-c", """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], "w") as z: z.writestr("pass.json", "{")
            with zipfile.ZipFile(sys.argv[2], "w") as z: z.writestr("logo.png", "x")
            """, broken, empty])
        #expect(made.status == 0, "\(made.stderr)")
        for (command, file, reason) in [("pass", broken, "pass.json could not be read: line 1, column 2"),
                                        ("order", empty, "no order.json at the archive root")] {
            for json in [false, true] {
                let result = try await Subprocess.tessera([command, "inspect", file] + (json ? ["--json"] : []))
                #expect(result.status == 1 && result.stderr.contains("\(file): \(reason)"), "\(command) json=\(json): \(result.stderr)")
                if json { #expect(result.stdout.contains("\"files\""), "\(result.stdout)") }
            }
        }
    }

    @Test("an --output that is a folder, in a missing folder or under a file is refused by name before anything is drawn")
    func outputPathsAreCheckedByName() async throws {
        let folder = work.appendingPathComponent("out-folder.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = work.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let commands: [(String, [String], String)] = [
            ("barcode", ["barcode", "--format", "qr", "--message", "HI"], "barcode.png"),
            ("preview", ["pass", "preview", "--template", templates.appendingPathComponent("coupon").path], "preview.png"),
        ]
        for (name, arguments, example) in commands {
            let cases = [(folder.path, "is a folder; give the path of the file to write, such as \(folder.path)/\(example)"),
                         (work.appendingPathComponent("no-such/x.png").path, "the folder \(work.path)/no-such does not exist"),
                         (file.appendingPathComponent("x.png").path, "\(file.path) is a file, not a folder")]
            for (output, reason) in cases {
                let result = try await Subprocess.tessera(arguments + ["--output", output])
                #expect(result.status == 1 && result.stderr.contains(reason), "\(name) \(output): \(result.stderr)")
                #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("could not be completed"))
            }
        }
    }

    @Test("a pass given to order verify (and an order to pass verify) is named as the other kind, in one error")
    func verifyOfTheOtherKind() async throws {
        let pass = work.appendingPathComponent("kind.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("coupon").path,
                                                   "--output", pass] + credentials)
        #expect(create.status == 0, "\(create.stderr)")
        let asOrder = try await Subprocess.tessera(["order", "verify", pass])
        #expect(asOrder.status == 1)
        let said = asOrder.stdout + asOrder.stderr
        #expect(said.contains("this is a Wallet pass (it holds pass.json, no order.json), not an order: check it with tessera pass verify"),
                "\(said)")
        #expect(!said.contains("changed after signing"), "\(said)")
    }

    @Test("a folder given where a file is read is called a folder, not a file not found")
    func aFolderForAFileIsNamed() async throws {
        let folder = work.appendingPathComponent("a-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for arguments in [["pass", "verify", folder.path], ["pass", "inspect", folder.path], ["pay", "validate", folder.path]] {
            let result = try await Subprocess.tessera(arguments)
            #expect(result.status == 1 && (result.stdout + result.stderr).contains("\(folder.path): is a folder, not a file"),
                    "\(arguments): \(result.stdout)\(result.stderr)")
        }
        let data = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("coupon").path,
                                                 "--data", folder.path, "--output", work.appendingPathComponent("f.pkpass").path] + credentials)
        #expect(data.status == 1 && data.stderr.contains("\(folder.path): is a folder, not a data file"), "\(data.stderr)")
        // The signing files: a folder where the .p12, the WWDR certificate or a PEM key and certificate go.
        let coupon = ["pass", "create", "--template", templates.appendingPathComponent("coupon").path,
                      "--output", work.appendingPathComponent("g.pkpass").path]
        let p12 = certs.appendingPathComponent("pass.p12").path, password = certs.appendingPathComponent("pass.p12.password").path
        let wwdr = certs.appendingPathComponent("wwdr.pem").path
        for signing in [["--p12", folder.path, "--p12-password-file", password, "--wwdr", wwdr],
                        ["--p12", p12, "--p12-password-file", password, "--wwdr", folder.path],
                        ["--cert", folder.path, "--key", certs.appendingPathComponent("pass.key").path, "--wwdr", wwdr],
                        ["--cert", certs.appendingPathComponent("pass.pem").path, "--key", folder.path, "--wwdr", wwdr]] {
            let result = try await Subprocess.tessera(coupon + signing)
            #expect(result.status != 0 && result.stderr.contains("\(folder.path): is a folder, not a file"),
                    "\(signing): \(result.stderr)")
            #expect(!result.stderr.contains("not found or unreadable"), "\(signing): \(result.stderr)")
        }
    }

    @Test func createVerifyInspectRoundTrip() async throws {
        let output = work.appendingPathComponent("ticket.pkpass").path
        let data = try writeJSON("data.json", #"{"serialNumber": "CLI-1", "barcodeMessage": "CLI-1-QR", "fields": {}}"#)
        let create = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("event-ticket").path,
                                             "--data", data, "--output", output] + credentials)
        #expect(create.status == 0, "\(create.stderr)")

        let verify = try await Subprocess.tessera(["pass", "verify", output, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
                                             "--root", certs.appendingPathComponent("root.pem").path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("would open"))

        let inspect = try await Subprocess.tessera(["pass", "inspect", output, "--json"])
        #expect(inspect.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        let pass = object?["pass"] as? [String: Any]
        #expect(pass?["serialNumber"] as? String == "CLI-1")
        #expect((object?["files"] as? [[String: Any]])?.contains { $0["path"] as? String == "signature" } == true)

        let text = try await Subprocess.tessera(["pass", "inspect", output])
        #expect(text.stdout.contains("CLI-1"))
        #expect(text.stdout.contains("eventTicket"))
    }

    @Test("every shipped template has an example data document in docs/examples, and it makes a pass that verifies")
    func everyTemplateHasItsExample() async throws {
        let examples = Subprocess.repositoryRoot.appendingPathComponent("docs/examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter {
            FileManager.default.fileExists(atPath: templates.appendingPathComponent($0).appendingPathComponent("pass.json").path)
        }.sorted()
        #expect(names.count >= 9, "\(names)")
        for name in names {
            let data = examples.appendingPathComponent("\(name).data.json")
            try #require(FileManager.default.fileExists(atPath: data.path), "docs/examples/\(name).data.json is missing")
            let serial = try #require(
                (try JSONSerialization.jsonObject(with: Data(contentsOf: data)) as? [String: Any])?["serialNumber"] as? String)
            #expect(!serial.hasPrefix("TEMPLATE-"), "\(name): the example names the template's placeholder serial")
            let output = work.appendingPathComponent("\(name).pkpass").path
            let create = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent(name).path,
                                                       "--data", data.path, "--output", output] + credentials)
            #expect(create.status == 0, "\(name): \(create.stderr)")
            let verify = try await Subprocess.tessera(["pass", "verify", output, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
                                                       "--root", certs.appendingPathComponent("root.pem").path])
            #expect(verify.status == 0, "\(name): \(verify.stdout)\(verify.stderr)")
            let inspect = try await Subprocess.tessera(["pass", "inspect", output, "--json"])
            let pass = (try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])?["pass"] as? [String: Any]
            #expect(pass?["serialNumber"] as? String == serial, "\(name)")
        }
        // The repository's own consistency check of templates and examples (fields, strings, images) agrees.
        let check = try await Subprocess.run("python3", [Subprocess.repositoryRoot.appendingPathComponent("scripts/check-templates.py").path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("the README's first example prints what the README shows")
    func readmeExample() async throws {
        let readme = try String(contentsOf: Subprocess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = try #require(readme.split(separator: "\n").first { $0.hasPrefix("ticket.pkpass: signed pass ") })
        let root = Subprocess.repositoryRoot
        let folder = try TemporaryDirectory.make(prefix: "readme")
        let made = try await Subprocess.tessera(["certs", "dev", "--out", "dev-certs"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let create = try await Subprocess.tessera(
            ["pass", "create", "--template", root.appendingPathComponent("PassTemplates/event-ticket").path,
             "--data", root.appendingPathComponent("docs/examples/event-ticket.data.json").path,
             "--p12", "dev-certs/pass.p12", "--p12-password-file", "dev-certs/pass.p12.password", "--wwdr", "dev-certs/wwdr.pem",
             "--output", "ticket.pkpass"], in: folder)
        #expect(create.status == 0, "\(create.stderr)")
        #expect(create.stdout.trimmingCharacters(in: .newlines) == String(shown))
    }

    @Test func verifyFailsWithExitOneOnAnotherRoot() async throws {
        let output = work.appendingPathComponent("coupon.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("coupon").path,
                                             "--output", output] + credentials)
        #expect(create.status == 0, "\(create.stderr)")
        let other = work.appendingPathComponent("other")
        _ = try await Subprocess.tessera(["certs", "dev", "--out", other.path])
        let verify = try await Subprocess.tessera(["pass", "verify", output, "--root", other.appendingPathComponent("root.pem").path, "--json"])
        #expect(verify.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(report?["wouldOpen"] as? Bool == false)
    }

    @Test func badInputNamesTheProblemAndWritesNothing() async throws {
        let output = work.appendingPathComponent("bad.pkpass")
        let data = try writeJSON("bad.json", #"{"fields": {"no-such-field": "x"}}"#)
        let result = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("event-ticket").path,
                                             "--data", data, "--output", output.path] + credentials)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no-such-field"))
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let wrongPassword = try writeJSON("wrong.txt", "not-the-password")
        let denied = try await Subprocess.tessera(["pass", "create", "--template", templates.appendingPathComponent("coupon").path,
                                             "--p12", certs.appendingPathComponent("pass.p12").path, "--p12-password-file", wrongPassword,
                                             "--output", output.path])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("wrong password"))

        let missingTemplate = try await Subprocess.tessera(["pass", "create", "--template", work.appendingPathComponent("nope").path,
                                                      "--output", output.path] + credentials)
        #expect(missingTemplate.status == 1)
        #expect(missingTemplate.stderr.contains("nope"))
    }

    @Test func usageErrorsExitTwo() async throws {
        let result = try await Subprocess.tessera(["pass", "create", "--template", "x"])
        #expect(result.status == 2, "\(result.stderr)")
        // Written as every error is (docs/cli.md: `error: <reason>`), naming what is missing.
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
        let missing = try await Subprocess.tessera(["pass", "create"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: Missing expected argument '--template"), "\(missing.stderr)")
        let unknown = try await Subprocess.tessera(["pass", "frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("error: "), "\(unknown.stderr)")
        let help = try await Subprocess.tessera(["pass", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("batch"))
    }

    @Test func batchSignsGoodRowsAndReportsBadOnesByLine() async throws {
        let rows = try writeJSON("rows.csv", """
        serialNumber,barcodeMessage,fields.seat
        B-1,QR-1,12A
        B-2,QR-2,12B
        B-3,QR-3,
        """)
        let outDir = work.appendingPathComponent("batch")
        let good = try await Subprocess.tessera(["pass", "batch", "--template", templates.appendingPathComponent("event-ticket").path,
                                           "--rows", rows, "--out-dir", outDir.path, "--jobs", "2"] + credentials)
        // The event-ticket template has a "seat" field; if it ever changes this test must be updated with it.
        #expect(good.status == 0, "\(good.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted()
        #expect(written == ["B-1.pkpass", "B-2.pkpass", "B-3.pkpass"])

        let jsonl = try writeJSON("rows.jsonl", """
        {"serialNumber": "J-1"}
        {"serialNumber": "J-2", "fields": {"bogus": "1"}}
        not json
        {"serialNumber": "J-1"}
        """)
        let mixed = try await Subprocess.tessera(["pass", "batch", "--template", templates.appendingPathComponent("event-ticket").path,
                                            "--rows", jsonl, "--out-dir", outDir.path] + credentials)
        #expect(mixed.status == 1)
        #expect(mixed.stdout.contains("1 of 4 passes written"))
        #expect(mixed.stderr.contains("line 2"))
        #expect(mixed.stderr.contains("bogus"))
        #expect(mixed.stderr.contains("line 3"))
        #expect(mixed.stderr.contains("line 4"))
        #expect(FileManager.default.fileExists(atPath: outDir.appendingPathComponent("J-1.pkpass").path))
    }

    private func writeJSON(_ name: String, _ text: String) throws -> String {
        let url = work.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
