public import Foundation
import JWTKit
import PassModel

/// A Google Cloud service account key, the JSON file Google's console downloads: `client_email`, `private_key`
/// (PKCS#8 PEM, RSA), `private_key_id` and `token_uri`. It signs save links and OAuth 2.0 token requests.
public struct GoogleServiceAccount: Sendable {
    /// The account's e-mail address: the JWTs' `iss`.
    public let clientEmail: String
    /// The key's identifier: the JWTs' `kid`.
    public let privateKeyID: String
    /// Where access tokens are requested (`https://oauth2.googleapis.com/token` for real accounts).
    public let tokenURI: URL
    /// The RSA private key.
    let privateKey: Insecure.RSA.PrivateKey

    /// Reads a service account key file.
    /// - Parameter url: The JSON file.
    /// - Throws: ``GoogleWalletError`` `invalidServiceAccount` naming the file and the member at fault.
    public init(contentsOf url: URL) throws(GoogleWalletError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GoogleWalletError(.invalidServiceAccount, "cannot read the service account file \(url.path)")
        }
        try self.init(jsonData: data, origin: url.path)
    }

    /// Reads a service account key from its JSON bytes.
    /// - Parameters:
    ///   - jsonData: The file's bytes.
    ///   - origin: The file's name, for error messages.
    /// - Throws: ``GoogleWalletError`` `invalidServiceAccount` naming the member at fault.
    public init(jsonData: Data, origin: String = "service account") throws(GoogleWalletError) {
        guard let json = try? JSONValue(jsonData: jsonData), case .object(let members) = json else {
            throw GoogleWalletError(.invalidServiceAccount, "\(origin): not a JSON object (expected Google's service account key file)")
        }
        func text(_ key: String) throws(GoogleWalletError) -> String {
            guard let value = members[key]?.stringValue, !value.isEmpty else {
                throw GoogleWalletError(.invalidServiceAccount, "\(origin): \(key) is missing or not a string")
            }
            return value
        }
        if let type = members["type"]?.stringValue, type != "service_account" {
            throw GoogleWalletError(.invalidServiceAccount, "\(origin): type is \"\(type)\", expected \"service_account\"")
        }
        clientEmail = try text("client_email")
        privateKeyID = try text("private_key_id")
        let tokenText = try text("token_uri")
        guard let tokenURI = URL(string: tokenText), let scheme = tokenURI.scheme?.lowercased(),
              scheme == "https" || scheme == "http", tokenURI.host != nil else {
            throw GoogleWalletError(.invalidServiceAccount, "\(origin): token_uri \"\(tokenText)\" is not an http(s) URL")
        }
        self.tokenURI = tokenURI
        do {
            privateKey = try Insecure.RSA.PrivateKey(pem: try text("private_key"))
        } catch let error as GoogleWalletError {
            throw error
        } catch {
            throw GoogleWalletError(.invalidServiceAccount, "\(origin): private_key is not a PEM RSA private key")
        }
    }

    /// Signs claims as an RS256 JWT with this account's key (`kid` = ``privateKeyID``).
    /// - Parameters:
    ///   - claims: The payload.
    ///   - type: The header's `typ`, if any.
    /// - Returns: The compact JWT.
    /// - Throws: ``GoogleWalletError`` `signingFailed`.
    func sign(_ claims: GoogleJWTClaims, type: String?) async throws(GoogleWalletError) -> String {
        do {
            // Slashes unescaped: a save link's length is counted by Google, and every URL in it would grow.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let keys = await JWTKeyCollection().add(
                rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: privateKeyID),
                serializer: DefaultJWTSerializer(jsonEncoder: encoder)
            )
            var header = JWTHeader()
            header.alg = "RS256"
            header.typ = type ?? "JWT"
            return try await keys.sign(claims, kid: JWKIdentifier(string: privateKeyID), header: header)
        } catch {
            throw GoogleWalletError(.signingFailed, "cannot sign with the service account \(clientEmail)'s key: \(error)")
        }
    }
}

/// Any JSON object as JWT claims.
struct GoogleJWTClaims: JWTPayload {
    var members: [String: JSONValue]

    init(_ members: [String: JSONValue]) { self.members = members }

    init(from decoder: any Decoder) throws {
        guard case .object(let members) = try JSONValue(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "claims are not an object"))
        }
        self.members = members
    }

    func encode(to encoder: any Encoder) throws {
        try JSONValue.object(members).encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) throws {}
}
