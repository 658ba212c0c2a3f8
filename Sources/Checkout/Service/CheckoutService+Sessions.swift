import HTTPTypes
import Crypto
public import Foundation
import PaymentRequest
import Logging
import PassCrypto

/// `POST /checkout/v1/sessions` and `GET /checkout/v1/sessions/{id}`.
extension CheckoutService {
    func cartLineView(_ line: CartLine) -> CartLineView {
        let money = { (value: Decimal) in Money(value, self.pricing.currency).string }
        return CartLineView(sku: line.sku, name: line.name, quantity: line.quantity, unitPrice: money(line.unitPrice),
                            amount: money(line.amount))
    }

    /// The session as the API shows it; `private` leaves out what only its buyer and the merchant may see (the
    /// client secret, the redacted address, the order), for a replayed creation without the API key.
    func view(_ session: CheckoutSession, paymentRequest: ApplePayPaymentRequest? = nil, private: Bool = true) throws
        -> SessionView
    {
        let secret = `private` ? session.clientSecret : nil
        let query = secret.map { "?clientSecret=\($0)" } ?? ""
        return SessionView(
            id: session.id, state: session.state.rawValue, createdAt: ISO8601.string(session.createdAt),
            expiresAt: ISO8601.string(expiresAt(session)), currencyCode: pricing.currency.code,
            items: session.items.map(cartLineView),
            selectedShippingMethod: session.selectedShippingMethod,
            shippingContact: `private` ? session.shippingContact : nil,
            couponCode: session.couponCode, orderId: `private` ? session.orderId : nil,
            paymentRequest: try paymentRequest ?? pricing.paymentRequest(for: session),
            sheetURL: "/checkout/sheet/\(session.id)\(query)", clientSecret: secret)
    }

