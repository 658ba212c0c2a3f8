/// `ApplePayMerchantCapability`: the kinds of card processing the merchant supports.
public struct MerchantCapability: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// 3-D Secure; Apple requires it in every request.
    public static let supports3DS = MerchantCapability(rawValue: "supports3DS")
    /// EMV (China Union Pay).
    public static let supportsEMV = MerchantCapability(rawValue: "supportsEMV")
    /// Credit cards.
    public static let supportsCredit = MerchantCapability(rawValue: "supportsCredit")
    /// Debit cards.
    public static let supportsDebit = MerchantCapability(rawValue: "supportsDebit")
    /// All four.
    public static let knownValues: [MerchantCapability] = [.supports3DS, .supportsEMV, .supportsCredit, .supportsDebit]
}

/// `ApplePayContactField`: contact information the sheet asks the buyer for.
public struct ContactField: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Email address.
    public static let email = ContactField(rawValue: "email")
    /// Full name.
    public static let name = ContactField(rawValue: "name")
    /// Phone number.
    public static let phone = ContactField(rawValue: "phone")
    /// Postal address.
    public static let postalAddress = ContactField(rawValue: "postalAddress")
    /// Phonetic name (Japan).
    public static let phoneticName = ContactField(rawValue: "phoneticName")
    /// All five.
    public static let knownValues: [ContactField] = [.email, .name, .phone, .postalAddress, .phoneticName]
}

/// A payment network name for `supportedNetworks`, matched case-insensitively as Safari does.
///
/// The known names are Apple's supported-networks list for Apple Pay on the Web together with PassKit's
/// `PKPaymentNetwork` names.
public struct PaymentNetwork: ApplePayValue {
    /// The string.
    public let rawValue: String
    /// Creates a value.
    /// - Parameter rawValue: The string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// American Express.
    public static let amex = PaymentNetwork(rawValue: "amex")
    /// Discover.
    public static let discover = PaymentNetwork(rawValue: "discover")
    /// Mastercard (spelled `masterCard`).
    public static let masterCard = PaymentNetwork(rawValue: "masterCard")
    /// Visa.
    public static let visa = PaymentNetwork(rawValue: "visa")

    /// Every network name Apple Pay accepts.
    public static let knownValues: [PaymentNetwork] = [
        "amex", "bancomat", "bancontact", "bankAxept", "cartesBancaires", "chinaUnionPay", "dankort", "discover",
        "eftpos", "electron", "elo", "girocard", "idCredit", "interac", "jcb", "mada", "maestro", "masterCard",
        "meeza", "mir", "nanaco", "napas", "pagoBancomat", "postFinance", "privateLabel", "quicPay", "suica",
        "tmoney", "visa", "vPay", "waon",
    ].map(PaymentNetwork.init(rawValue:))

    private static let lowercasedNames: [String: PaymentNetwork] = Dictionary(
        uniqueKeysWithValues: knownValues.map { ($0.rawValue.lowercased(), $0) })

    /// Whether Apple Pay accepts this name, ignoring case.
    public var isKnown: Bool { canonical != nil }

    /// The network with Apple's spelling when the name matches one case-insensitively (`MasterCard` → `masterCard`).
    public var canonical: PaymentNetwork? { Self.lowercasedNames[rawValue.lowercased()] }
}
