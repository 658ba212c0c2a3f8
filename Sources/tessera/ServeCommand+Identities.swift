import ArgumentParser
import APNs
import Foundation
import PassBundle
import SigningIdentities
import TesseraServer

/// `tessera serve --identities FILE`: several signing identities in one server.
struct IdentitiesOption: ParsableArguments {
    @Option(help: "Signing identities file (JSON, see docs/cli.md): several Pass and Order Type IDs, each with its credentials and templates folder, and APNs keys per team; instead of --cert/--key/--p12 and --templates (TESSERA_IDENTITIES).")
    var identities: String?

    /// The identities file's path, from the flag or `TESSERA_IDENTITIES`.
    var resolved: String? { identities ?? ProcessInfo.processInfo.environment["TESSERA_IDENTITIES"] }

    /// Loads the identities file, or `nil` when none is given.
    /// - Throws: ``CommandFailure`` naming the file, entry and field (exit 1), or a usage error (exit 2) when the
    ///   single-identity flags are given too.
    func load(
        credentials: ServerCredentialOptions, templatesGiven: Bool, orders: OrderServeOptions, pollInterval: Duration?
    ) throws -> ServerConfiguration.Identities? {
        guard let path = resolved else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let single = [
            ("--cert", credentials.resolvedCert), ("--key", credentials.resolvedKey), ("--p12", credentials.resolvedP12),
            ("--templates", templatesGiven ? "" : nil),
            ("--order-templates", orders.orderTemplates ?? environment["TESSERA_ORDER_TEMPLATES"]),
            ("--order-cert", orders.orderCert ?? environment["TESSERA_ORDER_CERT"]),
        ]
        if let (flag, _) = single.first(where: { $0.1 != nil }) {
            throw CommandFailure(
                message: "--identities: \(flag) (or its environment variable) is for a single identity; put it in the identities file instead",
                exitCode: 2)
        }
        let loaded: SigningIdentities
        do {
            loaded = try SigningIdentities.load(contentsOf: URL(fileURLWithPath: path), pkcs11: try credentials.pkcs11.module())
        } catch let error as IdentitiesFileError {
            throw CommandFailure(message: "--identities \(error)")
        }
        guard !loaded.passIdentities.isEmpty else {
            throw CommandFailure(message: "--identities \(path): identities: at least one Pass Type ID (pass.…) is needed")
        }
        return ServerConfiguration.Identities(
            file: URL(fileURLWithPath: path), loaded: loaded, pollInterval: pollInterval, pkcs11: try credentials.pkcs11.module())
    }
}

extension ServerConfiguration.Identities {
    /// The signer and templates folder of the first pass identity: the server's defaults.
    func firstPassSource() throws -> (signer: PassSigner, templates: URL) {
        let first = loaded.passIdentities[0]
        do {
            return (try PassSigner(credentials: first.credentials), first.templatesDirectory)
        } catch {
            throw CommandFailure(message: "--identities \(loaded.file.url.path): \(first.entry): \(error)")
        }
    }
}

extension APNsOptions {
    /// Where pushes go with an identities file: on when `--apns-auth` is given or the file has APNs keys. Each
    /// client's authentication comes from the file (its team's key, else the identity's certificate), so the
    /// returned configuration's own authentication is replaced.
    func endpoint(identities: ServerConfiguration.Identities) throws -> APNsClient.Configuration? {
        let environment = ProcessInfo.processInfo.environment
        let mode = apnsAuth ?? environment["TESSERA_APNS_AUTH"]
        let hasKeys = !identities.loaded.file.apns.isEmpty
        switch mode {
        case nil where !hasKeys: return nil
        case nil, "certificate"?: break
        case "token"? where !hasKeys:
            throw CommandFailure(message: "--apns-auth token: the identities file has no apns keys", exitCode: 2)
        case "token"?: break
        case let other?:
            throw CommandFailure(message: "--apns-auth: \(other) is not certificate or token", exitCode: 2)
        }
        let port = try apnsPort ?? environment["TESSERA_APNS_PORT"].map { text in
            guard let port = Int(text), (1...65535).contains(port) else {
                throw CommandFailure(message: "TESSERA_APNS_PORT: \(text) is not a port number", exitCode: 2)
            }
            return port
        } ?? 443
        return APNsClient.Configuration(
            host: apnsHost ?? environment["TESSERA_APNS_HOST"] ?? APNsClient.Configuration.productionHost, port: port,
            authentication: .token(p8Path: "", keyID: "", teamID: ""),
            trustRoots: (apnsCAFile ?? environment["TESSERA_APNS_CA_FILE"]).map { .systemPlus(pemPath: $0) } ?? .system)
    }
}
