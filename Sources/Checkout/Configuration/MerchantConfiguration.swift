import Foundation
public import PaymentRequest

/// Everything a merchant's checkout needs: who is paid, what is sold, how it ships, what it costs, and the
/// credentials that validate the merchant with Apple and decrypt payment tokens.
///
/// It is read from a JSON file (``load(contentsOf:)``, format in `docs/checkout.md`). Amounts and rates are decimal
/// strings (`"5.00"`, `"0.0825"`), dates ISO 8601 strings, paths relative to the file's folder.
public struct MerchantConfiguration: Codable, Sendable {
    /// The Apple Pay merchant identifier, such as `merchant.com.example.shop`.
    public var merchantIdentifier: String
    /// The name on the buyer's statement, shown as "Pay <displayName>"; also sent to Apple as `displayName`.
    public var displayName: String
    /// A platform taking the payment for the merchant: the sheet reads "Pay <displayName> (via <platformName>)".
    public var platformName: String?
    /// The merchant's ISO 3166-1 alpha-2 country.
    public var countryCode: String
    /// The ISO 4217 currency of every amount.
    public var currencyCode: String
    /// Card networks accepted.
    public var supportedNetworks: [PaymentNetwork]
    /// Card processing supported (`supports3DS` is always added).
    public var merchantCapabilities: [MerchantCapability]
    /// Delivery choices, the first being the default; empty when nothing ships.
    public var shippingMethods: [ShippingMethod]
    /// How tax is computed; `nil` for no tax line.
    public var tax: TaxRule?
    /// Coupon codes the sheet accepts.
    public var coupons: [Coupon]
    /// Billing contact fields the sheet asks for.
    public var requiredBillingContactFields: [ContactField]
    /// Shipping contact fields the sheet asks for (when something ships).
    public var requiredShippingContactFields: [ContactField]
    /// Where the merchant ships; empty means anywhere.
    public var shippingRegions: [ShippingRegion]
    /// Products by SKU; carts may name them by `sku` instead of giving a name and a price.
    public var products: [String: Product]
    /// The merchant identity certificate and key used for merchant validation (mutual TLS).
    public var merchantIdentity: MerchantIdentity?
    /// Payment-processing private keys (PEM), several while rotating; a token's `publicKeyHash` picks one.
    public var paymentProcessingKeyPaths: [String]
    /// Apple Root CA - G3 (PEM), the anchor of token signatures.
    public var appleRootCertificatePath: String?
    /// Hosts merchant validation may call; defaults to Apple's documented gateway hosts.
    public var merchantValidationHosts: [String]
    /// `web` (Apple Pay on the Web) or `messaging`.
    public var initiative: String
    /// The domain the sheet runs on (`initiative` `web`), such as `shop.example.com`.
    public var initiativeContext: String?
    /// Adds the development endpoints and the sheet's test payment button. Off by default; never in production.
    public var developmentMode: Bool
    /// Loads Apple's Apple Pay JS SDK from `applepay.cdn-apple.com` on the sheet, so browsers other than Safari show
    /// the Apple Pay button (paying with an iPhone). Off by default: the sheet then loads nothing from elsewhere.
    public var applePayJSSDK: Bool
    /// Who charges verified payments; `nil` means the development recorder in development mode and no payments
    /// otherwise.
    public var paymentProcessor: PaymentProcessorConfiguration?
    /// How buyers without Apple Pay pay on the sheet (a gateway's hosted card element); `nil` means only Apple Pay
    /// (and the test card in development mode).
    public var paymentStep: PaymentStepConfiguration?
    /// A file holding the merchant's API key (`Authorization: Bearer`), which free-form items and summaries need.
    public var apiKeyFile: String?
    /// Hands every paid order to Wallet as a Wallet order of this Order Type ID, made from this order template;
    /// `nil` issues no Wallet orders.
    public var walletOrders: WalletOrdersConfiguration?

