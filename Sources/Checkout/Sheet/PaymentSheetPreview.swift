import Foundation
public import PaymentRequest

/// The browser payment sheet for a payment request on its own, with no session or server behind it: the page
/// `GET /checkout/sheet/{sessionId}` serves, rendered for review (`tessera pay sheet --format html`).
public enum PaymentSheetPreview {
    /// The page's content security policy, carried in the page itself: inline script and style, no requests at all.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'"

    /// Renders the sheet for `request`.
    /// - Parameter request: The payment request; its total's label is the merchant line ("Pay *label*").
    /// - Returns: A self-contained HTML page: the rows, line items and pay button the buyer would see, opening their
    ///   pickers as on the live sheet, with nothing sent anywhere and the pay button disabled.
    /// - Throws: An encoding error if the request cannot be written as JSON.
    public static func html(for request: ApplePayPaymentRequest) throws -> String {
        let page = SheetPage(bootstrap: .init(
            sessionId: "preview", state: "preview", orderId: nil, merchantLine: request.total.label,
            currencyCode: request.currencyCode, shippingMethodOrder: (request.shippingMethods ?? []).map(\.identifier),
            paymentRequest: request, shippingContact: nil, developmentMode: false, applePayJSSDK: false,
            apiBase: "", clientSecret: "", currencyDigits: Currency(code: request.currencyCode)?.minorUnits))
        return try page.html()
    }
}
