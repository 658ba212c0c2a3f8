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
        var context = ValidationContext()
        guard let order = JSONCoding.decodeReportingTypeErrors(Order.self, from: orderJSON, file: "order.json",
                                                               context: &context)
        else { return ValidationReport(issues: context.issues) }
        check(order, files: files, context: &context)
        return ValidationReport(issues: context.issues)
    }

    /// Validates a decoded order and the other files of the bundle.
    /// - Parameters:
    ///   - order: The order.
    ///   - files: Every other bundle file by relative path.
    /// - Returns: The report.
    public func validate(order: Order, files: [String: Data]) -> ValidationReport {
        var context = ValidationContext()
        check(order, files: files, context: &context)
        return ValidationReport(issues: context.issues)
    }

    private func check(_ order: Order, files: [String: Data], context: inout ValidationContext) {
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
        for key in order.unknownKeys.keys.sorted() where !OrderDocumentFields.documentedUntypedKeys.contains(key) {
            context.warning(key, "unknown key, kept as is")
        }
    }

    private func checkMerchant(_ merchant: OrderMerchant?, context: inout ValidationContext) {
        guard let merchant else {
            context.error("merchant", "required key is missing")
            return
        }
        Self.required(merchant.displayName, at: "merchant.displayName", context: &context)
        Self.required(merchant.merchantIdentifier, at: "merchant.merchantIdentifier", context: &context)
        Self.required(merchant.logo, at: "merchant.logo", context: &context)
        Self.httpsURL(merchant.url, at: "merchant.url", required: true, context: &context)
        Self.httpsURL(merchant.businessChatURL, at: "merchant.businessChatURL", context: &context)
        if let address = merchant.address { checkAddress(address, at: "merchant.address", context: &context) }
        PassValidator.warnUnknownKeys(merchant.unknownKeys, at: "merchant", context: &context)
    }

    private func checkCustomer(_ customer: OrderCustomer?, context: inout ValidationContext) {
        guard let customer else { return }
        if let email = customer.emailAddress, !email.contains("@") {
            context.error("customer.emailAddress", "\"\(email)\" is not an email address")
        }
        PassValidator.warnUnknownKeys(customer.unknownKeys, at: "customer", context: &context)
    }

    func checkAddress(_ address: OrderAddress, at path: String, context: inout ValidationContext) {
        if let country = address.countryCode, !CountryCode.isValid(country) {
            context.error("\(path).countryCode", "\"\(country)\" is not an ISO 3166 country code")
        }
        PassValidator.warnUnknownKeys(address.unknownKeys, at: path, context: &context)
    }

    private func checkBarcode(_ barcode: OrderBarcode, at path: String, context: inout ValidationContext) {
        Self.required(barcode.message, at: "\(path).message", context: &context)
        Self.known(barcode.format, OrderStatusValues.barcodeFormats, at: "\(path).format", required: true,
                   context: &context)
        PassValidator.warnUnknownKeys(barcode.unknownKeys, at: path, context: &context)
    }
}
