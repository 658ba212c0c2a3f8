public import Foundation
public import OrderModel
public import PassModel

/// A signed order made by ``OrderBuilder``.
public struct BuiltOrder: Sendable {
    /// The order's identifier.
    public var orderIdentifier: String
    /// The signed `order.json` bytes.
    public var orderJSON: Data
    /// The `.order` bytes.
    public var bundle: Data
    /// Validator warnings (a built order has no errors).
    public var warnings: [ValidationIssue]
}

/// Makes signed orders from one template: merges a data document, validates, signs.
///
/// As for passes, the signing certificate is the issuer's identity: every order gets the certificate's Order Type ID,
/// whatever the template says, so a template works with any certificate. A data document may name
/// `orderTypeIdentifier` only with the certificate's own value.
public struct OrderBuilder: Sendable {
    /// The template.
    public let template: OrderTemplate
    /// The signer.
    public let signer: OrderSigner

    /// Creates a builder.
    /// - Parameters:
    ///   - template: A loaded template.
    ///   - signer: The signer.
    public init(template: OrderTemplate, signer: OrderSigner) {
        self.template = template
        self.signer = signer
    }

    /// Builds one signed order.
    ///
    /// The signed `order.json` is the order as the model writes it (compact, keys sorted), in Apple's types: every amount a decimal string
    /// with its currency's digits (`12.5` in a template becomes `"12.50"`), `payment.paymentMethods` strings, the
    /// certificate's `orderTypeIdentifier`, and every other key kept as it was.
    /// - Parameters:
    ///   - data: A data document merged into the template's `order.json`, or `nil` for the template as is.
    ///   - source: The data document's name for messages, such as its path.
    /// - Returns: The identifier, bytes and warnings.
    /// - Throws: ``PassBundleError``: `.invalidOrder` listing every error and warning at once (in
    ///   ``PassBundleError/issues``), `.identityMismatch` when the data names another Order Type ID than the
    ///   certificate's.
    public func build(data: Data?, source: String = "data") throws -> BuiltOrder {
        let (order, orderJSON, report) = try document(data: data, source: source)
        guard report.isValid else {
            throw PassBundleError(.invalidOrder, "the order is not valid:\n" + report.errors.map { "  \($0)" }
                .joined(separator: "\n"), issues: report.issues)
        }
        let bundle = try signer.signedBundle(orderJSON: orderJSON, files: template.files,
                                             orderTypeIdentifier: order?.orderTypeIdentifier)
        return BuiltOrder(orderIdentifier: order?.orderIdentifier ?? "", orderJSON: orderJSON, bundle: bundle,
                          warnings: report.warnings)
    }

    /// The order a data document makes, as ``build(data:source:)`` would sign it, without signing: the template with
    /// the data merged in and the certificate's Order Type ID, decoded and validated once.
    /// - Parameters:
    ///   - data: A data document merged into the template's `order.json`, or `nil` for the template as is.
    ///   - source: The data document's name for messages, such as its path.
    /// - Returns: The order as far as it decodes, its `order.json` bytes in Apple's types (when it decodes; otherwise
    ///   the merged bytes), and the validator's report.
    /// - Throws: ``PassBundleError`` `.invalidOrder` when the data is not a JSON object, `.identityMismatch` when it
    ///   names another Order Type ID than the certificate's.
    public func document(data: Data?, source: String = "data") throws
        -> (order: Order?, orderJSON: Data, report: ValidationReport)
    {
        var members: [String: JSONValue] = [:]
        do {
            if let data { members = try OrderTemplate.members(of: data, source: source) }
        } catch let error as PassModelError {
            throw PassBundleError(.invalidOrder, error.reason)
        }
        if let certified = signer.identity.orderTypeIdentifier {
            if let named = members["orderTypeIdentifier"], named != .string(certified) {
                let text = named.stringValue.map { "\"\($0)\"" } ?? named.kindName
                throw PassBundleError(.identityMismatch, "\(source) \"orderTypeIdentifier\": \(text) would need an Order "
                    + "Type ID certificate for it; the signing certificate's is \"\(certified)\" (leave the key out to use it)")
            }
            members["orderTypeIdentifier"] = .string(certified)
        }
        if let (order, orderJSON) = template.order(applying: members) {
            let report = OrderValidator().validate(order: order, prepared: template.preparedFiles)
            if report.isValid { return (order, orderJSON, report) }
        }
        // Something does not decode or is not valid: the whole merged document is decoded so that every problem is
        // reported at its path, as a document given whole would be.
        let merged = try template.orderJSON(applying: members)
        let (order, report) = OrderValidator().decode(orderJSON: merged, prepared: template.preparedFiles)
        guard let order, report.isValid else { return (order, merged, report) }
        return (order, try JSONCoding.encode(order, sortedKeys: true, prettyPrinted: false), report)
    }
}
