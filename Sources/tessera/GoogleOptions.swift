import ArgumentParser
import Crypto
import Foundation
import GoogleWallet

/// The Google Wallet issuer and service account, shared by `tessera pass google` and `tessera serve`.
struct GoogleOptions: ParsableArguments {
    @Option(help: "Google Wallet issuer id (or TESSERA_GOOGLE_ISSUER_ID).")
    var googleIssuerId: String?

    @Option(help: "Google service account key file, JSON as downloaded (or TESSERA_GOOGLE_SERVICE_ACCOUNT).")
    var googleServiceAccount: String?

    @Option(name: .customLong("google-api-url"), help: "Google Wallet API base URL (or TESSERA_GOOGLE_API_URL); https://walletobjects.googleapis.com by default.")
    var googleAPIURL: String?

    @Option(name: .customLong("google-ca-file"), help: "PEM file of extra certificate authorities trusted for the Google API and token endpoint (or TESSERA_GOOGLE_CA_FILE).")
    var googleCAFile: String?

    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Whether Google Wallet is configured at all.
    var isConfigured: Bool { (googleIssuerId ?? environment["TESSERA_GOOGLE_ISSUER_ID"]) != nil }

    func issuerId() throws -> String {
        guard let id = googleIssuerId ?? environment["TESSERA_GOOGLE_ISSUER_ID"] else {
            throw CommandFailure(message: "--google-issuer-id: the Google Wallet issuer id is needed (or TESSERA_GOOGLE_ISSUER_ID)", exitCode: 2)
        }
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CommandFailure(message: "--google-issuer-id \(id): an issuer id is digits only, as the Google Pay & Wallet Console shows it", exitCode: 2)
        }
        return id
    }

    func serviceAccount() throws -> GoogleServiceAccount {
        guard let path = googleServiceAccount ?? environment["TESSERA_GOOGLE_SERVICE_ACCOUNT"] else {
            throw CommandFailure(message: "--google-service-account: the service account key file is needed (or TESSERA_GOOGLE_SERVICE_ACCOUNT)", exitCode: 2)
        }
        do {
            return try GoogleServiceAccount(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(message: "--google-service-account: \(error.reason)", exitCode: 2)
        }
    }

    func clientConfiguration() throws -> GoogleWalletClient.Configuration {
        var configuration = GoogleWalletClient.Configuration()
        if let text = googleAPIURL ?? environment["TESSERA_GOOGLE_API_URL"] {
            guard let url = URL(string: text), let scheme = url.scheme, scheme == "https" || scheme == "http", url.host != nil else {
                throw CommandFailure(message: "--google-api-url \(text): not an http(s) URL", exitCode: 2)
            }
            configuration.baseURL = url
        }
        if let caFile = googleCAFile ?? environment["TESSERA_GOOGLE_CA_FILE"] {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw CommandFailure(message: "--google-ca-file \(caFile): file not found or unreadable", exitCode: 2)
            }
            if let problem = GoogleWalletClient.Configuration.problem(withAuthorities: caFile) {
                throw CommandFailure(message: "--google-ca-file \(caFile): \(problem)", exitCode: 2)
            }
            configuration.caFile = caFile
        }
        return configuration
    }

    /// Content-addressed image URLs under a public URL: `{public-url}/google/images/<sha256>.png`.
    static func imageURLs(publicURL: String, flag: String) throws -> @Sendable (String, Data) -> String? {
        guard let url = URL(string: publicURL), url.scheme == "https", url.host != nil else {
            throw CommandFailure(message: "\(flag) \(publicURL): Google fetches images over https only; give the server's https URL", exitCode: 2)
        }
        let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        return { _, data in "\(base)/google/images/\(SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()).png" }
    }
}
