public import Foundation

/// A SoftHSM token created at test time in a folder of its own (its own `softhsm2.conf`), holding the private keys
/// the test imports, for signing through PKCS#11 as with a hardware module.
public struct SoftHSMToken: Sendable {
    /// The token's label.
    public let label: String
    /// The user PIN.
    public let pin: String
    /// The folder holding the configuration, the token store and the PIN file.
    public let folder: URL

    /// SoftHSM's PKCS#11 module.
    public static var modulePath: String? {
        ["/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
         "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so"].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// What is missing to sign through SoftHSM here (the module, `softhsm2-util`, OpenSSL's pkcs11 engine), or `nil`.
    public static var missing: String? {
        if modulePath == nil { return "SoftHSM's module (Debian: softhsm2; scripts/install-deps.sh installs it)" }
        let engines = ["/usr/lib/x86_64-linux-gnu/engines-3/pkcs11.so", "/usr/lib/aarch64-linux-gnu/engines-3/pkcs11.so"]
        if !engines.contains(where: FileManager.default.fileExists(atPath:)) {
            return "OpenSSL's pkcs11 engine (Debian: libengine-pkcs11-openssl; scripts/install-deps.sh installs it)"
        }
        return nil
    }

    /// `SOFTHSM2_CONF` for processes that use the token.
    public var environment: [String: String] { ["SOFTHSM2_CONF": folder.appendingPathComponent("softhsm2.conf").path] }

    /// A file holding the PIN.
    public var pinFile: String { folder.appendingPathComponent("pin").path }

    /// Creates and initialises a token with a random PIN.
    public init(label: String = "tessera-test") async throws {
        self.label = label
        pin = String(UInt32.random(in: 100_000...999_999))
        folder = try TemporaryDirectory.make(prefix: "softhsm")
        let tokens = folder.appendingPathComponent("tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        try Data("directories.tokendir = \(tokens.path)\nobjectstore.backend = file\nlog.level = ERROR\n".utf8)
            .write(to: folder.appendingPathComponent("softhsm2.conf"))
        try Data((pin + "\n").utf8).write(to: URL(fileURLWithPath: pinFile))
        let made = try await Subprocess.run("softhsm2-util", [
            "--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", String(UInt32.random(in: 100_000...999_999)),
        ], environment: environment)
        guard made.status == 0 else { throw SubprocessError("softhsm2-util --init-token: \(made.stderr)") }
    }

    /// Imports a PEM private key as object `object` (id `id`, hexadecimal) and returns its PKCS#11 URI.
    public func importKey(pemPath: String, object: String, id: String) async throws -> String {
        let pkcs8 = folder.appendingPathComponent("\(object).pk8.pem").path
        let converted = try await Subprocess.run("openssl", ["pkcs8", "-topk8", "-nocrypt", "-in", pemPath, "-out", pkcs8])
        guard converted.status == 0 else { throw SubprocessError("openssl pkcs8: \(converted.stderr)") }
        let imported = try await Subprocess.run("softhsm2-util", [
            "--import", pkcs8, "--token", label, "--label", object, "--id", id, "--pin", pin,
        ], environment: environment)
        try? FileManager.default.removeItem(atPath: pkcs8)
        guard imported.status == 0 else { throw SubprocessError("softhsm2-util --import: \(imported.stderr)") }
        return "pkcs11:token=\(label);object=\(object)"
    }
}
