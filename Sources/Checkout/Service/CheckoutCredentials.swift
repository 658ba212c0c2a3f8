import HTTPTypes
import Foundation
import PassCrypto

/// What a checkout request shows to be allowed: the merchant's API key (`Authorization: Bearer <key>`, the merchant's
/// own server) may do anything; a session's client secret (header `Checkout-Client-Secret`, or `clientSecret` in the
/// sheet's query) reads and updates that session and its order; anyone may create a session from the catalogue.
///
/// The HTTP module only reads the values; ``CheckoutService`` decides what they allow.
public struct CheckoutCredentials: Sendable, Equatable {
    /// What the request offers in place of the merchant's API key.
    public enum APIKey: Sendable, Equatable {
        /// No credential.
        case none
        /// A key (from `Authorization: Bearer <key>`).
        case given(String)
        /// A credential the checkout does not take (another scheme, an empty key): refused, never taken as anonymous.
        case unusable
    }

    /// What the request offers in place of the merchant's API key.
    public var apiKey: APIKey
    /// The session's client secret as sent (header or query), or `nil` when there was none.
    public var clientSecret: String?

    /// Creates the credentials of one request.
    /// - Parameters:
    ///   - apiKey: The API key offered, if any.
    ///   - clientSecret: The client secret given, if any.
    public init(apiKey: APIKey = .none, clientSecret: String? = nil) {
        self.apiKey = apiKey
        self.clientSecret = clientSecret
    }
}

/// Client secrets of new sessions.
enum CheckoutAccess {
    /// A random client secret (about 190 bits).
    static func makeSecret() -> String {
        "cs_secret_" + SecretToken.random(length: 32)
    }
}

extension CheckoutService {
    /// Whether the credentials carry the merchant's API key; a wrong key is refused rather than ignored.
    /// - Parameter credentials: What the request gave.
    /// - Returns: `true` for the merchant's key, `false` when no `Authorization` was given.
    /// - Throws: ``CheckoutError`` `unauthorized` (401) for a wrong key or scheme.
    public func isMerchant(_ credentials: CheckoutCredentials) throws -> Bool {
        switch credentials.apiKey {
        case .none:
            return false
        case .given(let key):
            if let apiKey, SecretToken.constantTimeEqual(key, apiKey) { return true }
        case .unusable:
            break
        }
        throw CheckoutError(.unauthorized, status: .unauthorized, "the API key is not valid", field: "Authorization")
    }

    /// Refuses access to a session (or its order) for credentials that have neither the merchant's API key nor the
    /// session's client secret.
    func checkAccess(to session: CheckoutSession, _ credentials: CheckoutCredentials) throws {
        if try isMerchant(credentials) { return }
        guard let given = credentials.clientSecret, let secret = session.clientSecret,
              SecretToken.constantTimeEqual(given, secret) else {
            throw CheckoutError(.unauthorized, status: .unauthorized,
                                "the session's client secret (Checkout-Client-Secret header) or the merchant's API key "
                                    + "(Authorization: Bearer) is required", field: "Checkout-Client-Secret")
        }
    }
}
