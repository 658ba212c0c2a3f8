import Crypto
public import Foundation

/// Signs and caches the provider authentication token for APNs token authentication: an ES256 JWT with
/// header `{"alg":"ES256","kid":keyID}` and claims `{"iss":teamID,"iat":now}`.
///
/// APNs rejects a token older than an hour and answers `TooManyProviderTokenUpdates` when a provider
/// changes tokens more often than every 20 minutes, so one token is reused until it reaches `refreshInterval`.
public actor APNsProviderToken {
    private let signingKey: P256.Signing.PrivateKey
    /// The key identifier (`kid`).
    public nonisolated let keyID: String
    /// The team identifier (`iss`).
    public nonisolated let teamID: String
    /// Age at which the cached token is replaced.
    public nonisolated let refreshInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var cached: (token: String, issuedAt: Date)?

    /// Creates a token source from a `.p8` key.
    /// - Parameters:
    ///   - p8PEM: The `.p8` file's text (PKCS#8 PEM of a P-256 key).
    ///   - keyID: The key identifier.
    ///   - teamID: The team identifier.
    ///   - refreshInterval: Age at which a token is replaced (20 to 50 minutes).
    ///   - now: The clock; tests inject one.
    public init(p8PEM: String, keyID: String, teamID: String, refreshInterval: TimeInterval = 30 * 60,
                now: @escaping @Sendable () -> Date = { Date() }) throws(APNsError) {
        do {
            signingKey = try P256.Signing.PrivateKey(pemRepresentation: p8PEM)
        } catch {
            throw .invalidCredentials("the .p8 key is not a PEM P-256 private key", underlying: error)
        }
        guard !keyID.isEmpty, !teamID.isEmpty else { throw .invalidCredentials("key ID and team ID must not be empty") }
        self.keyID = keyID
        self.teamID = teamID
        self.refreshInterval = refreshInterval
        self.now = now
    }

    /// The current token, signing a new one when none is cached or the cached one reached ``refreshInterval``.
    /// - Returns: The compact JWT (`header.claims.signature`, base64url without padding).
    public func token() throws(APNsError) -> String {
        let date = now()
        if let cached, date.timeIntervalSince(cached.issuedAt) < refreshInterval,
           date >= cached.issuedAt.addingTimeInterval(-60) {
            return cached.token
        }
        let token = try sign(issuedAt: date)
        cached = (token, date)
        return token
    }

    /// Forgets `token` if it is the cached one, so that the next ``token()`` signs a new one: APNs answered
    /// `ExpiredProviderToken` for it (a clock that drifted, a token older than APNs allows). A token replaced already
    /// is left alone, so the answers of one batch renew it once.
    public func discard(_ token: String) {
        if cached?.token == token { cached = nil }
    }

    /// When the cached token was issued, or `nil` before the first ``token()``.
    public var issuedAt: Date? { cached?.issuedAt }

    private func sign(issuedAt: Date) throws(APNsError) -> String {
        let header = #"{"alg":"ES256","kid":"# + Self.jsonString(keyID) + "}"
        let claims = #"{"iss":"# + Self.jsonString(teamID) + #","iat":"# + String(Int(issuedAt.timeIntervalSince1970)) + "}"
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        do {
            // rawRepresentation is the JWS form: r and s, 32 bytes each.
            let signature = try signingKey.signature(for: Data(signingInput.utf8))
            return signingInput + "." + Self.base64URL(signature.rawRepresentation)
        } catch {
            throw .tokenSigningFailed("ES256 signing failed", underlying: error)
        }
    }

    /// Base64url without padding (RFC 7515).
    /// - Parameter data: The bytes.
    /// - Returns: The encoded text.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func jsonString(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
