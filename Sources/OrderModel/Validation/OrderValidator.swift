public import Foundation
public import PassModel
import PaymentRequest

/// Checks an order against Apple's `order.json` reference and the bundle's files, reporting every problem at once,
/// each with its JSON or file path, in the style of ``PassValidator``.
///
/// An **error** means Wallet would refuse the order or show it wrongly (a missing required key, a date that is not
/// RFC 3339, an amount with more decimals than its currency has, an unknown status, a URL that is not https, an image
/// the bundle lacks). A **warning** means the order works but something is ignored (unknown keys, which are kept).
public struct OrderValidator: Sendable {
    /// The largest image file an order may carry, in bytes: 2 MiB. Wallet shows order images as small thumbnails and
    /// logos, so anything larger only slows the download.
    public static let maximumImageSize = 2 << 20
    /// The most bytes an order's files may add up to: Apple's reference asks for bundles below 5 MB.
    public static let maximumBundleSize = 5 << 20

    /// Creates a validator.
    public init() {}

    /// Validates `order.json` bytes and the other files of the bundle.
    ///
    /// Values of the wrong type are reported with their path and then ignored, so the rest of the order is still checked.
    /// - Parameters:
    ///   - orderJSON: The `order.json` bytes.
    ///   - files: Every other bundle file by relative path (`logo.png`, `en.lproj/order.strings`), excluding
    ///     `order.json`, `manifest.json` and `signature`.
    /// - Returns: The report.
    public func validate(orderJSON: Data, files: [String: Data]) -> ValidationReport {
        decode(orderJSON: orderJSON, files: files).report
    }

    /// Decodes and validates `order.json` bytes with the other files of the bundle, reading them once.
    ///
    /// Values of the wrong type are reported with their path and left out of the order, so the rest of it is still
    /// checked and returned.
    /// - Parameters:
    ///   - orderJSON: The `order.json` bytes.
    ///   - files: Every other bundle file by relative path.
    /// - Returns: The order as far as it decodes (`nil` when it is not a JSON object), and the report.
    public func decode(orderJSON: Data, files: [String: Data]) -> (order: Order?, report: ValidationReport) {
        decode(orderJSON: orderJSON, prepared: PreparedFiles(files: files))
    }

    /// ``decode(orderJSON:files:)`` with files read once (``OrderTemplate/preparedFiles``).
    public func decode(orderJSON: Data, prepared files: PreparedFiles) -> (order: Order?, report: ValidationReport) {
        var context = ValidationContext()
        guard let order = JSONCoding.decodeReportingTypeErrors(Order.self, from: orderJSON, file: "order.json",
                                                               context: &context)
        else { return (nil, ValidationReport(issues: context.issues)) }
        check(order, files: files, context: &context)
        return (order, ValidationReport(issues: context.issues))
    }

    /// Validates a decoded order and the other files of the bundle.
    /// - Parameters:
    ///   - order: The order.
    ///   - files: Every other bundle file by relative path.
    /// - Returns: The report.
    public func validate(order: Order, files: [String: Data]) -> ValidationReport {
        validate(order: order, prepared: PreparedFiles(files: files))
    }

    /// ``validate(order:files:)`` with files read once (``OrderTemplate/preparedFiles``), for many orders of one
    /// template.
    public func validate(order: Order, prepared files: PreparedFiles) -> ValidationReport {
        var context = ValidationContext()
        check(order, files: files, context: &context)
        return ValidationReport(issues: context.issues)
    }

    private func check(_ order: Order, files: PreparedFiles, context: inout ValidationContext) {
        checkTopLevel(order, context: &context)
        checkMerchant(order.merchant, context: &context)
        checkCustomer(order.customer, context: &context)
        checkLineItems(order.lineItems ?? [], context: &context)
        checkPayment(order.payment, context: &context)
        checkFulfillments(order.fulfillments ?? [], context: &context)
        checkReturns(order.returns ?? [], context: &context)
        if let barcode = order.barcode { checkBarcode(barcode, at: "barcode", context: &context) }
        checkFiles(order, files: files, context: &context)
    }

