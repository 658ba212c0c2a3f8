import Foundation
import HTTPTypes
import Hummingbird
import PassWebService

/// Who may do what: the merchant's API key (`Authorization: Bearer <key>`, the merchant's own server) may do
/// anything; a session's client secret (header `Checkout-Client-Secret`, or `clientSecret` in the sheet's query)
/// reads and updates that session and its order; anyone may create a session from the catalogue.
enum CheckoutAccess {
    /// The client secret's header.
    static let secretHeader = HTTPField.Name("Checkout-Client-Secret")!

    /// A random client secret (about 190 bits).
    static func makeSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        return "cs_secret_" + String(decoding: (0..<32).map { _ in
            alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))]
        }, as: UTF8.self)
    }

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEqual(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}

extension CheckoutService {
    /// Whether the request carries the merchant's API key; a wrong key is refused (401) rather than ignored.
    func isMerchant(_ request: Request) throws -> Bool {
        guard let header = request.headers[.authorization] else { return false }
        guard let apiKey, header.hasPrefix("Bearer "),
              CheckoutAccess.constantTimeEqual(header.dropFirst("Bearer ".count), apiKey) else {
            throw CheckoutError(.unauthorized, status: .unauthorized, "the API key is not valid", field: "Authorization")
        }
        return true
    }

    /// Refuses a request for a session (or its order) that has neither the merchant's API key nor the session's
    /// client secret.
    func checkAccess(to session: CheckoutSession, _ request: Request) throws {
        if try isMerchant(request) { return }
        let given = request.headers[CheckoutAccess.secretHeader] ?? request.uri.queryParameters.get("clientSecret")
        guard let given, let secret = session.clientSecret, CheckoutAccess.constantTimeEqual(given, secret) else {
            throw CheckoutError(.unauthorized, status: .unauthorized,
                                "the session's client secret (Checkout-Client-Secret header) or the merchant's API key "
                                    + "(Authorization: Bearer) is required", field: "Checkout-Client-Secret")
        }
    }
}