    /// Creates a session from a cart, or answers the one the same `Idempotency-Key` created with the same body.
    /// - Parameters:
    ///   - body: The decoded request.
    ///   - raw: Its bytes, whose canonical form (keys sorted) is hashed to tell a replay from a reuse of the key.
    ///   - idempotencyKey: The caller's key for this checkout (1-255 printable ASCII characters).
    ///   - fromMerchant: What ``isMerchant(_:)`` answered for the request: free-form prices need the merchant.
    /// - Returns: The session shown; a replay shows the buyer's details and the secret only to the merchant.
    /// - Throws: ``CheckoutError`` naming the field at fault (400, 401 `apiKeyRequired`, 409 `idempotencyConflict`,
    ///   422).
    public func createSession(_ body: CreateSessionRequest, raw: Data, idempotencyKey key: String,
                              fromMerchant: Bool) async throws -> CreatedSession {
        // The body's canonical form (keys sorted) is hashed, so the same JSON sent again matches whatever its key order.
        let canonical = (try? JSONSerialization.jsonObject(with: raw))
            .flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .withoutEscapingSlashes]) } ?? raw
        let hash = Hex.encode(SHA256.hash(data: canonical))
        // A repeat is answered with the stored session before the request is checked again: a coupon that expired,
        // or a product taken out of the catalogue since, must not turn a retried creation into a refusal.
        if let existing = try await store.session(idempotencyKey: key) {
            return try replay(existing, hash: hash, fromMerchant: fromMerchant)
        }
        var session = CheckoutSession(id: Identifiers.make(prefix: "cs_"), idempotencyKey: key, requestHash: hash,
                                      createdAt: now(), items: try cartLines(body, fromMerchant: fromMerchant))
        session.clientSecret = CheckoutAccess.makeSecret()
        session.createdByMerchant = fromMerchant
        if let summary = body.summary {
            guard body.items == nil else { throw CheckoutError.invalid("summary", "give either items or summary, not both") }
            guard fromMerchant else { throw Self.apiKeyRequired("summary") }
            session.summary = PricedSummary(subtotal: try amount(summary.subtotal, field: "summary.subtotal"),
                                            tax: try summary.tax.map { try amount($0, field: "summary.tax") },
                                            requiresShipping: summary.requiresShipping ?? true)
        }
        if let method = body.shippingMethod {
            guard pricing.requiresShipping(session), merchant.shippingMethods.contains(where: { $0.identifier == method }) else {
                throw CheckoutError.invalid("shippingMethod", "no shipping method \"\(method)\"", status: .unprocessableContent)
            }
            session.selectedShippingMethod = method
        }
        if let code = body.couponCode, !code.isEmpty {
            switch pricing.coupon(code) {
            case .valid(let coupon):
                session.couponCode = coupon.code
                session.couponAppliedAt = now()
            case .expired: throw CheckoutError.invalid("couponCode", "the coupon has expired", status: .unprocessableContent)
            case .invalid: throw CheckoutError.invalid("couponCode", "no such coupon", status: .unprocessableContent)
            }
        }
        try checkLimit(session, field: body.summary != nil ? "summary" : "items")
        try reprice(&session)
        // Built before anything is stored, so a session whose request cannot be built is never half-created.
        let paymentRequest: ApplePayPaymentRequest
        do {
            paymentRequest = try pricing.paymentRequest(for: session)
        } catch let error as PaymentRequestError {
            throw CheckoutError.invalid(body.summary != nil ? "summary" : "items",
                                        "cannot be offered on Apple Pay: \(error.reason)", status: .unprocessableContent)
        }
        switch try await store.insertSession(session) {
        case .created(let created):
            logger.info("checkout session created", metadata: ["session": "\(created.id)"])
            return CreatedSession(view: try view(created, paymentRequest: paymentRequest), replayed: false)
        case .existing(let existing):
            // Another request with the key was stored since the lookup above.
            return try replay(existing, hash: hash, fromMerchant: fromMerchant)
        }
    }

    /// The session an `Idempotency-Key` created, answered again: refused when the body differs or the key was first
    /// used by the other kind of caller.
    private func replay(_ existing: CheckoutSession, hash: String, fromMerchant: Bool) throws -> CreatedSession {
        guard existing.requestHash == hash else {
            throw CheckoutError(.idempotencyConflict, status: .conflict,
                                "this Idempotency-Key was used with a different request body", field: "Idempotency-Key")
        }
        // Keys are not secret: an anonymous caller that took a key the merchant's server uses first must not have
        // the merchant's checkout answered with its session (whose client secret it holds), nor the reverse.
        guard existing.createdByMerchant.map({ $0 == fromMerchant }) ?? true else {
            throw CheckoutError(.idempotencyConflict, status: .conflict,
                                "this Idempotency-Key was used by another caller (with or without the API key)",
                                field: "Idempotency-Key")
        }
        // A replay shows the buyer's details and the secret only to the merchant: an Idempotency-Key is no credential.
        return CreatedSession(view: try view(existing, private: fromMerchant), replayed: true)
    }

    /// A session as the API shows it, to its buyer (the client secret) or the merchant.
    /// - Parameters:
    ///   - id: The session identifier.
    ///   - credentials: What the request gave.
    /// - Returns: The session, with its payment request as it stands.
    /// - Throws: ``CheckoutError`` `notFound` or `unauthorized`.
    public func sessionView(id: String, credentials: CheckoutCredentials) async throws -> SessionView {
        try view(try await session(id: id, credentials: credentials))
    }

    /// Recomputes the session's total from its state.
    func reprice(_ session: inout CheckoutSession) throws {
        let builder = try pricing.builder(for: session)
        let total = builder.total(for: try builder.lineItems())
        session.total = total.amountValue ?? 0
        session.totalPending = total.isPending
    }

    /// Free-form items and summaries carry the caller's own prices: only the merchant's server may send them.
    static func apiKeyRequired(_ field: String) -> CheckoutError {
        CheckoutError(.apiKeyRequired, status: .unauthorized,
                      "prices set by the caller need the merchant's API key (Authorization: Bearer); "
                          + "without it, give catalogue items as {\"sku\", \"quantity\"}", field: field)
    }

    private func cartLines(_ body: CreateSessionRequest, fromMerchant: Bool) throws -> [CartLine] {
        guard let items = body.items else {
            guard body.summary != nil else { throw CheckoutError.invalid("items", "give items or an already-priced summary") }
            return []
        }
        guard !items.isEmpty, items.count <= 100 else { throw CheckoutError.invalid("items", "must hold 1 to 100 items") }
        return try items.enumerated().map { index, item in
            let field = "items[\(index)]"
            guard (1...1000).contains(item.quantity) else {
                throw CheckoutError.invalid("\(field).quantity", "must be 1 to 1000", status: .unprocessableContent)
            }
            if let sku = item.sku {
                guard let product = merchant.products[sku] else {
                    throw CheckoutError.invalid("\(field).sku", "no product \"\(sku)\"", status: .unprocessableContent)
                }
                if let given = item.unitPrice, try amount(given, field: "\(field).unitPrice") != product.unitPrice {
                    throw CheckoutError.invalid("\(field).unitPrice", "does not match the catalogue price of \(sku)",
                                                status: .unprocessableContent)
                }
                return CartLine(sku: sku, name: product.name, quantity: item.quantity, unitPrice: product.unitPrice,
                                requiresShipping: product.requiresShipping)
            }
            guard fromMerchant else { throw Self.apiKeyRequired(field) }
            guard let name = item.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty, name.count <= 200 else {
                throw CheckoutError.invalid("\(field).name", "is required (1-200 characters) when there is no sku")
            }
            // Shown on the sheet, the order and the Wallet order: no line breaks or other control characters (a NUL
            // is refused by PostgreSQL's jsonb, which would fail the session there and not on SQLite).
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw CheckoutError.invalid("\(field).name", "must not hold control characters (line breaks, tabs, NUL)")
            }
            guard let price = item.unitPrice else {
                throw CheckoutError.invalid("\(field).unitPrice", "is required when there is no sku")
            }
            return CartLine(name: name, quantity: item.quantity, unitPrice: try amount(price, field: "\(field).unitPrice"))
        }
    }

    /// A non-negative decimal string with at most the currency's minor units, no more than Apple Pay's largest total.
    func amount(_ text: String, field: String) throws -> Decimal {
        guard let value = AmountString.decimal(text), value >= 0,
              (AmountString.fractionDigits(text) ?? 0) <= pricing.currency.minorUnits else {
            throw CheckoutError.invalid(field, "must be an amount such as \"12.50\" with at most "
                                            + "\(pricing.currency.minorUnits) decimals", status: .unprocessableContent)
        }
        guard value <= ApplePayLimits.maximumTotal else {
            throw CheckoutError.invalid(field, "must not be more than \(ApplePayLimits.maximumTotal), Apple Pay's largest "
                                            + "total", status: .unprocessableContent)
        }
        return value
    }

    /// Refuses a session whose total could pass Apple Pay's largest total on the sheet (with the dearest shipping
    /// method and its tax), before anything is stored.
    func checkLimit(_ session: CheckoutSession, field: String) throws {
        let highest = pricing.highestTotal(for: session)
        guard highest <= ApplePayLimits.maximumTotal else {
            throw CheckoutError.invalid(field, "the total can reach \(Money(highest, pricing.currency).string), more than "
                                            + "\(ApplePayLimits.maximumTotal), Apple Pay's largest total",
                                        status: .unprocessableContent)
        }
    }

    /// Deletes the abandoned carts: sessions never paid that expired more than
    /// ``Configuration/abandonedSessionRetention`` ago, a thousand at a time until none is left. Paid sessions, and
    /// sessions an authorization holds, are kept.
    /// - Returns: How many were deleted.
    @discardableResult
    public func deleteAbandonedSessions() async -> Int {
        let cutoff = now().addingTimeInterval(-(configuration.sessionLifetime + configuration.abandonedSessionRetention))
        var deleted = 0
        do {
            while !Task.isCancelled {
                let count = try await store.deleteAbandonedSessions(lastChangedBefore: cutoff, limit: 1_000)
                deleted += count
                if count < 1_000 { break }
            }
        } catch {
            logger.error("abandoned checkout sessions could not be deleted", metadata: ["error": "\(error)"])
        }
        if deleted > 0 { logger.info("abandoned checkout sessions deleted", metadata: ["count": "\(deleted)"]) }
        return deleted
    }
}
