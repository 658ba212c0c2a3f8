public import Foundation
import PaymentRequest
import PaymentToken
import HTTPTypes
import Logging

/// `POST /checkout/v1/sessions/{id}/authorize`: verify, decrypt and check the Apple Pay payment (or take the sheet's
/// card payment step's gateway token), charge it, record the order and issue its passes.
extension CheckoutService {
    /// The contacts of an Apple Pay payment (the token is read separately).
    struct PaymentContacts: Decodable {
        var billingContact: ApplePayPaymentContact?
        var shippingContact: ApplePayPaymentContact?
    }

    /// Runs a whole Apple Pay payment (`{"token": ..., "billingContact": ..., "shippingContact": ...}`) through every
    /// check, claims the session, charges it and records the order.
    ///
    /// Everything that can be checked is checked before the claim (contacts, signature, `applicationData`,
    /// decryption, currency and amount), so a wrong token leaves the session pending and records nothing. The claim
    /// then moves the session to authorizing and records the transaction identifier in one step; only the claimant
    /// reaches the processor.
    /// - Parameters:
    ///   - body: The posted payment, as sent (it is kept with the attempt for recovery).
    ///   - session: The session paid (``session(id:credentials:)``).
    /// - Returns: A success with the order; failures are thrown as ``AuthorizationFailure`` and their details logged
    ///   at debug level.
    public func authorizePayment(_ body: Data, session: CheckoutSession) async throws -> AuthorizationResult {
        do {
            var session = session
            // A claim made from a session read before another payment's decline, or before a sheet update, is made
            // again from the session as it is now (its next attempt number), ten times at most: a session still
            // pending after that many changes in between is answered as busy, never charged from a stale read.
            for _ in 0..<10 {
                do {
                    return try await checkAndClaim(body, session: session)
                } catch is SessionChangedBeforeClaim {
                    guard let current = try await store.session(id: session.id) else { throw AuthorizationFailure.notPending(nil) }
                    session = current
                }
            }
            throw AuthorizationFailure.notPending(.authorizing)
        } catch let failure as AuthorizationFailure {
            logger.debug("checkout authorization refused", metadata: [
                "session": "\(session.id)", "code": "\(failure.result.code ?? "")",
                "detail": "\(failure.detail ?? failure.result.reason ?? "")",
            ])
            throw failure
        }
    }

    /// The session was still pending at the claim but had changed since it was read (another payment's attempt, an
    /// update of the sheet's).
    private struct SessionChangedBeforeClaim: Error {}

