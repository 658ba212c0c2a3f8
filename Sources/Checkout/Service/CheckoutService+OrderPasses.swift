import HTTPTypes
public import Foundation
import Logging
import PassStore

/// `GET /checkout/v1/orders/{id}/pkpasses`: every pass of an order as one `.pkpasses` download, so the buyer adds
/// them to Wallet at once.
extension CheckoutService {
    /// The order's passes as one `.pkpasses` archive (`application/vnd.apple.pkpasses`), in the order's order.
    /// Readable with the session's client secret (header, or `?clientSecret=` so a plain link works) or the
    /// merchant's API key. An order without passes is 404; one with more than Apple's 10 passes, or whose signed
    /// passes pass Apple's 150 MB, is 422 `passesBundleLimit` (each pass stays downloadable from its own link).
    /// - Parameters:
    ///   - id: The order identifier.
    ///   - credentials: Its session's client secret or the merchant's API key.
    /// - Returns: The archive's bytes.
    /// - Throws: ``CheckoutError`` `notFound`, `unauthorized`, `passesBundleLimit` or `internalError`.
    public func orderPassesBundle(id: String, credentials: CheckoutCredentials) async throws -> Data {
        guard Identifiers.isPlausible(id), let order = try await store.order(id: id),
              let session = try await store.session(id: order.sessionId)
        else { throw CheckoutError.notFound("order") }
        try checkAccess(to: session, credentials)
        guard let passIssuer, !order.passes.isEmpty else {
            throw CheckoutError(.notFound, status: .notFound, "the order has no passes")
        }
        do {
            let passes = order.passes.map {
                IssuedOrderPass(passTypeIdentifier: $0.passTypeIdentifier, serialNumber: $0.serialNumber,
                                downloadURL: $0.downloadURL)
            }
            return try await passIssuer.orderPassesBundle(passes, logger: logger)
        } catch OrderPassesBundleError.limit(let reason) {
            throw CheckoutError(.passesBundleLimit, status: .unprocessableContent, reason, field: "passes")
        } catch OrderPassesBundleError.missingPass(let serialNumber) {
            logger.error("an order's pass is missing from the pass store", metadata: [
                "order": "\(order.id)", "serialNumber": "\(serialNumber)",
            ])
            throw CheckoutError(.internalError, status: .internalServerError,
                                "the pass \(serialNumber) could not be found; it has been logged")
        } catch OrderPassesBundleError.failed(let reason) {
            throw CheckoutError(.internalError, status: .internalServerError, "\(reason); it has been logged")
        }
    }
}
