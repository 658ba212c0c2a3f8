import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import TesseraServer

/// The Wallet orders options of `tessera serve`: the order templates and the Order Type ID credentials (the WWDR
/// intermediate is `--wwdr`'s). Without `--order-templates` the server issues no orders.
struct OrderServeOptions: ParsableArguments {
    @Option(help: "Order templates folder, one template per sub-folder; turns on the orders web service (TESSERA_ORDER_TEMPLATES).")
    var orderTemplates: String?

    @Option(help: "Order Type ID certificate (PEM or DER) (TESSERA_ORDER_CERT); the WWDR intermediate is --wwdr.")
    var orderCert: String?

    @Option(help: "Private key for --order-cert (TESSERA_ORDER_KEY); its password from --order-key-password-file.")
    var orderKey: String?

    @Option(help: "File holding the --order-key password (TESSERA_ORDER_KEY_PASSWORD_FILE or TESSERA_ORDER_KEY_PASSWORD).")
    var orderKeyPasswordFile: String?

    /// The orders settings, or `nil` when no order templates folder is given; usage errors name the flag.
    /// - Parameters:
    ///   - wwdr: The WWDR intermediate's path (`--wwdr`).
    ///   - environment: The process environment.
    func load(wwdr: String?, environment: [String: String], pkcs11: PKCS11Module? = nil) throws -> ServerConfiguration.Orders? {
        let cert = orderCert ?? environment["TESSERA_ORDER_CERT"]
        let key = orderKey ?? environment["TESSERA_ORDER_KEY"]
        guard let templates = orderTemplates ?? environment["TESSERA_ORDER_TEMPLATES"] else {
            if cert != nil || key != nil {
                throw CommandFailure(message: "--order-cert/--order-key: give --order-templates too", exitCode: 2)
            }
            return nil
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(message: "--order-templates: folder \(templates) does not exist")
        }
        guard let cert, let key else {
            throw CommandFailure(message: "--order-templates: orders are signed with --order-cert and --order-key", exitCode: 2)
        }
        guard let wwdr else {
            throw CommandFailure(message: "--order-cert: --wwdr is needed (the WWDR intermediate that issued it)", exitCode: 2)
        }
        let password = try Secret.read(
            file: orderKeyPasswordFile ?? environment["TESSERA_ORDER_KEY_PASSWORD_FILE"],
            environment: "TESSERA_ORDER_KEY_PASSWORD", flag: "--order-key-password-file")
        do {
            let credentials = try PassCredentials.load(
                certificatePath: cert, keyPath: key, keyPassword: password, wwdrPath: wwdr, pkcs11: pkcs11)
            return ServerConfiguration.Orders(
                templatesDirectory: URL(fileURLWithPath: templates), signer: try OrderSigner(credentials: credentials))
        } catch let error as PassBundleError {
            throw CommandFailure(message: "--order-cert: \(error.reason)")
        }
    }
}
