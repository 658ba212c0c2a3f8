import Checkout
import Hummingbird

/// `GET /checkout/sheet/{sessionId}` (the browser payment sheet) and `GET /checkout/buy/{sku}` (a product's page).
extension CheckoutRoutes {
    @Sendable func sheet(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await checkout.session(id: Self.id(context), credentials: Self.credentials(request))
        return CheckoutResponse.html(try checkout.sheetPage(for: session))
    }

    @Sendable func buyPage(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        CheckoutResponse.html(try checkout.buyPage(sku: context.parameters.get("sku") ?? ""))
    }
}
