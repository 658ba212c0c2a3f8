/// `ApplePayError`: a problem the merchant reports back to the sheet (an address it cannot ship to, an expired
/// coupon), shown next to the field at fault.
public struct ApplePayError: Codable, Hashable, Sendable {
    /// What went wrong.
    public enum Code: String, Codable, Hashable, Sendable, CaseIterable {
        /// The shipping contact is invalid (name ``contactField`` when one field is at fault).
        case shippingContactInvalid
        /// The billing contact is invalid.
        case billingContactInvalid
        /// The merchant does not ship to this address.
        case addressUnserviceable
        /// The coupon code is not valid.
        case couponCodeInvalid
        /// The coupon code has expired.
        case couponCodeExpired
        /// Anything else.
        case unknown
    }

    /// `ApplePayErrorContactField`: the contact field an error points at.
    public enum ContactField: String, Codable, Hashable, Sendable, CaseIterable {
        /// Phone number.
        case phoneNumber
        /// Email address.
        case emailAddress
        /// Name.
        case name
        /// Phonetic name.
        case phoneticName
        /// The whole postal address.
        case postalAddress
        /// Street lines.
        case addressLines
        /// Neighbourhood or district.
        case subLocality
        /// City.
        case locality
        /// Postal code.
        case postalCode
        /// County or similar.
        case subAdministrativeArea
        /// State or province.
        case administrativeArea
        /// Country name.
        case country
        /// Country code.
        case countryCode
    }

    /// What went wrong.
    public var code: Code
    /// The field at fault, for contact errors.
    public var contactField: ContactField?
    /// A message for the buyer.
    public var message: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - contactField: The field at fault.
    ///   - message: A message for the buyer.
    public init(code: Code, contactField: ContactField? = nil, message: String? = nil) {
        self.code = code
        self.contactField = contactField
        self.message = message
    }
}

/// `ApplePayPaymentAuthorizationResult`: the merchant's answer after it tried to charge the token.
public struct ApplePayPaymentAuthorizationResult: Codable, Hashable, Sendable {
    /// `ApplePaySession.STATUS_*` values.
    public enum Status: Int, Codable, Hashable, Sendable, CaseIterable {
        /// `STATUS_SUCCESS`: the sheet shows a check mark.
        case success = 0
        /// `STATUS_FAILURE`: the sheet shows the errors and lets the buyer try again.
        case failure = 1
        /// `STATUS_INVALID_BILLING_POSTAL_ADDRESS` (deprecated: use ``failure`` with an error).
        case invalidBillingPostalAddress = 2
        /// `STATUS_INVALID_SHIPPING_POSTAL_ADDRESS` (deprecated: use ``failure`` with an error).
        case invalidShippingPostalAddress = 3
        /// `STATUS_INVALID_SHIPPING_CONTACT` (deprecated: use ``failure`` with an error).
        case invalidShippingContact = 4
        /// `STATUS_PIN_REQUIRED`.
        case pinRequired = 5
        /// `STATUS_PIN_INCORRECT`.
        case pinIncorrect = 6
        /// `STATUS_PIN_LOCKOUT`.
        case pinLockout = 7
    }

    /// The outcome.
    public var status: Status
    /// Problems to show, with ``Status/failure``.
    public var errors: [ApplePayError]?
    /// Wallet order details, to add the order to Wallet after a success.
    public var orderDetails: ApplePayPaymentOrderDetails?

    /// Creates a result.
    /// - Parameters:
    ///   - status: The outcome.
    ///   - errors: Problems to show.
    ///   - orderDetails: Wallet order details.
    public init(status: Status, errors: [ApplePayError]? = nil, orderDetails: ApplePayPaymentOrderDetails? = nil) {
        self.status = status
        self.errors = errors
        self.orderDetails = orderDetails
    }

    /// A success.
    public static let success = ApplePayPaymentAuthorizationResult(status: .success)

    /// A failure with the problems the sheet should show.
    /// - Parameter errors: The problems.
    /// - Returns: A failure result.
    public static func failure(_ errors: [ApplePayError]) -> ApplePayPaymentAuthorizationResult {
        ApplePayPaymentAuthorizationResult(status: .failure, errors: errors)
    }
}

/// `ApplePayPaymentOrderDetails`: where Wallet fetches the order created by a payment.
public struct ApplePayPaymentOrderDetails: Codable, Hashable, Sendable {
    /// The order type identifier.
    public var orderTypeIdentifier: String
    /// The order's identifier.
    public var orderIdentifier: String
    /// The order web service's base URL.
    public var webServiceURL: String
    /// The token Wallet sends to the web service.
    public var authenticationToken: String

    /// Creates order details.
    /// - Parameters:
    ///   - orderTypeIdentifier: The order type identifier.
    ///   - orderIdentifier: The order's identifier.
    ///   - webServiceURL: The web service's base URL.
    ///   - authenticationToken: The token Wallet sends.
    public init(orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: String,
                authenticationToken: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
    }
}
