/// `ApplePayPaymentRequest`: what a merchant hands to `ApplePaySession` (or, through `paymentSummaryItems`, to
/// PassKit) to open the payment sheet.
///
/// Encoding and decoding use Apple Pay JS's field names exactly. Required fields that are missing decode as empty
/// so that ``validate()`` reports each of them with its path; optional fields that are `nil` are left out of the
/// JSON.
public struct ApplePayPaymentRequest: Codable, Hashable, Sendable {
    /// The merchant's ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    /// The ISO 4217 currency of every amount.
    public var currencyCode: String
    /// Card processing the merchant supports; must include `supports3DS`.
    public var merchantCapabilities: [MerchantCapability]
    /// Card networks the merchant accepts.
    public var supportedNetworks: [PaymentNetwork]
    /// Countries whose cards are accepted (all when `nil`).
    public var supportedCountries: [String]?
    /// The total: its label is the name on the buyer's statement ("Pay <label>" on the sheet).
    public var total: ApplePayLineItem
    /// Lines explaining the total: tax, shipping, discounts, fees, pending costs, recurring payments.
    public var lineItems: [ApplePayLineItem]?
    /// Shipping, delivery, store pickup or service pickup.
    public var shippingType: ShippingType?
    /// The delivery choices; the first is selected.
    public var shippingMethods: [ApplePayShippingMethod]?
    /// Whether the buyer may edit the shipping contact.
    public var shippingContactEditingMode: ShippingContactEditingMode?
    /// Billing contact fields the buyer must provide.
    public var requiredBillingContactFields: [ContactField]?
    /// Shipping contact fields the buyer must provide.
    public var requiredShippingContactFields: [ContactField]?
    /// A billing contact to prefill.
    public var billingContact: ApplePayPaymentContact?
    /// A shipping contact to prefill.
    public var shippingContact: ApplePayPaymentContact?
    /// Opaque merchant data, hashed into the payment token (usually Base64).
    public var applicationData: String?
    /// Whether the sheet offers a coupon code field.
    public var supportsCouponCode: Bool?
    /// A coupon code to prefill.
    public var couponCode: String?
    /// A subscription.
    public var recurringPaymentRequest: ApplePayRecurringPaymentRequest?
    /// A top-up when a balance runs low.
    public var automaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest?
    /// A payment charged later (a hotel stay, a pre-order).
    public var deferredPaymentRequest: ApplePayDeferredPaymentRequest?
    /// Payments to several merchants in one sheet, one token each.
    public var multiTokenContexts: [ApplePayPaymentTokenContext]?

    /// Creates a request with the required fields.
    /// - Parameters:
    ///   - countryCode: The merchant's country.
    ///   - currencyCode: The currency.
    ///   - merchantCapabilities: Card processing supported (include `supports3DS`).
    ///   - supportedNetworks: Networks accepted.
    ///   - total: The total.
    public init(countryCode: String, currencyCode: String, merchantCapabilities: [MerchantCapability],
                supportedNetworks: [PaymentNetwork], total: ApplePayLineItem) {
        self.countryCode = countryCode
        self.currencyCode = currencyCode
        self.merchantCapabilities = merchantCapabilities
        self.supportedNetworks = supportedNetworks
        self.total = total
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case countryCode, currencyCode, merchantCapabilities, supportedNetworks, supportedCountries, total, lineItems
        case shippingType, shippingMethods, shippingContactEditingMode, requiredBillingContactFields
        case requiredShippingContactFields, billingContact, shippingContact, applicationData, supportsCouponCode
        case couponCode, recurringPaymentRequest, automaticReloadPaymentRequest, deferredPaymentRequest
        case multiTokenContexts
    }

    /// Every top-level key Apple Pay JS defines for a payment request.
    public static var knownKeys: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)) }

    /// Decodes a request; missing required fields decode as empty.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        countryCode = try c.decodeIfPresent(String.self, forKey: .countryCode) ?? ""
        currencyCode = try c.decodeIfPresent(String.self, forKey: .currencyCode) ?? ""
        merchantCapabilities = try c.decodeIfPresent([MerchantCapability].self, forKey: .merchantCapabilities) ?? []
        supportedNetworks = try c.decodeIfPresent([PaymentNetwork].self, forKey: .supportedNetworks) ?? []
        supportedCountries = try c.decodeIfPresent([String].self, forKey: .supportedCountries)
        total = try c.decodeIfPresent(ApplePayLineItem.self, forKey: .total) ?? ApplePayLineItem(label: "", amount: "")
        lineItems = try c.decodeIfPresent([ApplePayLineItem].self, forKey: .lineItems)
        shippingType = try c.decodeIfPresent(ShippingType.self, forKey: .shippingType)
        shippingMethods = try c.decodeIfPresent([ApplePayShippingMethod].self, forKey: .shippingMethods)
        shippingContactEditingMode = try c.decodeIfPresent(ShippingContactEditingMode.self,
                                                           forKey: .shippingContactEditingMode)
        requiredBillingContactFields = try c.decodeIfPresent([ContactField].self, forKey: .requiredBillingContactFields)
        requiredShippingContactFields = try c.decodeIfPresent([ContactField].self,
                                                              forKey: .requiredShippingContactFields)
        billingContact = try c.decodeIfPresent(ApplePayPaymentContact.self, forKey: .billingContact)
        shippingContact = try c.decodeIfPresent(ApplePayPaymentContact.self, forKey: .shippingContact)
        applicationData = try c.decodeIfPresent(String.self, forKey: .applicationData)
        supportsCouponCode = try c.decodeIfPresent(Bool.self, forKey: .supportsCouponCode)
        couponCode = try c.decodeIfPresent(String.self, forKey: .couponCode)
        recurringPaymentRequest = try c.decodeIfPresent(ApplePayRecurringPaymentRequest.self,
                                                        forKey: .recurringPaymentRequest)
        automaticReloadPaymentRequest = try c.decodeIfPresent(ApplePayAutomaticReloadPaymentRequest.self,
                                                              forKey: .automaticReloadPaymentRequest)
        deferredPaymentRequest = try c.decodeIfPresent(ApplePayDeferredPaymentRequest.self,
                                                       forKey: .deferredPaymentRequest)
        multiTokenContexts = try c.decodeIfPresent([ApplePayPaymentTokenContext].self, forKey: .multiTokenContexts)
    }
}
