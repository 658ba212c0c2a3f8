import APNs
import ArgumentParser
import Foundation

/// APNs settings of `tessera serve`; without `--apns-auth` pushes are off.
struct APNsOptions: ParsableArguments {
    @Option(help: "APNs authentication: certificate (the Pass Type ID --cert/--key) or token (.p8) (TESSERA_APNS_AUTH). Absent: pushes off.")
    var apnsAuth: String?

    @Option(help: "APNs host (TESSERA_APNS_HOST; default api.push.apple.com).")
    var apnsHost: String?

    @Option(help: "APNs port (TESSERA_APNS_PORT; default 443).")
    var apnsPort: Int?

    @Option(help: "Token authentication: the .p8 key file (TESSERA_APNS_P8).")
    var apnsP8: String?

    @Option(help: "Token authentication: the key's 10-character ID (TESSERA_APNS_KEY_ID).")
    var apnsKeyID: String?

    @Option(help: "Token authentication: the team ID (TESSERA_APNS_TEAM_ID).")
    var apnsTeamID: String?

    @Option(help: "Extra CA certificates (PEM) to trust for the APNs host, e.g. a test stand-in (TESSERA_APNS_CA_FILE).")
    var apnsCAFile: String?

    @Option(help: "HTTP/2 connections to the APNs host per client, 1-32 (TESSERA_APNS_CONNECTIONS; default 1). Each carries --apns-in-flight pushes per round trip; the others open only when pushes wait on the first.")
    var apnsConnections: Int?

    @Option(help: "Pushes in flight on each APNs connection, 1-1000 (TESSERA_APNS_IN_FLIGHT; default 64).")
    var apnsInFlight: Int?

    /// The APNs connections per client and the pushes in flight on each, from the flags or the environment.
    func sending(_ environment: [String: String]) throws -> (connections: Int, inFlight: Int) {
        let connections = try ServeCommand.wholeNumber(
            apnsConnections, flag: "--apns-connections", variable: "TESSERA_APNS_CONNECTIONS", default: 1,
            range: 1...APNsClient.Configuration.maximumConnections, environment)
        let inFlight = try ServeCommand.wholeNumber(
            apnsInFlight, flag: "--apns-in-flight", variable: "TESSERA_APNS_IN_FLIGHT", default: 64,
            range: 1...1_000, environment)
        return (connections, inFlight)
    }

    private func value(_ flag: String?, _ variable: String) -> String? {
        flag ?? ProcessInfo.processInfo.environment[variable]
    }

    /// The APNs client's settings, or `nil` when pushes are off; the server makes the client.
    /// - Parameters:
    ///   - signerCredentials: The Pass Type ID certificate and key, for certificate authentication.
    ///   - orders: Whether the server issues orders, whose pushes go through the same client.
    func configuration(signerCredentials: ServerCredentialOptions, orders: Bool = false) throws -> APNsClient.Configuration? {
        guard let mode = value(apnsAuth, "TESSERA_APNS_AUTH") else { return nil }
        let authentication: APNsClient.Configuration.Authentication
        switch mode {
        case "certificate":
            // APNs takes a Pass Type ID certificate for its own topic only: every order push would be refused.
            guard !orders else {
                throw CommandFailure(
                    message: "--apns-auth certificate pushes with the Pass Type ID certificate, which APNs refuses for "
                        + "an Order Type ID: with --order-templates use --apns-auth token (a .p8 key covers both)",
                    exitCode: 2)
            }
            guard let cert = signerCredentials.resolvedCert, let key = signerCredentials.resolvedKey else {
                throw CommandFailure(
                    message: "--apns-auth certificate uses the Pass Type ID certificate: give --cert and --key (PEM)",
                    exitCode: 2)
            }
            if key.lowercased().hasPrefix("pkcs11:") {
                throw CommandFailure(
                    message: "--apns-auth certificate needs the key as a PEM file; with a key in a PKCS#11 module use --apns-auth token",
                    exitCode: 2)
            }
            let password = try Secret.read(file: signerCredentials.resolvedKeyPasswordFile, environment: "TESSERA_KEY_PASSWORD",
                                           flag: "--key-password-file")
            authentication = .certificate(certificatePEMPath: cert, keyPEMPath: key, keyPassword: password)
        case "token":
            guard let p8 = value(apnsP8, "TESSERA_APNS_P8"), let keyID = value(apnsKeyID, "TESSERA_APNS_KEY_ID"),
                  let teamID = value(apnsTeamID, "TESSERA_APNS_TEAM_ID")
            else {
                throw CommandFailure(message: "--apns-auth token needs --apns-p8, --apns-key-id and --apns-team-id", exitCode: 2)
            }
            authentication = .token(p8Path: p8, keyID: keyID, teamID: teamID)
        default:
            throw CommandFailure(message: "--apns-auth: \(mode) is not certificate or token", exitCode: 2)
        }
        let port = try apnsPort ?? value(nil, "TESSERA_APNS_PORT").map { text in
            guard let port = Int(text), (1...65535).contains(port) else {
                throw CommandFailure(message: "TESSERA_APNS_PORT: \(text) is not a port number", exitCode: 2)
            }
            return port
        } ?? 443
        return APNsClient.Configuration(
            host: value(apnsHost, "TESSERA_APNS_HOST") ?? APNsClient.Configuration.productionHost, port: port,
            authentication: authentication,
            trustRoots: value(apnsCAFile, "TESSERA_APNS_CA_FILE").map { .systemPlus(pemPath: $0) } ?? .system)
    }
}