    private func checkAndClaim(_ body: Data, session: CheckoutSession) async throws -> AuthorizationResult {
        guard session.state == .pending else { throw AuthorizationFailure.notPending(session.state) }
        guard now() < expiresAt(session) else { throw AuthorizationFailure.sessionExpired }
        let (posted, contacts) = try PostedPayment.parse(body)
        switch posted {
        case .applePay:
            guard tokens != nil else { throw AuthorizationFailure.applePayNotConfigured }
        case .card:
            guard merchant.paymentStep != nil else {
                throw AuthorizationFailure(.unprocessableContent, code: "cardPaymentNotAccepted",
                                           "This shop does not take card payments here.",
                                           detail: "cardPayment was posted but the merchant configures no paymentStep")
            }
        }
        guard !(processor is NoPaymentProcessor) else {
            throw AuthorizationFailure(.serviceUnavailable, code: "notConfigured",
                                       "Payments are not available for this shop at the moment.",
                                       detail: "no paymentProcessor is configured (and developmentMode is off)")
        }
        if pricing.requiresShipping(session), let problem = session.shippingAddressProblem {
            // The sheet's last address is not served: there is no shipping price to charge until one that is.
            throw AuthorizationFailure(.unprocessableContent, code: problem.code.rawValue,
                                       problem.message ?? "We do not ship to this address.", errors: [problem])
        }
        let builder = try pricing.builder(for: session)
        let lineItems = try builder.lineItems()
        let total = builder.total(for: lineItems)
        guard !total.isPending, let amount = total.amountValue else {
            throw AuthorizationFailure(.conflict, code: "totalPending",
                                       "The total is not known yet: please enter the shipping address.")
        }
        try checkContacts(contacts, session: session)
        // A network the merchant does not take is refused here as the sheet's payment-method update refuses it (Apple's
        // sheet offers only the request's networks; a card step's gateway or a hand-made request may not).
        let network: String? = switch posted {
        case .applePay(let token): token.paymentMethod?.network
        case .card(let card): card.network
        }
        if let network, !merchant.supportedNetworks.contains(where: { $0.rawValue.lowercased() == network.lowercased() }) {
            let message = "\(network) cards are not accepted."
            throw AuthorizationFailure(.unprocessableContent, code: "networkNotAccepted", message,
                                       errors: [ApplePayError(code: .unknown, message: message)])
        }
        var payment: DecryptedPaymentData?
        switch posted {
        case .applePay(let token):
            payment = try checkApplePay(token, session: session, minorUnits: MinorUnits.amount(amount, currency: pricing.currency))
        case .card(let card):
            // The total the sheet showed: an update saved after it (a shipping method chosen as Pay was tapped) makes
            // the session's total another, which the buyer has not seen.
            if let confirmed = card.amountValue, confirmed != amount {
                throw AuthorizationFailure(.unprocessableContent, code: "amountMismatch",
                                           "The total changed. Please check the order and pay again.",
                                           detail: "the card payment confirms \(card.amount ?? ""), the session total is "
                                               + Money(amount, pricing.currency).string)
            }
        }

        // The claim: pending → authorizing and the transaction identifier, together, before anything irreversible.
        let attempt = (session.authorizationAttempts ?? 0) + 1
        let transaction = posted.transactionIdentifier
        let hasDiscount = lineItems.contains { ($0.amountValue ?? 0) < 0 }
        var claimed = session.nextRevision()
        claimed.state = .authorizing
        claimed.authorizationAttempts = attempt
        claimed.authorization = AuthorizationAttempt(
            orderId: Identifiers.make(prefix: "ord_"), idempotencyKey: "\(session.id)-\(attempt)",
            transactionIdentifier: transaction, startedAt: now(), total: amount, lineItems: lineItems,
            shippingMethod: try pricing.requiresShipping(session) ? builder.selectedShippingOption()?.identifier : nil,
            couponCode: hasDiscount ? session.couponCode : nil, payment: body)
        switch try await store.claimAuthorization(claimed, transactionIdentifier: transaction, holder: instance,
                                                  at: now()) {
        case .claimed: break
        case .notPending(.pending?): throw SessionChangedBeforeClaim()
        case .notPending(let state): throw AuthorizationFailure.notPending(state)
        case .transactionReplayed:
            logger.warning("replayed payment refused", metadata: ["session": "\(session.id)"])
            throw AuthorizationFailure(.conflict, code: "transactionReplayed",
                                       "This payment has already been used. Please pay again.",
                                       detail: "transaction identifier \(transaction) was recorded before")
        }
        return try await settle(claimed, posted: posted, payment: payment, contacts: contacts)
    }

