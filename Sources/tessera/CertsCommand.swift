import ArgumentParser
import Foundation
import PassCrypto

/// `tessera certs`: certificate tooling.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Development certificates, and the expiry of the signing identities a server uses.",
        subcommands: [DevCertsCommand.self, CertsStatusCommand.self]
    )
}

/// `tessera certs dev`: a development chain shaped like Apple's. Not for production.
struct DevCertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Create a development root, WWDR-like intermediate and Pass Type ID certificate, and optionally an Order Type ID certificate (NOT for production: Wallet will not trust them).",
        discussion: """
        Writes root.pem, wwdr.pem, pass.pem, pass.key, pass.p12 and pass.p12.password into --out; with --order-type-id \
        also order.pem, order.key and order.p12 (same password), issued by the same intermediate.
        The .p12 password is read from --p12-password-file or TESSERA_P12_PASSWORD; otherwise a random one is made and written to pass.p12.password.
        """
    )

    @Option(help: "Folder to write the certificates and keys into.")
    var out: String

    @Option(help: "Pass Type ID the certificate signs for.")
    var passTypeId = "pass.dev.tessera.demo"

    @Option(help: "Also issue an Order Type ID certificate for this identifier (order.com.example.shop).")
    var orderTypeId: String?

    @Option(help: "Team identifier (the certificate's OU).")
    var teamId = "TESSERA123"

    @Option(help: "Organization name in the certificate.")
    var organization = "Tessera Development"

    @Option(help: "File holding the password for pass.p12 (or set TESSERA_P12_PASSWORD).")
    var p12PasswordFile: String?

    @Flag(help: "Replace certificates and keys already in --out (without it, a folder holding any of them is refused).")
    var force = false

    func validate() throws {
        guard passTypeId.hasPrefix("pass."), passTypeId.count > 5 else {
            throw ValidationError("--pass-type-id must look like pass.com.example.name")
        }
        if let orderTypeId, !orderTypeId.hasPrefix("order.") || orderTypeId.count <= 6 {
            throw ValidationError("--order-type-id must look like order.com.example.name")
        }
        guard !teamId.isEmpty, teamId.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw ValidationError("--team-id must be letters and digits, like ABCDE12345")
        }
    }

    func run() throws {
        let directory = URL(fileURLWithPath: out)
        // The folder, or the first part of its path that exists, must be a folder (not a file in the way).
        var existing = directory
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: existing.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw CommandFailure(message: "--out \(out): \(existing.path) is a file, not a folder", exitCode: 1)
        }
        // A key replaced is gone: pointed by mistake at a folder of real credentials, this would destroy them.
        // An earlier run's order files are listed too: with --force and without --order-type-id they are removed (a
        // new chain leaves them signed by a root that is gone, and their .p12 under a password that is replaced).
        let names = ["root.pem", "wwdr.pem", "pass.pem", "pass.key", "pass.p12", "pass.p12.password", "order.pem", "order.key",
                     "order.p12"]
        let present = names.filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        if !present.isEmpty, !force {
            throw CommandFailure(
                message: "--out \(directory.path) already holds \(present.joined(separator: ", ")): give another folder, "
                    + "or --force to replace them", exitCode: 1)
        }
        var password = try Secret.read(file: p12PasswordFile, environment: "TESSERA_P12_PASSWORD", flag: "--p12-password-file")
        if password?.isEmpty == true {
            throw CommandFailure(
                message: "\(p12PasswordFile.map { "--p12-password-file \($0)" } ?? "TESSERA_P12_PASSWORD"): the password is "
                    + "empty; give one, or neither for a generated one", exitCode: 1)
        }
        var passwordWasGenerated = false
        if password == nil {
            var bytes = [UInt8](repeating: 0, count: 18)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
            password = Data(bytes).base64EncodedString().replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
            passwordWasGenerated = true
        }
        do {
            let chain = try DevelopmentChain.generate(passTypeIdentifier: passTypeId, teamIdentifier: teamId, organization: organization)
            try chain.write(to: directory, p12Password: password!)
            if let orderTypeId {
                let order = try chain.orderTypeCertificate(orderTypeIdentifier: orderTypeId, teamIdentifier: teamId,
                                                           organization: organization)
                try chain.writeSigningFiles(named: "order", certificate: order.certificate, key: order.key, to: directory,
                                            p12Password: password!)
            }
            if orderTypeId == nil {
                for name in ["order.pem", "order.key", "order.p12"] {
                    let stale = directory.appendingPathComponent(name)
                    if FileManager.default.fileExists(atPath: stale.path) { try FileManager.default.removeItem(at: stale) }
                }
            }
            let passwordFile = directory.appendingPathComponent("pass.p12.password")
            // The file the password was read from, when that is this one: it opens the new pass.p12, and is the user's.
            let passwordIsFromIt = p12PasswordFile.map {
                URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path
                    == passwordFile.resolvingSymlinksInPath().standardizedFileURL.path
            } ?? false
            if passwordWasGenerated {
                // Mode 0600 from the moment it exists, like the keys (an earlier run's file is replaced: --force).
                if FileManager.default.fileExists(atPath: passwordFile.path) { try FileManager.default.removeItem(at: passwordFile) }
                try SecretFile(creating: passwordFile.path, flag: "--out").write(password!)
            } else if !passwordIsFromIt, FileManager.default.fileExists(atPath: passwordFile.path) {
                // An earlier run's generated password no longer opens the new pass.p12 (--force replaced it).
                try FileManager.default.removeItem(at: passwordFile)
            }
            print("Development certificates (NOT FOR PRODUCTION: Wallet does not trust them) written to \(directory.path):")
            print("  root.pem  wwdr.pem  pass.pem  pass.key  pass.p12" + (orderTypeId == nil ? "" : "  order.pem  order.key  order.p12")
                + (passwordWasGenerated ? "  pass.p12.password" : ""))
            print("  Pass Type ID: \(passTypeId)   Team: \(teamId)   expires \(ISO8601DateFormatter().string(from: chain.pass.notAfter ?? Date()))")
            if let orderTypeId { print("  Order Type ID: \(orderTypeId)   Team: \(teamId)") }
        } catch let error as CryptoError {
            throw CommandFailure(message: error.description)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure(message: "\(directory.path): \(error.localizedDescription)")
        }
    }
}
