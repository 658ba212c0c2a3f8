import Checkout
import Foundation
import HTTPTypes
import Hummingbird
import PaymentRequest

/// `POST /checkout/v1/sessions`, `GET /checkout/v1/sessions/{id}` and the sheet's events
/// (`/shipping-method`, `/shipping-contact`, `/coupon-code`, `/payment-method`).
extension CheckoutRoutes {
    static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayedHeader = HTTPField.Name("Idempotent-Replayed")!

    @Sendable func createSession(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        guard let key = request.headers[Self.idempotencyKeyHeader], !key.isEmpty else {
            throw CheckoutError.invalid("Idempotency-Key", "header is required (a unique key per checkout, such as a UUID)")
        }
        guard key.count <= 255, key.allSatisfy({ $0.isASCII && !$0.isWhitespace || $0 == " " }) else {
            throw CheckoutError.invalid("Idempotency-Key", "must be 1-255 printable ASCII characters")
        }
        let fromMerchant = try checkout.isMerchant(Self.credentials(request))
        // Past the limit a retry of a creation (its Idempotency-Key already stored, so nothing is stored) is still
        // answered: the store is read only then.
        if !fromMerchant, let wait = anonymousSessionLimiter?.retryAfter(context.clientAddress, now: Date()),
           try await checkout.store.session(idempotencyKey: key) == nil
        {
            throw WebServiceError.rateLimited("too many checkout sessions created from this client", retryAfter: wait)
        }
        let (body, raw) = try await CheckoutRequestBody.decode(CreateSessionRequest.self, from: request, limit: bodyLimit)
        let created = try await checkout.createSession(body, raw: raw, idempotencyKey: key, fromMerchant: fromMerchant)
        var response = try CheckoutResponse.json(created.view, status: .created)
        response.headers[.location] = "/checkout/v1/sessions/\(created.view.id)"
        if created.replayed { response.headers[Self.idempotentReplayedHeader] = "true" }
        return response
    }

    @Sendable func readSession(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try CheckoutResponse.json(try await checkout.sessionView(id: Self.id(context), credentials: Self.credentials(request)))
    }

    @Sendable func shippingMethod(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.pendingSession(id: Self.id(context), credentials: Self.credentials(request))
        let (body, _) = try await CheckoutRequestBody.decode(ShippingMethodRequest.self, from: request, limit: bodyLimit)
        return try CheckoutResponse.json(try await checkout.selectShippingMethod(body, in: session))
    }

    @Sendable func shippingContact(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.pendingSession(id: Self.id(context), credentials: Self.credentials(request))
        let (body, raw) = try await CheckoutRequestBody.decode(ShippingContactRequest.self, from: request,
                                                               limit: bodyLimit)
        // The event's `{"shippingContact": {...}}`, or the contact itself.
        let contact = try body.shippingContact ?? CheckoutRequestBody.decode(ApplePayPaymentContact.self, from: raw)
        return try CheckoutResponse.json(try await checkout.changeShippingContact(contact, in: session))
    }

    @Sendable func couponCode(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.pendingSession(id: Self.id(context), credentials: Self.credentials(request))
        let (body, _) = try await CheckoutRequestBody.decode(CouponCodeRequest.self, from: request, limit: bodyLimit)
        return try CheckoutResponse.json(try await checkout.applyCouponCode(body, in: session))
    }

    @Sendable func paymentMethod(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.pendingSession(id: Self.id(context), credentials: Self.credentials(request))
        let (body, _) = try await CheckoutRequestBody.decode(PaymentMethodRequest.self, from: request, limit: bodyLimit)
        return try CheckoutResponse.json(try checkout.selectPaymentMethod(body, in: session))
    }
}