    /// Verifies an Apple Pay token's signature and its binding to the session and, unless the processor takes the
    /// encrypted token, decrypts it and checks its currency and amount.
    /// - Returns: The decrypted payment, or `nil` when the processor decrypts it.
    private func checkApplePay(_ token: ApplePayPaymentToken, session: CheckoutSession,
                               minorUnits: Decimal) throws -> DecryptedPaymentData? {
        guard let tokens else { throw AuthorizationFailure.applePayNotConfigured }
        do {
            _ = try tokens.verifier.verify(token, now: now())
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description,
                                       "The payment could not be verified. Please try again.", detail: error.reason)
        }
        do {
            // The buy page's request is built before the session exists, from the key the session is then created with.
            if !token.matchesApplicationData(session.idempotencyKeyApplicationData) {
                try token.verifyApplicationData(session.applicationData)
            }
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.unprocessableContent, code: error.code.description,
                                       "This payment was made for another checkout.", detail: error.reason)
        }
        guard !processor.forwardsEncryptedToken else { return nil }
        let decrypted = try decrypt(token)
        try checkAmount(decrypted, minorUnits: minorUnits)
        try checkScheme(of: decrypted, named: token.paymentMethod?.network)
        return decrypted
    }

    /// The token's `paymentMethod.network` is outside Apple's signature: a hand-made request could name a network
    /// the merchant takes (or none) for a card of one it does not. Once decrypted, the account number's own scheme
    /// (``PaymentNetwork/scheme(ofAccountNumber:)``) must be taken, unless the network named is a domestic one such a
    /// number may also carry (Cartes Bancaires on a Visa number), which was checked as named.
    private func checkScheme(of payment: DecryptedPaymentData, named: String?) throws {
        guard let scheme = PaymentNetwork.scheme(ofAccountNumber: payment.applicationPrimaryAccountNumber, named: named)
        else { return }
        guard !merchant.supportedNetworks.contains(where: { $0.rawValue.lowercased() == scheme.rawValue.lowercased() }) else {
            return
        }
        let message = "\(scheme.schemeName ?? scheme.rawValue) cards are not accepted."
        throw AuthorizationFailure(.unprocessableContent, code: "networkNotAccepted", message,
                                   detail: "the token names \(named ?? "no network"); its account number is \(scheme.rawValue)'s",
                                   errors: [ApplePayError(code: .unknown, message: message)])
    }

    /// The decrypted payment must be in the session's currency and for its total.
    private func checkAmount(_ payment: DecryptedPaymentData, minorUnits: Decimal) throws {
        let currency = pricing.currency
        guard payment.currencyCode == currency.numericCode else {
            throw AuthorizationFailure(.unprocessableContent, code: "currencyMismatch",
                                       "The payment's currency does not match the order. Please try again.",
                                       detail: "the token is in currency \(payment.currencyCode ?? "(none)"), the "
                                           + "session in \(currency.code)")
        }
        guard payment.transactionAmount == minorUnits else {
            throw AuthorizationFailure(.unprocessableContent, code: "amountMismatch",
                                       "The amount paid does not match the order total. Please try again.",
                                       detail: "the token authorizes \(payment.transactionAmount.map { "\($0)" } ?? "none") "
                                           + "minor units, the session total is \(minorUnits)")
        }
    }

    /// The posted payment's token and contacts.
    static func parsePayment(_ body: Data) throws -> (ApplePayPaymentToken, PaymentContacts) {
        do {
            return (try ApplePayPaymentToken(jsonData: body), try JSONDecoder().decode(PaymentContacts.self, from: body))
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description,
                                       "The payment could not be read. Please try again.", detail: error.reason)
        } catch {
            throw AuthorizationFailure(.badRequest, code: "malformedToken",
                                       "The payment's contact details could not be read.",
                                       detail: "billingContact or shippingContact is malformed: \(error)")
        }
    }

    /// The token decrypted with the payment-processing key its `publicKeyHash` names.
    func decrypt(_ token: ApplePayPaymentToken) throws -> DecryptedPaymentData {
        guard let decryptor = tokens?.decryptor else {
            throw AuthorizationFailure(.serviceUnavailable, code: "notConfigured",
                                       "Apple Pay is not available for this shop at the moment.")
        }
        do {
            return try decryptor.decrypt(token)
        } catch let error as PaymentTokenError {
            throw AuthorizationFailure(.badRequest, code: error.code.description,
                                       "The payment could not be read. Please try again.", detail: error.reason)
        }
    }

    /// The payment's contacts must have the fields the sheet asked for, and the address must be served.
    private func checkContacts(_ contacts: PaymentContacts, session: CheckoutSession) throws {
        // Goods that do not ship still need the name, email or phone the merchant asks for (Apple Pay gives them in
        // the shipping contact).
        let contact = contacts.shippingContact ?? ApplePayPaymentContact()
        if let field = ContactRequirements.missing(pricing.requiredShippingContactFields(session), in: contact) {
            let message = "The \(pricing.requiresShipping(session) ? "shipping" : "contact") details need "
                + "\(ContactRequirements.words(field))."
            throw AuthorizationFailure(.unprocessableContent, code: "shippingContactInvalid", message,
                                       errors: [ApplePayError(code: .shippingContactInvalid, contactField: field,
                                                              message: message)])
        }
        // The address is checked where the sheet asked for one: a shop that asks no postal address (collection at its
        // counter) gets none from Apple Pay, and would otherwise refuse every payment for want of a country.
        if pricing.requiresShipping(session), pricing.requiredShippingContactFields(session).contains(.postalAddress) {
            if let problem = ShippingRegions(merchant.shippingRegions).problem(with: RedactedContact(contact)) {
                throw AuthorizationFailure(.unprocessableContent, code: problem.code.rawValue,
                                           problem.message ?? "We do not ship to this address.", errors: [problem])
            }
        }
        let billing = contacts.billingContact ?? ApplePayPaymentContact()
        if let field = ContactRequirements.missing(merchant.requiredBillingContactFields, in: billing) {
            let message = "The billing details need \(ContactRequirements.words(field))."
            throw AuthorizationFailure(.unprocessableContent, code: "billingContactInvalid", message,
                                       errors: [ApplePayError(code: .billingContactInvalid, contactField: field,
                                                              message: message)])
        }
        // Control characters (a NUL above all, which PostgreSQL's jsonb refuses) have no place in a contact: the order
        // would be charged and then not recorded. Refused, naming the field, before anything is charged.
        for (contact, code) in [(contacts.billingContact, ApplePayError.Code.billingContactInvalid),
                                (contacts.shippingContact, .shippingContactInvalid)] {
            guard let contact, let field = Self.fieldWithControlCharacters(contact) else { continue }
            let message = "The \(code == .billingContactInvalid ? "billing" : "shipping") details hold a character that cannot be used."
            throw AuthorizationFailure(.unprocessableContent, code: code.rawValue, message,
                                       errors: [ApplePayError(code: code, contactField: field, message: message)])
        }
        // An email address given must be one: the order's receipt and its Wallet order go to it, and a Wallet order
        // refuses anything else, which would leave a paid order without one. Refused before anything is charged.
        for (contact, code) in [(contacts.billingContact, ApplePayError.Code.billingContactInvalid),
                                (contacts.shippingContact, .shippingContactInvalid)] {
            guard let email = contact?.emailAddress, !email.trimmingCharacters(in: .whitespaces).isEmpty,
                  !EmailAddress.isPlausible(email)
            else { continue }
            throw AuthorizationFailure(.unprocessableContent, code: code.rawValue, "Enter a valid email address.",
                                       errors: [ApplePayError(code: code, contactField: .emailAddress,
                                                              message: "Enter a valid email address.")])
        }
    }
}

