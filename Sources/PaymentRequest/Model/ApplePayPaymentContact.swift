/// `ApplePayPaymentContact`: a person's name, phone, email and postal address, as the sheet collects or prefills
/// them.
public struct ApplePayPaymentContact: Codable, Hashable, Sendable {
    /// Phone number.
    public var phoneNumber: String?
    /// Email address.
    public var emailAddress: String?
    /// Given name.
    public var givenName: String?
    /// Family name.
    public var familyName: String?
    /// Phonetic given name.
    public var phoneticGivenName: String?
    /// Phonetic family name.
    public var phoneticFamilyName: String?
    /// Street lines.
    public var addressLines: [String]?
    /// Neighbourhood or district.
    public var subLocality: String?
    /// City.
    public var locality: String?
    /// Postal code.
    public var postalCode: String?
    /// County or similar.
    public var subAdministrativeArea: String?
    /// State or province.
    public var administrativeArea: String?
    /// Country name.
    public var country: String?
    /// ISO 3166-1 alpha-2 country code.
    public var countryCode: String?

    /// Creates a contact; set the fields you have.
    /// - Parameters:
    ///   - givenName: Given name.
    ///   - familyName: Family name.
    ///   - emailAddress: Email address.
    ///   - phoneNumber: Phone number.
    public init(givenName: String? = nil, familyName: String? = nil, emailAddress: String? = nil,
                phoneNumber: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
    }
}

/// `ApplePayPaymentTokenContext`: one merchant's share of a multi-merchant payment, each with its own token.
public struct ApplePayPaymentTokenContext: Codable, Hashable, Sendable {
    /// The Apple Pay merchant identifier of the merchant being paid.
    public var merchantIdentifier: String
    /// The paying merchant's own reference for this context.
    public var externalIdentifier: String
    /// The merchant's name, as shown.
    public var merchantName: String
    /// The merchant's domain, for web payments.
    public var merchantDomain: String?
    /// The amount authorized for this merchant, as a decimal string.
    public var amount: String

    /// Creates a token context.
    /// - Parameters:
    ///   - merchantIdentifier: Apple Pay merchant identifier.
    ///   - externalIdentifier: The paying merchant's reference.
    ///   - merchantName: Displayed name.
    ///   - merchantDomain: Web domain.
    ///   - amount: Amount as a decimal string.
    public init(merchantIdentifier: String, externalIdentifier: String, merchantName: String,
                merchantDomain: String? = nil, amount: String) {
        self.merchantIdentifier = merchantIdentifier
        self.externalIdentifier = externalIdentifier
        self.merchantName = merchantName
        self.merchantDomain = merchantDomain
        self.amount = amount
    }

    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier, externalIdentifier, merchantName, merchantDomain, amount
    }

    /// Decodes a context; missing required strings decode as empty for validation to report.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        merchantIdentifier = try c.decodeIfPresent(String.self, forKey: .merchantIdentifier) ?? ""
        externalIdentifier = try c.decodeIfPresent(String.self, forKey: .externalIdentifier) ?? ""
        merchantName = try c.decodeIfPresent(String.self, forKey: .merchantName) ?? ""
        merchantDomain = try c.decodeIfPresent(String.self, forKey: .merchantDomain)
        amount = try c.decodeIfPresent(String.self, forKey: .amount) ?? ""
    }
}
