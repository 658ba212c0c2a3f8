import Foundation
import Hummingbird
import NIOCore
import PassWebService
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
            currencyCode: pricing.currency.code, merchantLine: merchant.merchantName.totalLabel, apiBase: "/checkout/v1"))
        return Self.html(try page.html(), status: .ok)
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
