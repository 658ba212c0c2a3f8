import Foundation
import Testing
import TesseraTestSupport

/// Keys that never leave a PKCS#11 module: a development key imported into a SoftHSM token made at test time, used by
/// `tessera pass create`, `tessera serve --key pkcs11:…` and an identities file entry; signatures checked with
/// `openssl cms -verify` and `tessera pass verify`.
@Suite("PKCS#11 keys (SoftHSM)")
struct PKCS11Tests {
    /// A token holding the development chain's pass key, and the chain.
    private static func prepared() async throws -> (token: SoftHSMToken, uri: String, certs: URL, module: String) {
        if let missing = SoftHSMToken.missing { throw SubprocessError("PKCS#11 tests need \(missing)") }
        let module = try #require(SoftHSMToken.modulePath)
        let (_, certs) = try await Subprocess.folderWithDevelopmentCertificates(prefix: "pkcs11")
        let token = try await SoftHSMToken()
        let uri = try await token.importKey(pemPath: certs.appendingPathComponent("pass.key").path, object: "pass-key", id: "01")
        return (token, uri, certs, module)
    }

    @Test("pass create signs through the module: openssl cms -verify and pass verify accept it; mistakes name the URI, never the PIN")
    func passCreate() async throws {
        let (token, uri, certs, module) = try await Self.prepared()
        let output = certs.appendingPathComponent("hsm.pkpass").path
        let base = [
            "pass", "create", "--template", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket").path,
            "--cert", certs.appendingPathComponent("pass.pem").path, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
            "--pkcs11-module", module,
        ]
        let made = try await Subprocess.tessera(
            base + ["--key", uri, "--pkcs11-pin-file", token.pinFile, "--output", output], environment: token.environment)
        #expect(made.status == 0, "\(made.stderr)")
        let verified = try await Subprocess.tessera(["pass", "verify", output, "--root", certs.appendingPathComponent("root.pem").path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        // openssl's own check of the detached signature over manifest.json, up to the development root.
        let unpacked = certs.appendingPathComponent("unpacked")
        let unzip = try await Subprocess.run("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", output, unpacked.path])
        #expect(unzip.status == 0, "\(unzip.stderr)")
        let chain = certs.appendingPathComponent("chain.pem")
        try (Data(contentsOf: certs.appendingPathComponent("root.pem")) + Data(contentsOf: certs.appendingPathComponent("wwdr.pem"))).write(to: chain)
        let cms = try await Subprocess.opensslVerifyDetached(
            signature: unpacked.appendingPathComponent("signature"), content: unpacked.appendingPathComponent("manifest.json"),
            caFile: chain.path)
        #expect(cms.status == 0 && cms.stderr.contains("Verification successful"), "\(cms.stderr)")

        let wrongPin = certs.appendingPathComponent("wrong.pin")
        try Data("000000\n".utf8).write(to: wrongPin)
        let refused = try await Subprocess.tessera(
            base + ["--key", uri, "--pkcs11-pin-file", wrongPin.path, "--output", output + ".2"], environment: token.environment)
        #expect(refused.status == 1 && refused.stderr.contains("\(uri): the module refused the PIN"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("000000") && !refused.stderr.contains(token.pin))

        let missingObject = try await Subprocess.tessera(
            base + ["--key", "pkcs11:token=\(token.label);object=nothing", "--pkcs11-pin-file", token.pinFile, "--output", output + ".3"],
            environment: token.environment)
        #expect(missingObject.status == 1 && missingObject.stderr.contains("pkcs11:token=\(token.label);object=nothing: no private key matches it"),
                "\(missingObject.stderr)")
        let missingToken = try await Subprocess.tessera(
            base + ["--key", "pkcs11:token=absent;object=pass-key", "--pkcs11-pin-file", token.pinFile, "--output", output + ".4"],
            environment: token.environment)
        #expect(missingToken.status == 1 && missingToken.stderr.contains("pkcs11:token=absent;object=pass-key"), "\(missingToken.stderr)")
        // One line each, the command's: the engine's own lines ("No matching initialized token ...") are not printed.
        for refusal in [refused, missingObject, missingToken] {
            #expect(refusal.stderr.split(separator: "\n").count == 1 && refusal.stderr.hasPrefix("error: "), "\(refusal.stderr)")
        }
        // Whatever separates it (modules take a PIN after ; ? or &), a PIN in the URI is refused and never repeated.
        for carrying in ["\(uri)?pin-value=\(token.pin)", "\(uri)&pin-value=\(token.pin)", "\(uri);PIN-VALUE=\(token.pin)",
                         "\(uri);pin%2Dvalue=\(token.pin)"] {
            let pinInURI = try await Subprocess.tessera(
                base + ["--key", carrying, "--output", output + ".5"], environment: token.environment)
            #expect(pinInURI.status == 1 && pinInURI.stderr.contains("carries a PIN") && !pinInURI.stderr.contains(token.pin),
                    "\(pinInURI.stderr)")
        }
        // No PIN at all: the hint names the PIN's flag, not a key password.
        let noPin = try await Subprocess.tessera(base + ["--key", uri, "--output", output + ".6"], environment: token.environment)
        #expect(noPin.status == 1 && !noPin.stderr.contains("--key-password-file"), "\(noPin.stderr)")
        #expect(noPin.stderr.contains("--pkcs11-pin-file") || noPin.stderr.contains("PIN"), "\(noPin.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output + ".2") && !FileManager.default.fileExists(atPath: output + ".5"))
    }

    @Test("tessera serve signs with a key in the module: concurrent creates and fetches all verify; also as an identities entry")
    func serve() async throws {
        let (token, uri, certs, module) = try await Self.prepared()
        let arguments = [
            "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--cert", certs.appendingPathComponent("pass.pem").path, "--key", uri,
            "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
            "--pkcs11-module", module, "--pkcs11-pin-file", token.pinFile,
        ]
        let serve = try await ServeProcess(arguments: arguments, environment: token.environment, singleIdentity: false)
        let server = IdentitiesServer(work: certs, apns: nil, serve: serve)
        try await Self.createAndVerify(server, count: 12, type: "pass.dev.tessera.demo", root: "root.pem")
        _ = try await serve.terminate()

        // The same key named by an identities entry.
        let templates = certs.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket"),
            to: templates.appendingPathComponent("event-ticket"))
        let file = certs.appendingPathComponent("identities.json")
        try Data(#"{"identities": [{"identifier": "pass.dev.tessera.demo", "cert": "pass.pem", "key": "\#(uri)", "wwdr": "wwdr.pem", "templates": "templates"}]}"#.utf8)
            .write(to: file)
        let fromFile = try await ServeProcess(
            arguments: ["--identities", file.path, "--pkcs11-module", module, "--pkcs11-pin-file", token.pinFile],
            environment: token.environment, singleIdentity: false)
        try await Self.createAndVerify(IdentitiesServer(work: certs, apns: nil, serve: fromFile), count: 4,
                                       type: "pass.dev.tessera.demo", root: "root.pem")
        _ = try await fromFile.terminate()

        // A PIN the module refuses: start-up names the entry's key, not its certificate.
        let wrongPin = certs.appendingPathComponent("wrong-serve.pin")
        try Data("000000\n".utf8).write(to: wrongPin)
        let refused = try await Subprocess.run("timeout", [
            "60", Subprocess.tesseraPath, "serve", "--port", "\(ServeProcess.unusedPort())",
            "--database", "sqlite:\(certs.path)/refused.sqlite", "--identities", file.path,
            "--pkcs11-module", module, "--pkcs11-pin-file", wrongPin.path,
        ], environment: token.environment)
        #expect(refused.status != 0 && refused.status != 124, "\(refused.stderr)")
        #expect(refused.stderr.contains("identities[0].key") && !refused.stderr.contains("identities[0].cert"),
                "\(refused.stderr)")

        // A certificate that is not there is the entry's cert, not its key; a key password beside a PKCS#11 key is
        // refused (the token's PIN is the module's), not ignored.
        for (edit, field) in [(#""cert": "pass.pem""#, #""cert": "gone.pem""#), (#""wwdr": "wwdr.pem""#, #""wwdr": "wwdr.pem", "keyPasswordFile": "wrong-serve.pin""#)] {
            let edited = certs.appendingPathComponent("edited.json")
            try Data(try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: edit, with: field).utf8).write(to: edited)
            let status = try await Subprocess.run(Subprocess.tesseraPath, [
                "certs", "status", "--identities", edited.path, "--pkcs11-module", module, "--pkcs11-pin-file", token.pinFile,
            ], environment: token.environment)
            let expected = field.contains("gone") ? "identities[0].cert: " : "identities[0].keyPasswordFile: "
            #expect(status.status == 1 && (status.stdout + status.stderr).contains(expected), "\(status.stdout)\(status.stderr)")
        }
    }

    /// Creates `count` event tickets at once, fetches each over the device protocol and verifies it.
    private static func createAndVerify(_ server: IdentitiesServer, count: Int, type: String, root: String) async throws {
        let tokens = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<count {
                group.addTask {
                    let serial = "HSM-\(index)-\(UUID().uuidString.prefix(4))"
                    return (serial, try await server.createPass(template: "event-ticket", serial: serial))
                }
            }
            return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(tokens.count == count)
        for (serial, token) in tokens {
            let verified = try await server.fetchAndVerify(type: type, serial: serial, token: token, root: root)
            #expect(verified.status == 0, "\(serial): \(verified.report)")
        }
    }
}
