import Foundation
import HTTPTypes
import Hummingbird
import PassCrypto
import TesseraHTTP

/// Who may do what: the merchant's API key (`Authorization: Bearer <key>`, the merchant's own server) may do
/// anything; a session's client secret (header `Checkout-Client-Secret`, or `clientSecret` in the sheet's query)
/// reads and updates that session and its order; anyone may create a session from the catalogue.
enum CheckoutAccess {
    /// The client secret's header.
    static let secretHeader = HTTPField.Name("Checkout-Client-Secret")!

    /// A random client secret (about 190 bits).
    static func makeSecret() -> String {
        "cs_secret_" + SecretToken.random(length: 32)
    }
}

extension CheckoutService {
    /// Whether the request carries the merchant's API key; a wrong key is refused (401) rather than ignored.
    func isMerchant(_ request: Request) throws -> Bool {
        guard let header = request.headers[.authorization] else { return false }
        guard let apiKey, header.hasPrefix("Bearer "),
              SecretToken.constantTimeEqual(header.dropFirst("Bearer ".count), apiKey) else {
            throw CheckoutError(.unauthorized, status: .unauthorized, "the API key is not valid", field: "Authorization")
        }
        return true
    }

    /// Refuses a request for a session (or its order) that has neither the merchant's API key nor the session's
    /// client secret.
    func checkAccess(to session: CheckoutSession, _ request: Request) throws {
        if try isMerchant(request) { return }
        let given = request.headers[CheckoutAccess.secretHeader] ?? request.uri.queryParameters.get("clientSecret")
        guard let given, let secret = session.clientSecret, SecretToken.constantTimeEqual(given, secret) else {
            throw CheckoutError(.unauthorized, status: .unauthorized,
                                "the session's client secret (Checkout-Client-Secret header) or the merchant's API key "
                                    + "(Authorization: Bearer) is required", field: "Checkout-Client-Secret")
        }
    }
}
