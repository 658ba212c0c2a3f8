public import Foundation

extension MerchantConfiguration {
    /// A delivery choice with its price and estimate in business days.
    public struct ShippingMethod: Codable, Sendable, Hashable {
        /// The merchant's identifier, sent back when the buyer picks it.
        public var identifier: String
        /// Short name, such as "Standard".
        public var label: String
        /// Price.
        public var amount: Decimal
        /// Fewest business days until delivery.
        public var minimumBusinessDays: Int
        /// Most business days until delivery.
        public var maximumBusinessDays: Int
        /// Detail replacing the computed "Arrives in 3-5 business days".
        public var detail: String?
        /// Where the buyer collects the goods, when this method is a pickup rather than a shipment (the Wallet
        /// order then shows a pickup fulfillment).
        public var pickup: Pickup?

        /// Creates a method.
        /// - Parameters:
        ///   - identifier: The identifier.
        ///   - label: Short name.
        ///   - amount: Price.
        ///   - businessDays: Such as `3...5`.
        ///   - detail: Detail line.
        public init(identifier: String, label: String, amount: Decimal, businessDays: ClosedRange<Int>,
                    detail: String? = nil) {
            self.identifier = identifier
            self.label = label
            self.amount = amount
            minimumBusinessDays = businessDays.lowerBound
            maximumBusinessDays = businessDays.upperBound
            self.detail = detail
        }

        private enum CodingKeys: String, CodingKey {
            case identifier, label, amount, minimumBusinessDays, maximumBusinessDays, detail, pickup
        }

        /// Decodes a method; `amount` is a decimal string.
        /// - Parameter decoder: The decoder.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try c.decode(String.self, forKey: .identifier)
            label = try c.decode(String.self, forKey: .label)
            amount = try DecimalCoding.decode(c, .amount)
            minimumBusinessDays = try c.decode(Int.self, forKey: .minimumBusinessDays)
            maximumBusinessDays = try c.decode(Int.self, forKey: .maximumBusinessDays)
            detail = try c.decodeIfPresent(String.self, forKey: .detail)
            pickup = try c.decodeIfPresent(Pickup.self, forKey: .pickup)
        }

        /// Encodes the method with `amount` as a decimal string.
        /// - Parameter encoder: The encoder.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(identifier, forKey: .identifier)
            try c.encode(label, forKey: .label)
            try c.encode(DecimalCoding.string(amount), forKey: .amount)
            try c.encode(minimumBusinessDays, forKey: .minimumBusinessDays)
            try c.encode(maximumBusinessDays, forKey: .maximumBusinessDays)
            try c.encodeIfPresent(detail, forKey: .detail)
            try c.encodeIfPresent(pickup, forKey: .pickup)
        }

        /// A pickup place: the goods are collected there, from the method's first business day.
        public struct Pickup: Codable, Sendable, Hashable {
            /// The place's name, such as "Tessera Store, Market Street".
            public var displayName: String
            /// Instructions for the buyer, such as "Ask at the counter".
            public var notes: String?

            /// Creates a pickup place.
            /// - Parameters:
            ///   - displayName: The place's name.
            ///   - notes: Instructions.
            public init(displayName: String, notes: String? = nil) {
                self.displayName = displayName
                self.notes = notes
            }
        }
    }

    /// A flat tax rate on the discounted subtotal and, optionally, on shipping.
    public struct TaxRule: Codable, Sendable, Hashable {
        /// The line item's label, such as "Sales Tax".
        public var label: String
        /// The rate as a fraction: `0.0825` for 8.25 %.
        public var rate: Decimal
        /// Whether shipping is taxed too.
        public var appliesToShipping: Bool
        /// Whether the tax depends on the address: until a shipping contact is known the tax line and the total are
        /// pending ("Amount Pending").
        public var pendingUntilAddressKnown: Bool

        /// Creates a rule.
        /// - Parameters:
        ///   - label: The line's label.
        ///   - rate: The rate as a fraction.
        ///   - appliesToShipping: Whether shipping is taxed.
        ///   - pendingUntilAddressKnown: Whether the amount waits for the address.
        public init(label: String = "Tax", rate: Decimal, appliesToShipping: Bool = false,
                    pendingUntilAddressKnown: Bool = false) {
            self.label = label
            self.rate = rate
            self.appliesToShipping = appliesToShipping
            self.pendingUntilAddressKnown = pendingUntilAddressKnown
        }

        private enum CodingKeys: String, CodingKey { case label, rate, appliesToShipping, pendingUntilAddressKnown }

        /// Decodes a rule; `rate` is a decimal string.
        /// - Parameter decoder: The decoder.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(label: try c.decodeIfPresent(String.self, forKey: .label) ?? "Tax",
                      rate: try DecimalCoding.decode(c, .rate),
                      appliesToShipping: try c.decodeIfPresent(Bool.self, forKey: .appliesToShipping) ?? false,
                      pendingUntilAddressKnown: try c.decodeIfPresent(Bool.self, forKey: .pendingUntilAddressKnown) ?? false)
        }

        /// Encodes the rule with `rate` as a decimal string.
        /// - Parameter encoder: The encoder.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(label, forKey: .label)
            try c.encode(DecimalCoding.string(rate), forKey: .rate)
            try c.encode(appliesToShipping, forKey: .appliesToShipping)
            try c.encode(pendingUntilAddressKnown, forKey: .pendingUntilAddressKnown)
        }
    }

    /// Countries (and optionally postal-code prefixes within them) the merchant ships to.
    public struct ShippingRegion: Codable, Sendable, Hashable {
        /// ISO 3166-1 alpha-2 country code.
        public var countryCode: String
        /// Postal codes served, by prefix (`["94", "95"]`); `nil` or empty means the whole country.
        public var postalCodePrefixes: [String]?

        /// Creates a region.
        /// - Parameters:
        ///   - countryCode: The country.
        ///   - postalCodePrefixes: Postal-code prefixes served.
        public init(countryCode: String, postalCodePrefixes: [String]? = nil) {
            self.countryCode = countryCode
            self.postalCodePrefixes = postalCodePrefixes
        }
    }

    /// The merchant identity certificate (Apple Pay Merchant Identity) and its key, PEM files.
    public struct MerchantIdentity: Codable, Sendable, Hashable {
        /// The certificate's PEM file.
        public var certificatePath: String
        /// The private key's PEM file.
        public var keyPath: String

        /// Creates an identity.
        /// - Parameters:
        ///   - certificatePath: Certificate PEM.
        ///   - keyPath: Key PEM.
        public init(certificatePath: String, keyPath: String) {
            self.certificatePath = certificatePath
            self.keyPath = keyPath
        }
    }
}
