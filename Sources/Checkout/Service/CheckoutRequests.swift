public import PaymentRequest

/// The body of `POST /checkout/v1/sessions`: catalogue or free-form items, or an already-priced summary, with an
/// optional shipping method and coupon code.
public struct CreateSessionRequest: Decodable, Sendable {
    /// One cart line: a catalogue `sku`, or (with the merchant's API key) a `name` and `unitPrice`.
    public struct Item: Decodable, Sendable {
        /// The catalogue product.
        public var sku: String?
        /// The line's name, for a free-form item.
        public var name: String?
        /// How many (1-1000).
        public var quantity: Int
        /// The unit price as a currency string (`"12.50"`); for a catalogue item it must match the catalogue.
        public var unitPrice: String?

        private enum CodingKeys: String, CodingKey { case sku, name, quantity, unitPrice }

        private static func isUnheldNumber(_ error: DecodingError) -> Bool {
            if case .dataCorrupted = error { return true }
            return false
        }

        /// Decodes an item; a quantity that is a number but not a whole one an `Int` holds (`1.5`, `1e400`) is
        /// refused naming `quantity`, as the decoder alone would refuse it for the whole body.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sku = try container.decodeIfPresent(String.self, forKey: .sku)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            unitPrice = try container.decodeIfPresent(String.self, forKey: .unitPrice)
            do {
                quantity = try container.decode(Int.self, forKey: .quantity)
            } catch let error as DecodingError where !Self.isUnheldNumber(error) {
                throw error  // a string, null or no quantity: the decoder's wrong-type or missing error
            } catch {
                // A number, but none an Int holds whole: the decoder's own error names no member.
                throw DecodingError.dataCorruptedError(
                    forKey: .quantity, in: container, debugDescription: "must be a whole number from 1 to 1000")
            }
        }
    }

    /// Totals priced by the merchant's own server (needs the API key).
    public struct Summary: Decodable, Sendable {
        /// The subtotal as a currency string.
        public var subtotal: String
        /// The tax as a currency string.
        public var tax: String?
        /// Whether the order ships (default `true`).
        public var requiresShipping: Bool?
    }

    /// The cart lines (1-100); either these or ``summary``.
    public var items: [Item]?
    /// An already-priced summary; either this or ``items``.
    public var summary: Summary?
    /// The shipping method to start with.
    public var shippingMethod: String?
    /// A coupon code to apply.
    public var couponCode: String?
}

/// `{"identifier": "express"}` or the sheet event's `{"shippingMethod": {"identifier": "express", ...}}`.
public struct ShippingMethodRequest: Decodable, Sendable {
    /// The event's shipping method.
    public struct Method: Decodable, Sendable {
        /// The shipping method's identifier.
        public var identifier: String
    }

    /// The shipping method's identifier.
    public var identifier: String?
    /// The event's shipping method.
    public var shippingMethod: Method?
}

/// The sheet event's `{"shippingContact": {...}}`; the HTTP module falls back to the body as the contact itself.
public struct ShippingContactRequest: Decodable, Sendable {
    /// The redacted contact Apple Pay gives before authorization.
    public var shippingContact: ApplePayPaymentContact?
}

/// `{"couponCode": "SAVE10"}`; an empty code removes the coupon.
public struct CouponCodeRequest: Decodable, Sendable {
    /// The code the buyer entered.
    public var couponCode: String
}

/// The sheet event's `{"paymentMethod": {"network": "Visa", "type": "debit", ...}}`.
public struct PaymentMethodRequest: Decodable, Sendable {
    /// The card the buyer picked.
    public struct Method: Decodable, Sendable {
        /// The card network, such as `Visa`.
        public var network: String?
        /// `debit`, `credit`, `prepaid` or `store`.
        public var type: String?
    }

    /// The card the buyer picked.
    public var paymentMethod: Method?
}

/// `{"validationURL": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}`: Apple Pay JS's
/// `onvalidatemerchant` URL.
public struct MerchantValidationRequest: Decodable, Sendable {
    /// Apple's payment-session URL.
    public var validationURL: String
}
