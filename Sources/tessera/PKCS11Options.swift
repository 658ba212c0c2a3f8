import ArgumentParser
import Foundation
import PassCrypto

/// Where keys given as PKCS#11 URIs (`--key pkcs11:token=…;object=…`) live: the module and its PIN.
struct PKCS11Options: ParsableArguments {
    @Option(help: "PKCS#11 module (shared library) for a --key given as a pkcs11: URI (TESSERA_PKCS11_MODULE).")
    var pkcs11Module: String?

    @Option(help: "File holding the PKCS#11 token's user PIN (TESSERA_PKCS11_PIN_FILE or TESSERA_PKCS11_PIN).")
    var pkcs11PinFile: String?

    /// The module and PIN, or `nil` when no module is given.
    func module() throws -> PKCS11Module? {
        let environment = ProcessInfo.processInfo.environment
        guard let path = pkcs11Module ?? environment["TESSERA_PKCS11_MODULE"] else { return nil }
        let pin = try Secret.read(file: pkcs11PinFile ?? environment["TESSERA_PKCS11_PIN_FILE"], environment: "TESSERA_PKCS11_PIN",
                                  flag: "--pkcs11-pin-file")
        return PKCS11Module(path: path, pin: pin)
    }
}
