import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import PassModel

/// `tessera-bench sign`'s PKCS#11 run: the same passes signed with a key that stays in a PKCS#11 module (SoftHSM in
/// `scripts/bench-pkcs11.sh`), measured in the same round as the file key and `openssl speed`.
struct PKCS11SignOptions: ParsableArguments {
    @Option(help: "Also sign with this key in a PKCS#11 module (pkcs11:token=…;object=…); needs --pkcs11-module, --pkcs11-cert and --pkcs11-wwdr.")
    var pkcs11Key: String?

    @Option(help: "The PKCS#11 module (shared library).")
    var pkcs11Module: String?

    @Option(help: "File holding the token's user PIN.")
    var pkcs11PinFile: String?

    @Option(help: "The certificate of the key in the module (PEM).")
    var pkcs11Cert: String?

    @Option(help: "The WWDR intermediate that issued --pkcs11-cert (PEM).")
    var pkcs11Wwdr: String?

    /// A builder of `template` signing through the module, or `nil` without `--pkcs11-key`.
    func builder(template: PassTemplate) throws -> PassBuilder? {
        guard let pkcs11Key else { return nil }
        guard let pkcs11Module, let pkcs11Cert, let pkcs11Wwdr else {
            throw ValidationError("--pkcs11-key needs --pkcs11-module, --pkcs11-cert and --pkcs11-wwdr")
        }
        var pin: String?
        if let pkcs11PinFile {
            pin = try String(contentsOfFile: pkcs11PinFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        let credentials = try PassCredentials.load(
            certificatePath: pkcs11Cert, keyPath: pkcs11Key, keyPassword: nil, wwdrPath: pkcs11Wwdr,
            pkcs11: PKCS11Module(path: pkcs11Module, pin: pin))
        return try PassBuilder(template: template, signer: try PassSigner(credentials: credentials))
    }
}
