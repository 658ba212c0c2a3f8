import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import Validation

/// The signing credentials every pass-making command takes.
struct CredentialOptions: ParsableArguments {
    @Option(help: "The signing certificate, PEM or DER: a Pass Type ID certificate (an Order Type ID certificate for order create).")
    var cert: String?

    @Option(help: "Private key for --cert (PEM or DER: PKCS#1, PKCS#8 or SEC1; may be encrypted), or a PKCS#11 URI (pkcs11:token=…;object=…) with --pkcs11-module.")
    var key: String?

    @Option(help: "File holding the password of an encrypted --key (TESSERA_KEY_PASSWORD_FILE, or set TESSERA_KEY_PASSWORD).")
    var keyPasswordFile: String?

    @Option(help: "PKCS#12 (.p12) holding the certificate and key, instead of --cert/--key.")
    var p12: String?

    @Option(help: "File holding the --p12 password (TESSERA_P12_PASSWORD_FILE, or set TESSERA_P12_PASSWORD).")
    var p12PasswordFile: String?

    @Option(help: "Apple WWDR intermediate certificate (PEM or DER) that issued --cert (or the .p12's certificate).")
    var wwdr: String?

    @OptionGroup var pkcs11: PKCS11Options

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
        // The password files may come from the environment, as for `tessera serve`.
        let environment = ProcessInfo.processInfo.environment
        return try Self.load(
            cert: cert, key: key, keyPasswordFile: keyPasswordFile ?? environment["TESSERA_KEY_PASSWORD_FILE"], p12: p12,
            p12PasswordFile: p12PasswordFile ?? environment["TESSERA_P12_PASSWORD_FILE"], wwdr: wwdr, pkcs11: pkcs11.module())
    }

    /// Loads credentials from paths already checked for completeness.
    static func load(
        cert: String?, key: String?, keyPasswordFile: String?, p12: String?, p12PasswordFile: String?, wwdr: String?,
        pkcs11: PKCS11Module? = nil
    ) throws -> PassCredentials {
        do {
            if let p12 {
                let password = try Secret.read(file: p12PasswordFile, environment: "TESSERA_P12_PASSWORD", flag: "--p12-password-file") ?? ""
                return try PassCredentials.load(p12Path: p12, password: password, wwdrPath: wwdr)
            }
            guard let cert, let key, let wwdr else {
                throw CommandFailure(message: "signing needs --cert, --key and --wwdr, or --p12", exitCode: 2)
            }
            if PrivateKey.isPKCS11URI(key), pkcs11 == nil {
                throw CommandFailure(
                    message: "--key \(PrivateKey.pkcs11Description(key)): a PKCS#11 URI needs --pkcs11-module (or TESSERA_PKCS11_MODULE)",
                    exitCode: 2)
            }
            let password = try Secret.read(file: keyPasswordFile, environment: "TESSERA_KEY_PASSWORD", flag: "--key-password-file")
            return try PassCredentials.load(
                certificatePath: cert, keyPath: key, keyPassword: password, wwdrPath: wwdr, pkcs11: pkcs11)
        } catch let error as PassBundleError {
            throw CommandFailure(message: FlagHints.message(
                for: error, p12: p12 != nil, pkcs11: key.map(PrivateKey.isPKCS11URI) ?? false))
        }
    }
}

/// The signing credentials of `tessera serve`: the same flags, each with an environment variable
/// (TESSERA_CERT, TESSERA_KEY, TESSERA_KEY_PASSWORD_FILE, TESSERA_P12, TESSERA_P12_PASSWORD_FILE, TESSERA_WWDR).
struct ServerCredentialOptions: ParsableArguments {
    @Option(help: "Pass Type ID certificate (PEM or DER) (TESSERA_CERT).")
    var cert: String?

    @Option(help: "Private key for --cert (TESSERA_KEY); its password from --key-password-file or TESSERA_KEY_PASSWORD.")
    var key: String?

