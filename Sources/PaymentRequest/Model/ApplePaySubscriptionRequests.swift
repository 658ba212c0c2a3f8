/// `ApplePayRecurringPaymentRequest`: a subscription; the sheet shows its description, billing and where to manage
/// it.
public struct ApplePayRecurringPaymentRequest: Codable, Hashable, Sendable {
    /// What the subscription is, as the sheet shows it.
    public var paymentDescription: String
    /// The regular charge: a line item with `paymentTiming` `recurring`.
    public var regularBilling: ApplePayLineItem
    /// A trial period's charge, also `recurring`.
    public var trialBilling: ApplePayLineItem?
    /// Terms the sheet shows before the buyer authorizes.
    public var billingAgreement: String?
    /// Where the buyer manages or cancels the subscription.
    public var managementURL: String
    /// Where Apple sends merchant-token life-cycle notifications.
    public var tokenNotificationURL: String?

    /// Creates a recurring payment request.
    /// - Parameters:
    ///   - paymentDescription: What the subscription is.
    ///   - regularBilling: The regular charge.
    ///   - managementURL: Where the buyer manages it.
    public init(paymentDescription: String, regularBilling: ApplePayLineItem, managementURL: String) {
        self.paymentDescription = paymentDescription
        self.regularBilling = regularBilling
        self.managementURL = managementURL
    }

    private enum CodingKeys: String, CodingKey {
        case paymentDescription, regularBilling, trialBilling, billingAgreement, managementURL, tokenNotificationURL
    }

    /// Decodes; missing required strings decode as empty for validation to report.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        paymentDescription = try c.decodeIfPresent(String.self, forKey: .paymentDescription) ?? ""
        regularBilling = try c.decodeIfPresent(ApplePayLineItem.self, forKey: .regularBilling)
            ?? ApplePayLineItem(label: "", amount: "")
        trialBilling = try c.decodeIfPresent(ApplePayLineItem.self, forKey: .trialBilling)
        billingAgreement = try c.decodeIfPresent(String.self, forKey: .billingAgreement)
        managementURL = try c.decodeIfPresent(String.self, forKey: .managementURL) ?? ""
        tokenNotificationURL = try c.decodeIfPresent(String.self, forKey: .tokenNotificationURL)
    }
}

/// `ApplePayDeferredPaymentRequest`: a payment taken later, such as a hotel stay paid at check-out.
public struct ApplePayDeferredPaymentRequest: Codable, Hashable, Sendable {
    /// What the payment is for.
    public var paymentDescription: String
    /// The deferred charge: a line item with `paymentTiming` `deferred` and a `deferredPaymentDate`.
    public var deferredBilling: ApplePayLineItem
    /// Terms shown before the buyer authorizes.
    public var billingAgreement: String?
    /// Where the buyer manages the payment.
    public var managementURL: String
    /// Where Apple sends merchant-token life-cycle notifications.
    public var tokenNotificationURL: String?
    /// Until when the buyer may cancel for free.
    public var freeCancellationDate: String?
    /// The time zone of ``freeCancellationDate`` (an IANA identifier); required with it.
    public var freeCancellationDateTimeZone: String?

    /// Creates a deferred payment request.
    /// - Parameters:
    ///   - paymentDescription: What the payment is for.
    ///   - deferredBilling: The deferred charge.
    ///   - managementURL: Where the buyer manages it.
    public init(paymentDescription: String, deferredBilling: ApplePayLineItem, managementURL: String) {
        self.paymentDescription = paymentDescription
        self.deferredBilling = deferredBilling
        self.managementURL = managementURL
    }

    private enum CodingKeys: String, CodingKey {
        case paymentDescription, deferredBilling, billingAgreement, managementURL, tokenNotificationURL
        case freeCancellationDate, freeCancellationDateTimeZone
    }

    /// Decodes; missing required strings decode as empty for validation to report.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        paymentDescription = try c.decodeIfPresent(String.self, forKey: .paymentDescription) ?? ""
        deferredBilling = try c.decodeIfPresent(ApplePayLineItem.self, forKey: .deferredBilling)
            ?? ApplePayLineItem(label: "", amount: "")
        billingAgreement = try c.decodeIfPresent(String.self, forKey: .billingAgreement)
        managementURL = try c.decodeIfPresent(String.self, forKey: .managementURL) ?? ""
        tokenNotificationURL = try c.decodeIfPresent(String.self, forKey: .tokenNotificationURL)
        freeCancellationDate = try c.decodeIfPresent(String.self, forKey: .freeCancellationDate)
        freeCancellationDateTimeZone = try c.decodeIfPresent(String.self, forKey: .freeCancellationDateTimeZone)
    }
}

/// `ApplePayAutomaticReloadPaymentRequest`: a top-up charged when a stored balance falls below a threshold.
public struct ApplePayAutomaticReloadPaymentRequest: Codable, Hashable, Sendable {
    /// What is topped up.
    public var paymentDescription: String
    /// The reload: a line item with `paymentTiming` `automaticReload`, its amount the top-up and its
    /// `automaticReloadPaymentThresholdAmount` the trigger.
    public var automaticReloadBilling: ApplePayLineItem
    /// Terms shown before the buyer authorizes.
    public var billingAgreement: String?
    /// Where the buyer manages the reload.
    public var managementURL: String
    /// Where Apple sends merchant-token life-cycle notifications.
    public var tokenNotificationURL: String?

    /// Creates an automatic reload request.
    /// - Parameters:
    ///   - paymentDescription: What is topped up.
    ///   - automaticReloadBilling: The reload line item.
    ///   - managementURL: Where the buyer manages it.
    public init(paymentDescription: String, automaticReloadBilling: ApplePayLineItem, managementURL: String) {
        self.paymentDescription = paymentDescription
        self.automaticReloadBilling = automaticReloadBilling
        self.managementURL = managementURL
    }

    private enum CodingKeys: String, CodingKey {
        case paymentDescription, automaticReloadBilling, billingAgreement, managementURL, tokenNotificationURL
    }

    /// Decodes; missing required strings decode as empty for validation to report.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        paymentDescription = try c.decodeIfPresent(String.self, forKey: .paymentDescription) ?? ""
        automaticReloadBilling = try c.decodeIfPresent(ApplePayLineItem.self, forKey: .automaticReloadBilling)
            ?? ApplePayLineItem(label: "", amount: "")
        billingAgreement = try c.decodeIfPresent(String.self, forKey: .billingAgreement)
        managementURL = try c.decodeIfPresent(String.self, forKey: .managementURL) ?? ""
        tokenNotificationURL = try c.decodeIfPresent(String.self, forKey: .tokenNotificationURL)
    }
}
