import Foundation
import Hummingbird
import NIOCore
import TesseraHTTP
import HTTPTypes
import PaymentRequest

/// `GET /checkout/sheet/{sessionId}`: the browser payment sheet.
extension CheckoutService {
    @Sendable func sheet(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await existingSession(request, context)
        let page = SheetPage(bootstrap: .init(
            sessionId: session.id, state: session.state.rawValue, orderId: session.orderId,
            merchantLine: merchant.merchantName.totalLabel, currencyCode: pricing.currency.code,
            shippingMethodOrder: merchant.shippingMethods.map(\.identifier),
            paymentRequest: try pricing.paymentRequest(for: session), shippingContact: session.shippingContact,
            developmentMode: development != nil, applePayJSSDK: merchant.applePayJSSDK, apiBase: "/checkout/v1",
            clientSecret: session.clientSecret ?? "",
            shippingAddressProblem: pricing.requiresShipping(session) ? session.shippingAddressProblem : nil,
            paymentStep: merchant.paymentStep))
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                      .contentSecurityPolicy: page.contentSecurityPolicy, HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                      HTTPField.Name("Referrer-Policy")!: "no-referrer"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: try page.html())))
    }
}
