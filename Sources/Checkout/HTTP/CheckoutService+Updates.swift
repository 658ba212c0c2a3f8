import Foundation
import Hummingbird
import TesseraHTTP
import PaymentRequest
import HTTPTypes

/// The sheet's events: `POST /checkout/v1/sessions/{id}/shipping-method`, `/shipping-contact`, `/coupon-code` and
/// `/payment-method`, each answered with the matching Apple Pay update object.
extension CheckoutService {
    /// `{"identifier": "express"}` or the event's `{"shippingMethod": {"identifier": "express", ...}}`.
    struct ShippingMethodBody: Decodable {
        struct Method: Decodable { var identifier: String }
        var identifier: String?
        var shippingMethod: Method?
    }

    /// The event's `{"shippingContact": {...}}`, or the contact itself.
    struct ShippingContactBody: Decodable {
        var shippingContact: ApplePayPaymentContact?
    }

    /// `{"couponCode": "SAVE10"}`; an empty code removes the coupon.
    struct CouponCodeBody: Decodable {
        var couponCode: String
    }

    /// The event's `{"paymentMethod": {"network": "Visa", "type": "debit", ...}}`.
    struct PaymentMethodBody: Decodable {
        struct Method: Decodable {
            var network: String?
            var type: String?
        }
        var paymentMethod: Method?
    }

    @Sendable func shippingMethod(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        var session = try await pendingSession(request, context)
        let (body, _) = try await JSONRequest.decode(ShippingMethodBody.self, from: request, limit: configuration.maximumBodySize)
        guard let identifier = body.identifier ?? body.shippingMethod?.identifier else {
            throw CheckoutError.invalid("identifier", "is required")
        }
        guard pricing.requiresShipping(session) else {
            throw CheckoutError.invalid("identifier", "nothing in this session ships", status: .unprocessableContent)
        }
        guard pricing.shippingOptions(for: session).contains(where: { $0.identifier == identifier }) else {
            throw CheckoutError.invalid("identifier", "no shipping method \"\(identifier)\" for this address",
                                        status: .unprocessableContent)
        }
        session.selectedShippingMethod = identifier
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        try await save(session)
        return try JSONResponse.make(ApplePayShippingMethodUpdate(newTotal: builder.total(for: items), newLineItems: items))
    }

    @Sendable func shippingContact(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        var session = try await pendingSession(request, context)
        let (body, raw) = try await JSONRequest.decode(ShippingContactBody.self, from: request,
                                                       limit: configuration.maximumBodySize)
        let contact = try body.shippingContact ?? JSONRequest.decode(ApplePayPaymentContact.self, from: raw)
        // Only the redacted fields are kept; names, street lines, phone and email are dropped here.
        let redacted = RedactedContact(contact)
        var errors: [ApplePayError]?
        if let problem = ShippingRegions(merchant.shippingRegions).problem(with: redacted), pricing.requiresShipping(session) {
            errors = [problem]
            session.shippingContact = nil
            session.selectedShippingMethod = nil
            session.shippingAddressProblem = problem
        } else {
            session.shippingContact = redacted
            session.shippingAddressProblem = nil
            if let selected = session.selectedShippingMethod,
               !pricing.shippingOptions(for: redacted).contains(where: { $0.identifier == selected }) {
                session.selectedShippingMethod = nil
            }
        }
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        try await save(session)
        let methods = try pricing.requiresShipping(session) ? (errors == nil ? builder.shippingMethods() : []) : nil
        return try JSONResponse.make(ApplePayShippingContactUpdate(newTotal: builder.total(for: items), newLineItems: items,
                                                                   newShippingMethods: methods, errors: errors))
    }

    @Sendable func couponCode(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        var session = try await pendingSession(request, context)
        let (body, _) = try await JSONRequest.decode(CouponCodeBody.self, from: request, limit: configuration.maximumBodySize)
        let code = body.couponCode.trimmingCharacters(in: .whitespaces)
        guard code.count <= 100 else { throw CheckoutError.invalid("couponCode", "must be at most 100 characters") }
        var errors: [ApplePayError]?
        if code.isEmpty {
            session.couponCode = nil
            session.couponAppliedAt = nil
        } else if let current = session.couponCode, current.uppercased() == code.uppercased() {
            // Already applied: it stays at the terms it was applied with.
        } else {
            session.couponAppliedAt = nil
            switch pricing.coupon(code) {
            case .valid(let coupon):
                session.couponCode = coupon.code
                session.couponAppliedAt = now()
            case .expired:
                session.couponCode = nil
                errors = [ApplePayError(code: .couponCodeExpired, message: "This code has expired.")]
            case .invalid:
                session.couponCode = nil
                errors = [ApplePayError(code: .couponCodeInvalid, message: "This code is not valid.")]
            }
        }
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        try reprice(&session)
        try await save(session)
        let methods = try pricing.requiresShipping(session) ? builder.shippingMethods() : nil
        return try JSONResponse.make(ApplePayCouponCodeUpdate(newTotal: builder.total(for: items), newLineItems: items,
                                                              newShippingMethods: methods, errors: errors))
    }

    @Sendable func paymentMethod(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await pendingSession(request, context)
        let (body, _) = try await JSONRequest.decode(PaymentMethodBody.self, from: request, limit: configuration.maximumBodySize)
        let builder = try pricing.builder(for: session)
        let items = try builder.lineItems()
        var errors: [ApplePayError]?
        if let network = body.paymentMethod?.network,
           !merchant.supportedNetworks.contains(where: { $0.rawValue.lowercased() == network.lowercased() }) {
            errors = [ApplePayError(code: .unknown, message: "\(network) cards are not accepted.")]
        }
        return try JSONResponse.make(ApplePayPaymentMethodUpdate(newTotal: builder.total(for: items), newLineItems: items,
                                                                 errors: errors))
    }
}