    private func checkTopLevel(_ order: Order, context: inout ValidationContext) {
        switch order.schemaVersion {
        case nil: context.error("schemaVersion", "required key is missing")
        case 1: break
        case let version?: context.error("schemaVersion", "must be 1, found \(version)")
        }
        Self.required(order.orderTypeIdentifier, at: "orderTypeIdentifier", context: &context)
        if let identifier = order.orderTypeIdentifier, !identifier.isEmpty, !identifier.hasPrefix("order.") {
            context.error("orderTypeIdentifier", "order type identifiers start with \"order.\", found \"\(identifier)\"")
        }
        Self.required(order.orderIdentifier, at: "orderIdentifier", context: &context)
        switch order.orderNumber {
        case nil: context.warning("orderNumber", "missing: Wallet shows the order number the customer knows the order by")
        case let number? where number.trimmingWhitespace().isEmpty: context.error("orderNumber", "must not be empty")
        default: break
        }
        Self.known(order.orderType, OrderStatusValues.orderTypes, at: "orderType", required: true, context: &context)
        Self.known(order.status, OrderStatusValues.order, at: "status", required: true, context: &context)
        Self.known(order.changeNotifications, OrderStatusValues.changeNotifications, at: "changeNotifications",
                   context: &context)
        let created = Self.date(order.createdAt, at: "createdAt", required: true, context: &context)
        let updated = Self.date(order.updatedAt, at: "updatedAt", required: true, context: &context)
        if let created, let updated, updated < created {
            context.error("updatedAt", "\(order.updatedAt ?? "") is before createdAt \(order.createdAt ?? "")")
        }
        Self.httpsURL(order.orderManagementURL, at: "orderManagementURL", required: true, context: &context)
        Self.httpsURL(order.webServiceURL, at: "webServiceURL", allowingLoopbackHTTP: true, context: &context)
        switch (order.webServiceURL, order.authenticationToken) {
        case (_?, nil): context.error("authenticationToken", "required when webServiceURL is given")
        case (nil, _?): context.error("webServiceURL", "required when authenticationToken is given")
        case (_?, let token?) where token.count < 16:
            context.error("authenticationToken", "must be at least 16 characters, found \(token.count)")
        default: break
        }
        if let info = order.returnInfo {
            Self.httpsURL(info.returnPolicyURL, at: "returnInfo.returnPolicyURL", required: true, context: &context)
            Self.httpsURL(info.returnManagementURL, at: "returnInfo.returnManagementURL", context: &context)
            Self.date(info.returnDeadline, at: "returnInfo.returnDeadline", context: &context)
            if info.displayCountdown == true, info.returnDeadline == nil {
                context.error("returnInfo.returnDeadline", "required when displayCountdown is true (the countdown ends there)")
            }
            PassValidator.warnUnknownKeys(info.unknownKeys, at: "returnInfo", context: &context)
        }
        if let provider = order.orderProvider {
            Self.required(provider.displayName, at: "orderProvider.displayName", context: &context)
            Self.httpsURL(provider.url, at: "orderProvider.url", required: true, context: &context)
            Self.required(provider.trackingLogoNameDarkColorScheme, at: "orderProvider.trackingLogoNameDarkColorScheme",
                          context: &context)
            Self.required(provider.trackingLogoNameLightColorScheme, at: "orderProvider.trackingLogoNameLightColorScheme",
                          context: &context)
            PassValidator.warnUnknownKeys(provider.unknownKeys, at: "orderProvider", context: &context)
        }
        for (index, application) in (order.associatedApplications ?? []).enumerated() {
            let path = "associatedApplications[\(index)]"
            switch application.storeIdentifier {
            case nil: context.error("\(path).storeIdentifier", "required key is missing")
            case let identifier? where identifier <= 0:
                context.error("\(path).storeIdentifier", "must be an App Store identifier (a positive number), found \(identifier)")
            default: break
            }
            PassValidator.warnUnknownKeys(application.unknownKeys, at: path, context: &context)
        }
        for key in order.unknownKeys.keys.sorted() { context.warning(key, "unknown key, kept as is") }
    }

    /// Reports an email address without an `@`.
    static func emailAddress(_ value: String?, at path: String, context: inout ValidationContext) {
        if let value, !value.contains("@") { context.error(path, "\"\(value)\" is not an email address") }
    }

    private func checkMerchant(_ merchant: OrderMerchant?, context: inout ValidationContext) {
        guard let merchant else {
            context.error("merchant", "required key is missing")
            return
        }
        Self.required(merchant.displayName, at: "merchant.displayName", context: &context)
        Self.required(merchant.merchantIdentifier, at: "merchant.merchantIdentifier", context: &context)
        if merchant.logo == nil {
            context.warning("merchant.logo", "missing: Wallet shows the merchant's name without a logo")
        }
        Self.httpsURL(merchant.url, at: "merchant.url", required: true, context: &context)
        Self.httpsURL(merchant.businessChatURL, at: "merchant.businessChatURL", context: &context)
        Self.httpsURL(merchant.contactURL, at: "merchant.contactURL", context: &context)
        Self.emailAddress(merchant.emailAddress, at: "merchant.emailAddress", context: &context)
        if let address = merchant.address { checkAddress(address, at: "merchant.address", context: &context) }
        PassValidator.warnUnknownKeys(merchant.unknownKeys, at: "merchant", context: &context)
    }

    private func checkCustomer(_ customer: OrderCustomer?, context: inout ValidationContext) {
        guard let customer else { return }
        Self.emailAddress(customer.emailAddress, at: "customer.emailAddress", context: &context)
        PassValidator.warnUnknownKeys(customer.unknownKeys, at: "customer", context: &context)
    }

    func checkAddress(_ address: OrderAddress, at path: String, context: inout ValidationContext) {
        if let country = address.countryCode, country.count != 2 || !CountryCode.isValid(country) {
            context.error("\(path).countryCode", "\"\(country)\" is not an ISO 3166 country code")
        }
        PassValidator.warnUnknownKeys(address.unknownKeys, at: path, context: &context)
    }

    func checkBarcode(_ barcode: OrderBarcode, at path: String, context: inout ValidationContext) {
        Self.required(barcode.message, at: "\(path).message", context: &context)
        Self.known(barcode.format, OrderStatusValues.barcodeFormats, at: "\(path).format", required: true,
                   context: &context)
        if let encoding = barcode.messageEncoding {
            if !PassValidator.knownEncodings.contains(encoding.lowercased()) {
                context.error("\(path).messageEncoding",
                              "unknown value \"\(encoding)\", expected an IANA character set name such as iso-8859-1 or utf-8")
            }
        } else {
            context.error("\(path).messageEncoding", "required key is missing (usually iso-8859-1)")
        }
        PassValidator.warnUnknownKeys(barcode.unknownKeys, at: path, context: &context)
    }
}
