import Checkout
import Foundation
import Hummingbird

/// `POST /checkout/v1/sessions/{id}/authorize` (and development mode's `/test-authorize`),
/// `POST /checkout/v1/merchant-validation`, `GET /checkout/v1/orders/{id}` and its `/pkpasses`.
extension CheckoutRoutes {
    /// Answers Apple Pay's authorization result: 200 with the order, or a refusal's status with its result (thrown as
    /// an `AuthorizationFailure`, written by ``CheckoutErrorMiddleware``).
    @Sendable func authorize(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.session(id: Self.id(context), credentials: Self.credentials(request))
        let body = try await CheckoutRequestBody.collect(request, limit: bodyLimit)
        return try CheckoutResponse.json(try await checkout.authorizePayment(body, session: session))
    }

    /// Development mode only: pays the session with a development token through the same path as a real payment.
    @Sendable func testAuthorize(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.session(id: Self.id(context), credentials: Self.credentials(request))
        // As every body: 413 over the limit, 400 for one that does not arrive whole (a malformed chunk).
        let raw = try await CheckoutRequestBody.collect(request, limit: bodyLimit)
        return try CheckoutResponse.json(try await checkout.authorizeTestPayment(raw, session: session))
    }

    @Sendable func validateMerchant(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        if let wait = merchantValidationLimiter.retryAfter(context.clientAddress, now: Date()) {
            throw WebServiceError.rateLimited("too many merchant validations from this client", retryAfter: wait)
        }
        let (body, _) = try await CheckoutRequestBody.decode(MerchantValidationRequest.self, from: request,
                                                             limit: bodyLimit)
        return CheckoutResponse.raw(try await checkout.merchantSession(body))
    }

    @Sendable func readOrder(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try CheckoutResponse.json(try await checkout.orderView(id: Self.id(context), credentials: Self.credentials(request)))
    }

    /// The order's passes as one `.pkpasses` download, named after the order.
    @Sendable func orderPasses(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let archive = try await checkout.orderPassesBundle(id: id, credentials: Self.credentials(request))
        return PassesBundleResponse.make(archive, attachmentName: id)
    }
}