    @Option(help: "File holding the --key password (TESSERA_KEY_PASSWORD_FILE).")
    var keyPasswordFile: String?

    @Option(help: "PKCS#12 holding certificate and key, instead of --cert/--key (TESSERA_P12).")
    var p12: String?

    @Option(help: "File holding the --p12 password (TESSERA_P12_PASSWORD_FILE or TESSERA_P12_PASSWORD).")
    var p12PasswordFile: String?

    @Option(help: "Apple WWDR intermediate that issued the certificate (TESSERA_WWDR).")
    var wwdr: String?

    @OptionGroup var pkcs11: PKCS11Options

    private func value(_ flag: String?, _ variable: String) -> String? {
        flag ?? ProcessInfo.processInfo.environment[variable]
    }

    var resolvedCert: String? { value(cert, "TESSERA_CERT") }
    var resolvedKey: String? { value(key, "TESSERA_KEY") }
    var resolvedKeyPasswordFile: String? { value(keyPasswordFile, "TESSERA_KEY_PASSWORD_FILE") }
    var resolvedP12: String? { value(p12, "TESSERA_P12") }
    var resolvedP12PasswordFile: String? { value(p12PasswordFile, "TESSERA_P12_PASSWORD_FILE") }
    var resolvedWWDR: String? { value(wwdr, "TESSERA_WWDR") }

    /// Loads the credentials, failing with a usage error (exit 2) when they are incomplete.
    func load() throws -> PassCredentials {
        if resolvedP12 != nil && (resolvedCert != nil || resolvedKey != nil) {
            throw CommandFailure(message: "give either --p12 or --cert with --key, not both", exitCode: 2)
        }
        if resolvedP12 == nil && (resolvedCert == nil || resolvedKey == nil || resolvedWWDR == nil) {
            throw CommandFailure(
                message: "signing credentials are needed: --cert, --key and --wwdr (or --p12), or TESSERA_CERT, TESSERA_KEY and TESSERA_WWDR",
                exitCode: 2)
        }
        return try CredentialOptions.load(
            cert: resolvedCert, key: resolvedKey, keyPasswordFile: resolvedKeyPasswordFile, p12: resolvedP12,
            p12PasswordFile: resolvedP12PasswordFile, wwdr: resolvedWWDR, pkcs11: pkcs11.module())
    }
}

/// Reads secrets from files or environment variables.
enum Secret {
    /// The file's contents, else the variable's, without a trailing line ending; else `nil`.
    /// - Parameters:
    ///   - file: The secret's file, if given.
    ///   - name: The environment variable holding the secret itself.
    ///   - flag: The option that named the file, for the error when it cannot be read.
    static func read(file: String?, environment name: String, flag: String? = nil) throws -> String? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(message: (flag.map { "\($0): " } ?? "") + "\(file): \(FileReading.problem(at: file))")
            }
            // Refused rather than changed: bytes that are not UTF-8 would each become U+FFFD, a secret other than the
            // file's (a receiver checking signatures with the file's bytes would refuse every one).
            guard let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure(message: (flag.map { "\($0): " } ?? "")
                    + "\(file): not text (UTF-8); a secret file holds text, such as `openssl rand -hex 32` writes")
            }
            return withoutLineEnding(text)
        }
        // The same secret as its file: a variable made from a file (a Kubernetes secret `--from-file`, `$(cat f)` in
        // some shells) carries its line ending, and a receiver verifying with the file's secret would refuse all.
        return ProcessInfo.processInfo.environment[name].map(withoutLineEnding)
    }

    /// `text` without the line endings at its end: `\n`, `\r\n` (a file saved on Windows) or `\r`. Swift counts
    /// `\r\n` as one character, which is neither `"\n"` nor `"\r"`, so the scalars are looked at.
    static func withoutLineEnding(_ text: String) -> String {
        var scalars = text.unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
