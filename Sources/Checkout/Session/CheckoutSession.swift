public import Foundation
public import PaymentRequest

/// One buyer's checkout: the cart, the buyer's choices on the sheet, and whether it has been paid.
///
/// The shipping contact is the redacted one Apple Pay gives before authorization (``RedactedContact``); the full
/// contacts arrive with the payment and are kept only on the order.
public struct CheckoutSession: Codable, Sendable, Equatable {
    /// Where the session is in its life.
    public enum State: String, Codable, Sendable {
        /// Open: the buyer may still change shipping, address and coupon.
        case pending
        /// Claimed by one authorization (atomically, before anything irreversible): its payment is on its way to
        /// the processor. Every other authorization is refused; a decline returns the session to pending.
        case authorizing
        /// The processor was called but did not answer (timeout, crash, 5xx): the charge may have happened. The
        /// authorization is retried with the same idempotency key until the processor answers.
        case processorUnknown
        /// Paid: an order exists and nothing can change.
        case authorized

        /// Whether an authorization holds the session (``authorizing`` or ``processorUnknown``).
        public var isBeingPaid: Bool { self == .authorizing || self == .processorUnknown }
    }

    /// The session's identifier (URL-safe, unguessable).
    public var id: String
    /// The secret the creator got, which reads and updates the session and its order (with the merchant's API key).
    public var clientSecret: String?
    /// The `Idempotency-Key` it was created with.
    public var idempotencyKey: String
    /// SHA-256 (hex) of the creation request body; the same key with another body is refused.
    public var requestHash: String
    /// When it was created.
    public var createdAt: Date
    /// The cart's lines (empty when the cart came as an already-priced summary).
    public var items: [CartLine]
    /// An already-priced summary given instead of lines.
    public var summary: PricedSummary?
    /// The shipping method the buyer picked; `nil` means the first.
    public var selectedShippingMethod: String?
    /// The redacted shipping contact, once the buyer has given an address we serve.
    public var shippingContact: RedactedContact?
    /// What is wrong with the last address the buyer gave when it is not served (`addressUnserviceable`, or
    /// `shippingContactInvalid` for a missing or malformed country or postal code). While it is set the session has
    /// no shipping method or price, its total is pending and authorization is refused with this error.
    public var shippingAddressProblem: ApplePayError?
    /// The coupon code the buyer entered and we accepted.
    public var couponCode: String?
    /// When the coupon was accepted: it is honoured for the life of the session even if it expires meanwhile.
    public var couponAppliedAt: Date?
    /// Pending or authorized.
    public var state: State
    /// The order, once authorized.
    public var orderId: String?
    /// The authorization holding the session while it is authorizing or its processor outcome is unknown.
    public var authorization: AuthorizationAttempt?
    /// How many authorizations have reached the processor (declined ones included); numbers the idempotency keys.
    public var authorizationAttempts: Int?
    /// The current total's amount (rounded to minor units).
    public var total: Decimal
    /// Whether the total is still pending (tax waiting for the address).
    public var totalPending: Bool
    /// Whether the merchant's server created it (with the API key) rather than an anonymous caller; `nil` for a session
    /// stored before this was recorded. An `Idempotency-Key` replays only for the same kind of caller.
    public var createdByMerchant: Bool?
    /// How many times the session has been changed since it was created (the sheet's updates, a payment's claim);
    /// `nil` is 0 (a session stored before changes were counted). A store keeps a change only when it was made from
    /// the revision stored (the change's own revision less one), so an update saved between another writer's read and
    /// its write is never overwritten: that writer reads the session again and makes its change from it.
    public var revision: Int?

    /// Creates a pending session.
    /// - Parameters:
    ///   - id: The identifier.
    ///   - idempotencyKey: The creation key.
    ///   - requestHash: The creation body's hash.
    ///   - createdAt: Now.
    ///   - items: Cart lines.
    ///   - summary: A priced summary instead of lines.
    public init(id: String, idempotencyKey: String, requestHash: String, createdAt: Date, items: [CartLine],
                summary: PricedSummary? = nil) {
        self.id = id
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        self.createdAt = createdAt
        self.items = items
        self.summary = summary
        state = .pending
        total = 0
        totalPending = false
    }

