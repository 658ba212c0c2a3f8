import Foundation
import PaymentRequest

/// `GET /checkout/sheet/{sessionId}`: the browser payment sheet.
extension CheckoutService {
    /// The browser payment sheet of a session, with the Content-Security-Policy it needs.
    /// - Parameter session: The session (``session(id:credentials:)``).
    /// - Returns: The page.
    /// - Throws: A `PaymentRequestError` when the session cannot be offered on Apple Pay.
    public func sheetPage(for session: CheckoutSession) throws -> CheckoutPage {
        let page = SheetPage(bootstrap: .init(
            sessionId: session.id, state: session.state.rawValue, orderId: session.orderId,
            merchantLine: merchant.merchantName.totalLabel, currencyCode: pricing.currency.code,
            shippingMethodOrder: merchant.shippingMethods.map(\.identifier),
            paymentRequest: try pricing.paymentRequest(for: session), shippingContact: session.shippingContact,
            developmentMode: development != nil, applePayJSSDK: merchant.applePayJSSDK, apiBase: "/checkout/v1",
            clientSecret: session.clientSecret ?? "",
            shippingAddressProblem: pricing.requiresShipping(session) ? session.shippingAddressProblem : nil,
            paymentStep: merchant.paymentStep, currencyDigits: pricing.currency.minorUnits))
        return CheckoutPage(html: try page.html(), contentSecurityPolicy: page.contentSecurityPolicy, found: true)
    }
}
