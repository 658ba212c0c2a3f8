import Foundation
import PaymentRequest

/// `GET /checkout/buy/{sku}`: a catalogue product's page with a button that opens the payment sheet.
extension CheckoutService {
    /// A catalogue product's page, or the page saying there is no such product (``CheckoutPage/found`` `false`).
    /// - Parameter sku: The product's SKU.
    /// - Returns: The page.
    /// - Throws: When the page's bootstrap data cannot be encoded.
    public func buyPage(sku: String) throws -> CheckoutPage {
        guard let product = merchant.products[sku] else {
            return CheckoutPage(html: BuyPage.notFound(sku: sku), contentSecurityPolicy: BuyPage.contentSecurityPolicy,
                                found: false)
        }
        let page = BuyPage(bootstrap: .init(
            sku: sku, name: product.name, unitPrice: Money(product.unitPrice, pricing.currency).string,
            currencyCode: pricing.currency.code, merchantLine: merchant.merchantName.totalLabel, apiBase: "/checkout/v1",
            paymentRequest: buyPaymentRequest(sku: sku, product: product), currencyDigits: pricing.currency.minorUnits))
        return CheckoutPage(html: try page.html(), contentSecurityPolicy: BuyPage.contentSecurityPolicy, found: true)
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
}
