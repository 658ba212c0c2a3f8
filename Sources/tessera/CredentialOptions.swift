import ArgumentParser
import Foundation
import PassBundle

/// The signing credentials every pass-making command takes.
struct CredentialOptions: ParsableArguments {
    @Option(help: "Pass Type ID certificate (PEM or DER).")
    var cert: String?

    @Option(help: "Private key for --cert (PEM or DER: PKCS#1, PKCS#8 or SEC1; may be encrypted).")
    var key: String?

    @Option(help: "File holding the password of an encrypted --key (or set TESSERA_KEY_PASSWORD).")
    var keyPasswordFile: String?

    @Option(help: "PKCS#12 (.p12) holding the certificate and key, instead of --cert/--key.")
    var p12: String?

    @Option(help: "File holding the --p12 password (or set TESSERA_P12_PASSWORD).")
    var p12PasswordFile: String?

    @Option(help: "Apple WWDR intermediate certificate (PEM or DER) that issued the Pass Type ID certificate.")
    var wwdr: String?

    func validate() throws {
        if p12 != nil && (cert != nil || key != nil) {
            throw ValidationError("give either --p12 or --cert with --key, not both")
        }
        if p12 == nil && (cert == nil || key == nil) {
            throw ValidationError("signing needs --cert and --key, or --p12")
        }
        if p12 == nil && wwdr == nil {
            throw ValidationError("--wwdr is required: the Apple WWDR intermediate that issued the certificate")
        }
    }

    /// Loads and checks the credentials; passwords come from files or the environment, never the command line.
    func load() throws -> PassCredentials {
        do {
            if let p12 {
                let password = try Secret.read(file: p12PasswordFile, environment: "TESSERA_P12_PASSWORD") ?? ""
                return try PassCredentials.load(p12Path: p12, password: password, wwdrPath: wwdr)
            }
            let password = try Secret.read(file: keyPasswordFile, environment: "TESSERA_KEY_PASSWORD")
            return try PassCredentials.load(certificatePath: cert!, keyPath: key!, keyPassword: password, wwdrPath: wwdr!)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        }
    }
}

/// Reads secrets from files or environment variables.
enum Secret {
    /// The file's contents without the trailing newline, else the variable, else `nil`.
    static func read(file: String?, environment name: String) throws -> String? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(message: "\(file): password file not found or unreadable")
            }
            var text = String(decoding: data, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            return text
        }
        return ProcessInfo.processInfo.environment[name]
    }
}