    /// Creates a configuration with the required fields; the rest take their defaults.
    /// - Parameters:
    ///   - merchantIdentifier: The Apple Pay merchant identifier.
    ///   - displayName: The statement name.
    ///   - countryCode: The merchant's country.
    ///   - currencyCode: The currency.
    public init(merchantIdentifier: String, displayName: String, countryCode: String, currencyCode: String) {
        self.merchantIdentifier = merchantIdentifier
        self.displayName = displayName
        self.countryCode = countryCode
        self.currencyCode = currencyCode
        supportedNetworks = [.visa, .masterCard, .amex, .discover]
        merchantCapabilities = [.supports3DS]
        shippingMethods = []
        coupons = []
        requiredBillingContactFields = []
        requiredShippingContactFields = []
        shippingRegions = []
        products = [:]
        paymentProcessingKeyPaths = []
        merchantValidationHosts = MerchantValidationHosts.appleDefaults
        initiative = "web"
        developmentMode = false
        applePayJSSDK = false
    }

    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier, displayName, platformName, countryCode, currencyCode, supportedNetworks
        case merchantCapabilities, shippingMethods, tax, coupons, requiredBillingContactFields
        case requiredShippingContactFields, shippingRegions, products, merchantIdentity, paymentProcessingKeyPaths
        case appleRootCertificatePath, merchantValidationHosts, initiative, initiativeContext, developmentMode
        case applePayJSSDK, paymentProcessor, paymentStep, apiKeyFile, walletOrders
    }

    /// Decodes a configuration; everything but the identifier, names, country and currency is optional.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(merchantIdentifier: try c.decode(String.self, forKey: .merchantIdentifier),
                  displayName: try c.decode(String.self, forKey: .displayName),
                  countryCode: try c.decode(String.self, forKey: .countryCode),
                  currencyCode: try c.decode(String.self, forKey: .currencyCode))
        platformName = try c.decodeIfPresent(String.self, forKey: .platformName)
        supportedNetworks = try c.decodeIfPresent([PaymentNetwork].self, forKey: .supportedNetworks) ?? supportedNetworks
        merchantCapabilities = try c.decodeIfPresent([MerchantCapability].self, forKey: .merchantCapabilities)
            ?? merchantCapabilities
        shippingMethods = try c.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods) ?? []
        tax = try c.decodeIfPresent(TaxRule.self, forKey: .tax)
        coupons = try c.decodeIfPresent([Coupon].self, forKey: .coupons) ?? []
        requiredBillingContactFields = try c.decodeIfPresent([ContactField].self, forKey: .requiredBillingContactFields) ?? []
        requiredShippingContactFields = try c.decodeIfPresent([ContactField].self, forKey: .requiredShippingContactFields)
            ?? []
        shippingRegions = try c.decodeIfPresent([ShippingRegion].self, forKey: .shippingRegions) ?? []
        products = try c.decodeIfPresent([String: Product].self, forKey: .products) ?? [:]
        merchantIdentity = try c.decodeIfPresent(MerchantIdentity.self, forKey: .merchantIdentity)
        paymentProcessingKeyPaths = try c.decodeIfPresent([String].self, forKey: .paymentProcessingKeyPaths) ?? []
        appleRootCertificatePath = try c.decodeIfPresent(String.self, forKey: .appleRootCertificatePath)
        merchantValidationHosts = try c.decodeIfPresent([String].self, forKey: .merchantValidationHosts)
            ?? MerchantValidationHosts.appleDefaults
        initiative = try c.decodeIfPresent(String.self, forKey: .initiative) ?? "web"
        initiativeContext = try c.decodeIfPresent(String.self, forKey: .initiativeContext)
        developmentMode = try c.decodeIfPresent(Bool.self, forKey: .developmentMode) ?? false
        applePayJSSDK = try c.decodeIfPresent(Bool.self, forKey: .applePayJSSDK) ?? false
        paymentProcessor = try c.decodeIfPresent(PaymentProcessorConfiguration.self, forKey: .paymentProcessor)
        paymentStep = try c.decodeIfPresent(PaymentStepConfiguration.self, forKey: .paymentStep)
        apiKeyFile = try c.decodeIfPresent(String.self, forKey: .apiKeyFile)
        walletOrders = try c.decodeIfPresent(WalletOrdersConfiguration.self, forKey: .walletOrders)
    }

    /// The name the sheet and the statement show: `Shop` or `Shop (via Platform)`.
    public var merchantName: MerchantName {
        platformName.map { MerchantName.via(endMerchant: displayName, platform: $0) } ?? MerchantName(displayName)
    }
}
