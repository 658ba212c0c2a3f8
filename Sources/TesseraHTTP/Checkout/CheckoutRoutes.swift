public import Checkout
import HTTPTypes
public import Hummingbird

extension CheckoutService {
    /// Adds the checkout routes: `/checkout/v1/...` (JSON API), `/checkout/sheet/{sessionId}` (payment page) and
    /// `/checkout/buy/{sku}` (a product's page); `/checkout/v1/sessions/{id}/test-authorize` only in development mode.
    /// Every failure is answered with the ``ErrorEnvelope``, except an authorization's, which is Apple Pay's result.
    /// - Parameter router: The server's router.
    public func addRoutes(to router: some RouterMethods<WebServiceRequestContext>) {
        let routes = CheckoutRoutes(checkout: self)
        let v1 = router.group("checkout/v1").add(middleware: CheckoutErrorMiddleware(logger: logger))
        v1.post("sessions", use: routes.createSession)
        v1.get("sessions/:id", use: routes.readSession)
        v1.post("sessions/:id/shipping-method", use: routes.shippingMethod)
        v1.post("sessions/:id/shipping-contact", use: routes.shippingContact)
        v1.post("sessions/:id/coupon-code", use: routes.couponCode)
        v1.post("sessions/:id/payment-method", use: routes.paymentMethod)
        v1.post("sessions/:id/authorize", use: routes.authorize)
        v1.post("merchant-validation", use: routes.validateMerchant)
        v1.get("orders/:id", use: routes.readOrder)
        v1.get("orders/:id/pkpasses", use: routes.orderPasses)
        if acceptsTestPayments { v1.post("sessions/:id/test-authorize", use: routes.testAuthorize) }
        router.group("checkout/sheet").add(middleware: CheckoutErrorMiddleware(logger: logger))
            .get(":id", use: routes.sheet)
        router.group("checkout/buy").add(middleware: CheckoutErrorMiddleware(logger: logger))
            .get(":sku", use: routes.buyPage)
    }
}

/// The checkout's HTTP handlers: each reads the path, headers and body, calls ``CheckoutService`` with domain values
/// and writes its answer. The groups of handlers are in `CheckoutRoutes+*.swift`.
struct CheckoutRoutes: Sendable {
    /// The client secret's header.
    static let secretHeader = HTTPField.Name("Checkout-Client-Secret")!

    let checkout: CheckoutService
    /// Merchant validations per client: each is a mutual-TLS call to Apple with the merchant identity, needed once
    /// per Apple Pay sheet, and the route takes no credential (a merchant's own Apple Pay page calls it too).
    let merchantValidationLimiter: RateLimiter
    /// Sessions created without the merchant's API key, per client: each is a stored row
    /// (``CheckoutService/Configuration/anonymousSessionsPerMinute``); `nil` is no limit.
    let anonymousSessionLimiter: RateLimiter?

    init(checkout: CheckoutService) {
        self.checkout = checkout
        merchantValidationLimiter = RateLimiter(burst: checkout.configuration.merchantValidationBurst,
                                                perMinute: checkout.configuration.merchantValidationsPerMinute)
        let perMinute = checkout.configuration.anonymousSessionsPerMinute
        anonymousSessionLimiter = perMinute > 0 ? RateLimiter(burst: perMinute, perMinute: perMinute) : nil
    }

    /// The largest body a checkout request may have.
    var bodyLimit: Int { checkout.configuration.maximumBodySize }

    /// What the request gives to be allowed: the API key of `Authorization: Bearer <key>` (read as the issuer API
    /// reads its token, ``Secrets/credential(scheme:in:)``), and the client secret from its header or, for a plain
    /// link, the `clientSecret` query parameter.
    static func credentials(_ request: Request) -> CheckoutCredentials {
        let header = request.headers[.authorization]
        let apiKey: CheckoutCredentials.APIKey = if let key = Secrets.credential(scheme: "Bearer", in: header) {
            .given(String(key))
        } else {
            header == nil ? .none : .unusable
        }
        return CheckoutCredentials(
            apiKey: apiKey, clientSecret: request.headers[secretHeader] ?? request.uri.formQueryParameters.get("clientSecret"))
    }

    /// The `:id` path parameter.
    static func id(_ context: WebServiceRequestContext) throws -> String {
        try context.parameters.require("id")
    }
}