extension CheckoutService {
    /// The first field of a contact holding a control character (C0, DEL or C1), if any.
    static func fieldWithControlCharacters(_ contact: ApplePayPaymentContact) -> ApplePayError.ContactField? {
        let fields: [(ApplePayError.ContactField, [String?])] = [
            (.phoneNumber, [contact.phoneNumber]), (.emailAddress, [contact.emailAddress]),
            (.name, [contact.givenName, contact.familyName]),
            (.phoneticName, [contact.phoneticGivenName, contact.phoneticFamilyName]),
            (.addressLines, contact.addressLines ?? []), (.subLocality, [contact.subLocality]),
            (.locality, [contact.locality]), (.postalCode, [contact.postalCode]),
            (.subAdministrativeArea, [contact.subAdministrativeArea]),
            (.administrativeArea, [contact.administrativeArea]), (.country, [contact.country]),
            (.countryCode, [contact.countryCode]),
        ]
        return fields.first { _, values in
            values.contains { $0?.unicodeScalars.contains { $0.properties.generalCategory == .control } == true }
        }?.0
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
    /// The field in words a buyer reads ("a street address").
    static func words(_ field: ApplePayError.ContactField) -> String {
        switch field {
        case .name: "a name"
        case .emailAddress: "an email address"
        case .phoneNumber: "a phone number"
        case .addressLines: "a street address"
        case .locality: "a city"
        case .postalCode: "a postal code"
        case .countryCode: "a country"
        default: "its \(field.rawValue)"
        }
    }


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

/// What the checkout takes as an email address: text around one `@`, without spaces or control characters, at most 254
/// characters (as SMTP carries them); anything a Wallet order's validator accepts.
enum EmailAddress {
    static func isPlausible(_ text: String) -> Bool {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.count <= 254, let at = text.lastIndex(of: "@"), at != text.startIndex,
              text.index(after: at) != text.endIndex
        else { return false }
        return !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}
