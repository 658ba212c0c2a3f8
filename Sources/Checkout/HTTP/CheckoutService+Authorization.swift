import Foundation
import Hummingbird
import PassWebService
import PaymentRequest
import PaymentToken
import HTTPTypes
import Logging

/// `POST /checkout/v1/sessions/{id}/authorize`: verify, decrypt and check the Apple Pay payment, charge it, record
/// the order and issue its passes.
extension CheckoutService {
    /// The contacts of an Apple Pay payment (the token is read separately).
    struct PaymentContacts: Decodable {
        var billingContact: ApplePayPaymentContact?
        var shippingContact: ApplePayPaymentContact?
    }

    @Sendable func authorize(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let session = try await existingSession(context)
        var request = request
        let body: Data
        do {
            body = Data((try await request.collectBody(upTo: configuration.maximumBodySize)).readableBytesView)
        } catch {
            throw CheckoutError.invalid(nil, "request body larger than \(configuration.maximumBodySize) bytes",
                                        status: .contentTooLarge)
        }
        let result = try await authorizePayment(body, session: session)
        return try JSONResponse.make(result)
    }

    /// Runs a whole Apple Pay payment (`{"token": ..., "billingContact": ..., "shippingContact": ...}`) through every
    /// check, the processor and the store.
    /// - Returns: A success with the order; failures are thrown as ``AuthorizationFailure``.
    func authorizePayment(_ body: Data, session: CheckoutSession) async throws -> AuthorizationResult {
        guard session.state == .pending else {
            throw AuthorizationFailure(.conflict, code: "sessionNotPending", "the session is already authorized")
        }
        guard let tokens else {
            throw AuthorizationFailure(.serviceUnavailable, code: "notConfigured",
                                       "no Apple root certificate or payment-processing key is configured")
        }
        let token: ApplePayPaymentToken
        let contacts: PaymentContacts
        do {
            token = try ApplePayPaymentToken(jsonData: body)
            contacts = try JSONDecoder().decode(PaymentContacts.self, from: body)
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description, error.reason)
        } catch {
            throw AuthorizationFailure(.badRequest, code: "malformedToken", "billingContact or shippingContact is malformed")
        }
        let builder = try pricing.builder(for: session)
        let lineItems = try builder.lineItems()
        let total = builder.total(for: lineItems)
        guard !total.isPending, let amount = total.amountValue else {
            throw AuthorizationFailure(.conflict, code: "totalPending",
                                       "the total is still pending: send the shipping contact first")
        }
        try checkContacts(contacts, session: session)

