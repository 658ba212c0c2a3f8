import HTTPTypes
public import Foundation
import PassModel
import PassStore
import PaymentRequest
import Logging

/// `GET /checkout/v1/orders/{id}`, order passes, `POST /checkout/v1/merchant-validation` and the development-mode
/// test authorization.
extension CheckoutService {
    /// An order as its confirmation shows it; a Wallet order that could not be issued at authorization is issued now.
    /// - Parameters:
    ///   - id: The order identifier.
    ///   - credentials: Its session's client secret or the merchant's API key.
    /// - Returns: The order.
    /// - Throws: ``CheckoutError`` `notFound` or `unauthorized`.
    public func orderView(id: String, credentials: CheckoutCredentials) async throws -> OrderView {
        guard Identifiers.isPlausible(id), let stored = try await store.order(id: id) else {
            throw CheckoutError.notFound("order")
        }
        // The order is the buyer's: its session's client secret or the merchant's API key reads it.
        guard let session = try await store.session(id: stored.sessionId) else { throw CheckoutError.notFound("order") }
        try checkAccess(to: session, credentials)
        // A Wallet order that could not be issued at authorization is issued now.
        let order = await withWalletOrder(stored)
        let money = { (value: Decimal) in Money(value, self.pricing.currency).string }
        return OrderView(
            id: order.id, sessionId: order.sessionId, status: order.status, createdAt: ISO8601.string(order.createdAt),
            currencyCode: order.currencyCode, total: money(order.total), lineItems: order.lineItems,
            items: order.items.map(cartLineView),
            shippingMethod: order.shippingMethod, couponCode: order.couponCode,
            payment: .init(method: (order.payment.method ?? .applePay).rawValue, displayName: order.payment.displayName, network: order.payment.network,
                           lastFour: order.payment.lastFour, type: order.payment.type),
            billingContact: order.billingContact, shippingContact: order.shippingContact, passes: order.passes,
            notes: order.notes, walletOrder: order.walletOrder)
    }

    /// Whether any item of the order has a product with a pass template (then its passes are queued).
    func owesPasses(_ order: CheckoutOrder) -> Bool {
        order.items.contains { item in item.sku.flatMap { merchant.products[$0]?.passTemplate } != nil }
    }

    /// Issues one pass per unit of every item whose product has a pass template; refusals become notes. Serial
    /// numbers are `<order id>-<n>`, so issuing again (after a crash, or a failure of the moment) finds the passes
    /// already made instead of making new ones.
    /// - Returns: Whether every pass was issued or refused for good; `false` when one failed for the moment (the
    ///   order is to be issued again).
    @discardableResult
    func issuePasses(for order: inout CheckoutOrder) async -> Bool {
        var settled = true
        var number = 0
        order.passes = []
        order.notes = []
        for item in order.items {
            guard let sku = item.sku, let product = merchant.products[sku], let template = product.passTemplate else {
                continue
            }
            guard let passIssuer else {
                order.notes.append("no pass issued for \(sku): no pass issuer is configured")
                continue
            }
            for _ in 0..<item.quantity {
                number += 1
                let serial = "\(order.id)-\(number)"
                var fields: [String: JSONValue] = [:]
                for (key, value) in product.passFields ?? [:] {
                    fields[key] = .string(value.replacingOccurrences(of: "{orderId}", with: order.id)
                        .replacingOccurrences(of: "{itemName}", with: item.name)
                        .replacingOccurrences(of: "{sku}", with: sku)
                        .replacingOccurrences(of: "{number}", with: String(number)))
                }
                var data: [String: JSONValue] = ["serialNumber": .string(serial), "barcodeMessage": .string(serial)]
                if !fields.isEmpty { data["fields"] = .object(fields) }
                do {
                    let pass = try await passIssuer.issueOrderPass(template: template, serialNumber: serial, data: data)
                    order.passes.append(.init(sku: sku, template: template, passTypeIdentifier: pass.passTypeIdentifier,
                                              serialNumber: pass.serialNumber, downloadURL: pass.downloadURL))
                } catch let refusal as OrderPassRefused {
                    logger.error("order pass refused", metadata: ["order": "\(order.id)", "error": "\(refusal)"])
                    order.notes.append("no pass issued for \(sku) #\(number)")
                } catch {
                    logger.warning("order pass not issued for now; tried again", metadata: [
                        "order": "\(order.id)", "error": "\(error)",
                    ])
                    order.notes.append("no pass issued for \(sku) #\(number)")
                    settled = false
                }
            }
        }
        return settled
    }

    /// Validates the merchant with Apple for Apple Pay JS's `onvalidatemerchant`.
    /// - Parameter body: Apple's validation URL, which must be one of Apple's hosts.
    /// - Returns: Apple's merchant session, as Apple sent it.
    /// - Throws: ``CheckoutError`` `merchantValidationRefused` (400), `merchantValidationFailed` (502, or 503 when no
    ///   merchant identity is configured).
    public func merchantSession(_ body: MerchantValidationRequest) async throws -> Data {
        guard let merchantValidator else {
            // Check the URL anyway so a refused host is reported as such.
            _ = try MerchantValidationHosts.check(body.validationURL, allowed: merchant.merchantValidationHosts)
            throw CheckoutError(.merchantValidationFailed, status: .serviceUnavailable,
                                "merchant validation is not configured (merchantIdentity)")
        }
        return try await merchantValidator.merchantSession(validationURL: body.validationURL)
    }

    /// Development mode only: pays the session with a token made by the development hierarchy, through exactly the
    /// same path as a real payment. The body may carry `billingContact` and `shippingContact`.
    /// - Parameters:
    ///   - raw: The request body: empty, or a JSON object.
    ///   - session: The session paid (``session(id:credentials:)``).
    /// - Returns: The authorization result, as ``authorizePayment(_:session:)`` answers it.
    /// - Throws: ``CheckoutError`` (`notFound` outside development mode, `invalidRequest` for a body that is not a
    ///   JSON object) or ``AuthorizationFailure``.
    public func authorizeTestPayment(_ raw: Data, session: CheckoutSession) async throws -> AuthorizationResult {
        guard let development else { throw CheckoutError.notFound("endpoint") }
        let object = raw.isEmpty ? [:] : (try? JSONValue(jsonData: raw))?.objectValue
        guard let object else { throw CheckoutError.invalid(nil, "request body is not a JSON object") }
        let builder = try pricing.builder(for: session)
        let total = builder.total(for: try builder.lineItems())
        // The total the sheet showed as Pay was tapped, as a card payment confirms it: one an update changed since is
        // refused, not charged.
        if let shown = object["amount"], shown != .null {
            guard let text = shown.stringValue, let confirmed = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                  !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
            else { throw CheckoutError.invalid("amount", "must be a decimal amount in a string, as the total's") }
            if !total.isPending, let amount = total.amountValue, confirmed != amount {
                throw AuthorizationFailure(.unprocessableContent, code: "amountMismatch",
                                           "The total changed. Please check the order and pay again.",
                                           detail: "the payment confirms \(text), the session total is "
                                               + Money(amount, pricing.currency).string)
            }
        }
        let payment = try development.payment(
            minorUnits: MinorUnits.amount(total.amountValue ?? 0, currency: pricing.currency),
            currencyNumeric: pricing.currency.numericCode,
            applicationData: session.applicationData, at: now(),
            billingContact: object["billingContact"], shippingContact: object["shippingContact"])
        return try await authorizePayment(payment, session: session)
    }
}
