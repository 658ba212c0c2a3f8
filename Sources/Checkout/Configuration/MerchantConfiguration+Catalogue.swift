public import Foundation

extension MerchantConfiguration {
    /// A coupon code giving a percentage or a fixed amount off the subtotal, possibly with an expiry date.
    public struct Coupon: Codable, Sendable, Hashable {
        /// The code the buyer types (matched ignoring case).
        public var code: String
        /// Percent off the subtotal (`10` for 10 %); exclusive with ``amountOff``.
        public var percentOff: Decimal?
        /// Fixed amount off the subtotal (never more than it); exclusive with ``percentOff``.
        public var amountOff: Decimal?
        /// When the code stops working; `nil` for never.
        public var expires: Date?
        /// The discount line's label; default "Coupon <CODE>".
        public var label: String?

        /// Creates a coupon.
        /// - Parameters:
        ///   - code: The code.
        ///   - percentOff: Percent off.
        ///   - amountOff: Amount off.
        ///   - expires: Expiry.
        ///   - label: Line label.
        public init(code: String, percentOff: Decimal? = nil, amountOff: Decimal? = nil, expires: Date? = nil,
                    label: String? = nil) {
            self.code = code
            self.percentOff = percentOff
            self.amountOff = amountOff
            self.expires = expires
            self.label = label
        }

        /// The discount line's label.
        public var lineLabel: String { label ?? "Coupon \(code.uppercased())" }

        private enum CodingKeys: String, CodingKey { case code, percentOff, amountOff, expires, label }

        /// Decodes a coupon; amounts are decimal strings, `expires` an ISO 8601 date-time.
        /// - Parameter decoder: The decoder.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            code = try c.decode(String.self, forKey: .code)
            percentOff = try DecimalCoding.decodeIfPresent(c, .percentOff)
            amountOff = try DecimalCoding.decodeIfPresent(c, .amountOff)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            if let text = try c.decodeIfPresent(String.self, forKey: .expires) {
                guard let date = ISO8601.date(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .expires, in: c, debugDescription: "must be an ISO 8601 date-time such as 2026-12-31T23:59:59Z")
                }
                expires = date
            }
        }

        /// Encodes the coupon.
        /// - Parameter encoder: The encoder.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(code, forKey: .code)
            try c.encodeIfPresent(percentOff.map(DecimalCoding.string), forKey: .percentOff)
            try c.encodeIfPresent(amountOff.map(DecimalCoding.string), forKey: .amountOff)
            try c.encodeIfPresent(expires.map(ISO8601.string), forKey: .expires)
            try c.encodeIfPresent(label, forKey: .label)
        }
    }

    /// A product of the catalogue.
    public struct Product: Codable, Sendable, Hashable {
        /// The name on the order.
        public var name: String
        /// Price of one.
        public var unitPrice: Decimal
        /// Whether it is shipped (`false` for tickets and digital goods).
        public var requiresShipping: Bool
        /// A pass template (folder name, such as `event-ticket`) issued for each one bought.
        public var passTemplate: String?
        /// Field values for the pass, by field key; `{orderId}`, `{itemName}`, `{sku}` and `{number}` are replaced.
        public var passFields: [String: String]?

        /// Creates a product.
        /// - Parameters:
        ///   - name: The name.
        ///   - unitPrice: Price of one.
        ///   - requiresShipping: Whether it ships.
        ///   - passTemplate: A pass template to issue.
        ///   - passFields: Pass field values.
        public init(name: String, unitPrice: Decimal, requiresShipping: Bool = true, passTemplate: String? = nil,
                    passFields: [String: String]? = nil) {
            self.name = name
            self.unitPrice = unitPrice
            self.requiresShipping = requiresShipping
            self.passTemplate = passTemplate
            self.passFields = passFields
        }

        private enum CodingKeys: String, CodingKey { case name, unitPrice, requiresShipping, passTemplate, passFields }

        /// Decodes a product; `unitPrice` is a decimal string.
        /// - Parameter decoder: The decoder.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(name: try c.decode(String.self, forKey: .name), unitPrice: try DecimalCoding.decode(c, .unitPrice),
                      requiresShipping: try c.decodeIfPresent(Bool.self, forKey: .requiresShipping) ?? true,
                      passTemplate: try c.decodeIfPresent(String.self, forKey: .passTemplate),
                      passFields: try c.decodeIfPresent([String: String].self, forKey: .passFields))
        }

        /// Encodes the product.
        /// - Parameter encoder: The encoder.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(DecimalCoding.string(unitPrice), forKey: .unitPrice)
            try c.encode(requiresShipping, forKey: .requiresShipping)
            try c.encodeIfPresent(passTemplate, forKey: .passTemplate)
            try c.encodeIfPresent(passFields, forKey: .passFields)
        }
    }
}

/// ISO 8601 date-times, with or without fractional seconds.
enum ISO8601 {
    static func date(_ text: String) -> Date? {
        (try? plain.parse(text)) ?? (try? fractional.parse(text))
    }

    static func string(_ date: Date) -> String { date.formatted(plain) }

    private static let plain = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