    /// The session as a change of it is stored: its ``revision`` one more than the one it was read at.
    public func nextRevision() -> CheckoutSession {
        var session = self
        session.revision = (revision ?? 0) + 1
        return session
    }

    /// The revision a change of this session was made from (``revision`` less one, never below 0).
    public var previousRevision: Int { max(0, (revision ?? 0) - 1) }

    /// The bytes whose SHA-256 the payment request's `applicationData` is built from and the token's
    /// `header.applicationData` must carry: UTF-8 of `tessera-checkout-session:<id>`.
    public var applicationData: Data { Data("tessera-checkout-session:\(id)".utf8) }

    /// The application data of a payment request built before the session existed, by the buyer who then created it
    /// with this `Idempotency-Key` (the buy page's Apple Pay tap): UTF-8 of `tessera-checkout-key:<idempotencyKey>`.
    /// A key belongs to one session only, so this ties a token to the session as firmly as ``applicationData``.
    public var idempotencyKeyApplicationData: Data { Data("tessera-checkout-key:\(idempotencyKey)".utf8) }
}

/// One line of a cart: something bought, how many, at what price.
public struct CartLine: Codable, Sendable, Equatable {
    /// The catalogue SKU, when the item came from the catalogue.
    public var sku: String?
    /// The name on the order.
    public var name: String
    /// How many.
    public var quantity: Int
    /// Price of one.
    public var unitPrice: Decimal
    /// Whether it ships.
    public var requiresShipping: Bool

    /// Creates a line.
    /// - Parameters:
    ///   - sku: The SKU.
    ///   - name: The name.
    ///   - quantity: How many.
    ///   - unitPrice: Price of one.
    ///   - requiresShipping: Whether it ships.
    public init(sku: String? = nil, name: String, quantity: Int, unitPrice: Decimal, requiresShipping: Bool = true) {
        self.sku = sku
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.requiresShipping = requiresShipping
    }

    /// `quantity × unitPrice`.
    public var amount: Decimal { Decimal(quantity) * unitPrice }
}

/// A cart priced elsewhere: the subtotal and, optionally, its tax.
public struct PricedSummary: Codable, Sendable, Equatable {
    /// The goods' subtotal.
    public var subtotal: Decimal
    /// Tax already computed; `nil` applies the merchant's tax rule.
    public var tax: Decimal?
    /// Whether the goods ship.
    public var requiresShipping: Bool

    /// Creates a summary.
    /// - Parameters:
    ///   - subtotal: The subtotal.
    ///   - tax: Tax already computed.
    ///   - requiresShipping: Whether the goods ship.
    public init(subtotal: Decimal, tax: Decimal? = nil, requiresShipping: Bool = true) {
        self.subtotal = subtotal
        self.tax = tax
        self.requiresShipping = requiresShipping
    }
}

/// The part of a shipping contact Apple Pay reveals before the buyer authorizes (and the only part Tessera reads or
/// stores before then): locality, areas, postal code and country code. Names, street lines, phone and email are
/// dropped.
public struct RedactedContact: Codable, Sendable, Equatable {
    /// City.
    public var locality: String?
    /// Neighbourhood or district.
    public var subLocality: String?
    /// State or province.
    public var administrativeArea: String?
    /// County or similar.
    public var subAdministrativeArea: String?
    /// Postal code (possibly partial, as Apple redacts it).
    public var postalCode: String?
    /// ISO 3166-1 alpha-2 country code, upper case.
    public var countryCode: String?

    /// Keeps only the redacted fields of a contact.
    /// - Parameter contact: A contact as the sheet sent it.
    public init(_ contact: ApplePayPaymentContact) {
        locality = Self.clean(contact.locality)
        subLocality = Self.clean(contact.subLocality)
        administrativeArea = Self.clean(contact.administrativeArea)
        subAdministrativeArea = Self.clean(contact.subAdministrativeArea)
        postalCode = Self.clean(contact.postalCode)
        countryCode = Self.clean(contact.countryCode)?.uppercased()
    }

    private static func clean(_ value: String?) -> String? {
        // Control characters (a NUL, which PostgreSQL's jsonb refuses) are no part of a place's name: dropped.
        let visible = value.map { text in
            String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        }
        guard let trimmed = visible?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return String(trimmed.prefix(100))
    }
}
