import Foundation
import Hummingbird
import NIOCore
import TesseraHTTP
import HTTPTypes
import PaymentRequest

/// `GET /checkout/buy/{sku}`: a catalogue product's page with a button that opens the payment sheet.
extension CheckoutService {
    @Sendable func buyPage(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let sku = context.parameters.get("sku") ?? ""
        guard let product = merchant.products[sku] else {
            return Self.html(BuyPage.notFound(sku: sku), status: .notFound)
        }
        let page = BuyPage(bootstrap: .init(
            sku: sku, name: product.name, unitPrice: Money(product.unitPrice, pricing.currency).string,
            currencyCode: pricing.currency.code, merchantLine: merchant.merchantName.totalLabel, apiBase: "/checkout/v1",
            paymentRequest: buyPaymentRequest(sku: sku, product: product)))
        return Self.html(try page.html(), status: .ok)
    }

    /// The payment request a catalogue session for one of the product would have, priced by the same code, for the
    /// Apple Pay sheet the buy page opens on the tap, before that session exists. Nothing is stored. Its
    /// `applicationData` is left out: the page sets it from the `Idempotency-Key` it then creates the session with
    /// (``CheckoutSession/idempotencyKeyApplicationData``). `nil` when such a session could not be offered on Apple
    /// Pay; the page then creates the session first, as without Apple Pay.
    func buyPaymentRequest(sku: String, product: MerchantConfiguration.Product) -> ApplePayPaymentRequest? {
        var session = CheckoutSession(
            id: "", idempotencyKey: "", requestHash: "", createdAt: now(),
            items: [CartLine(sku: sku, name: product.name, quantity: 1, unitPrice: product.unitPrice,
                             requiresShipping: product.requiresShipping)])
        guard (try? checkLimit(session, field: "items")) != nil, (try? reprice(&session)) != nil,
              var request = try? pricing.paymentRequest(for: session) else { return nil }
        request.applicationData = nil
        return request
    }

    private static func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                      .contentSecurityPolicy: BuyPage.contentSecurityPolicy,
                      HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