        do {
            _ = try tokens.verifier.verify(token, now: now())
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description, error.reason)
        }
        let transaction = token.header.transactionIdHex
        guard try await store.insertTransactionIdentifier(transaction, sessionId: session.id, at: now()) else {
            logger.warning("replayed Apple Pay transaction refused", metadata: ["session": "\(session.id)"])
            throw AuthorizationFailure(.conflict, code: "transactionReplayed",
                                       "this payment token's transaction identifier has already been used")
        }
        do {
            try token.verifyApplicationData(session.applicationData)
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.unprocessableContent, code: error.code.description, error.reason)
        }
        let payment: DecryptedPaymentData
        do {
            payment = try tokens.decryptor.decrypt(token)
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description, error.reason)
        }
        let currency = pricing.currency
        guard payment.currencyCode == CurrencyNumericCode.numeric(currency.code) else {
            throw AuthorizationFailure(.unprocessableContent, code: "currencyMismatch",
                                       "the token is in currency \(payment.currencyCode ?? "(none)"), the session in "
                                           + "\(currency.code) (\(CurrencyNumericCode.numeric(currency.code) ?? "?"))")
        }
        let minorUnits = MinorUnits.amount(amount, currency: currency)
        guard payment.transactionAmount == minorUnits else {
            throw AuthorizationFailure(.unprocessableContent, code: "amountMismatch",
                                       "the token authorizes \(payment.transactionAmount.map { "\($0)" } ?? "no amount") "
                                           + "minor units, the session total is \(minorUnits)")
        }

        let orderId = Identifiers.make(prefix: "ord_")
        let outcome = try await processor.process(PaymentProcessingRequest(
            sessionId: session.id, orderId: orderId, amount: amount, currencyCode: currency.code, paymentData: payment,
            paymentMethod: token.paymentMethod, transactionIdentifier: transaction))
        guard outcome.approved else {
            throw AuthorizationFailure(HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), code: "declined", outcome.message ?? "the payment was declined")
        }
        var order = CheckoutOrder(
            id: orderId, sessionId: session.id, createdAt: now(), status: outcome.status, currencyCode: currency.code,
            total: amount, lineItems: lineItems, items: session.items,
            payment: .init(network: token.paymentMethod?.network ?? "Card", lastFour: payment.lastFour,
                           type: token.paymentMethod?.type, transactionIdentifier: transaction,
                           processorReference: outcome.reference))
        order.shippingMethod = try pricing.requiresShipping(session) ? builder.selectedShippingOption()?.identifier : nil
        order.couponCode = session.couponCode
        order.billingContact = contacts.billingContact
        order.shippingContact = contacts.shippingContact
        await issuePasses(for: &order)
        var authorized = session
        authorized.state = .authorized
        authorized.orderId = orderId
        guard try await store.completeAuthorization(order: order, session: authorized) else {
            throw AuthorizationFailure(.conflict, code: "sessionNotPending", "the session was authorized meanwhile")
        }
        logger.info("checkout order authorized", metadata: [
            "order": "\(orderId)", "session": "\(session.id)", "payment": "\(order.payment.displayName)",
            "total": "\(Money(amount, currency))",
        ])
        return .success(orderId: orderId, orderURL: "/checkout/v1/orders/\(orderId)")
    }

    /// The payment's contacts must have the fields the sheet asked for, and the address must be served.
    private func checkContacts(_ contacts: PaymentContacts, session: CheckoutSession) throws {
        if pricing.requiresShipping(session) {
            let contact = contacts.shippingContact ?? ApplePayPaymentContact()
            if let field = ContactRequirements.missing(merchant.requiredShippingContactFields, in: contact) {
                throw AuthorizationFailure(.unprocessableContent, code: "shippingContactInvalid",
                                           "shippingContact: \(field.rawValue) is required",
                                           errors: [ApplePayError(code: .shippingContactInvalid, contactField: field)])
            }
            if let problem = ShippingRegions(merchant.shippingRegions).problem(with: RedactedContact(contact)) {
                throw AuthorizationFailure(.unprocessableContent, code: problem.code.rawValue,
                                           "shippingContact: \(problem.message ?? "not served")", errors: [problem])
            }
        }
        let billing = contacts.billingContact ?? ApplePayPaymentContact()
        if let field = ContactRequirements.missing(merchant.requiredBillingContactFields, in: billing) {
            throw AuthorizationFailure(.unprocessableContent, code: "billingContactInvalid",
                                       "billingContact: \(field.rawValue) is required",
                                       errors: [ApplePayError(code: .billingContactInvalid, contactField: field)])
        }
    }
}

/// Amounts in minor units, as decrypted payment data carries them.
enum MinorUnits {
    static func amount(_ value: Decimal, currency: Currency) -> Decimal {
        var scaled = value
        for _ in 0..<currency.minorUnits { scaled *= 10 }
        return Money(scaled, Currency(code: "JPY")!).rounded.amount
    }
}

/// Which contact field a required field list finds missing.
enum ContactRequirements {
    static func missing(_ required: [ContactField], in contact: ApplePayPaymentContact) -> ApplePayError.ContactField? {
        func empty(_ value: String?) -> Bool { value?.trimmingCharacters(in: .whitespaces).isEmpty ?? true }
        for field in required {
            switch field {
            case .name where empty(contact.givenName) && empty(contact.familyName): return .name
            case .email where empty(contact.emailAddress): return .emailAddress
            case .phone where empty(contact.phoneNumber): return .phoneNumber
            case .postalAddress:
                if (contact.addressLines ?? []).allSatisfy({ empty($0) }) { return .addressLines }
                if empty(contact.locality) { return .locality }
                if empty(contact.countryCode) { return .countryCode }
            default: continue
            }
        }
        return nil
    }
}
