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
    /// - Parameters:
    ///   - data: A data document merged into the template's `order.json`, or `nil` for the template as is.
    ///   - source: The data document's name for messages, such as its path.
    /// - Returns: The identifier, bytes and warnings.
    /// - Throws: ``PassBundleError``: `.invalidOrder` listing every error and warning at once (in
    ///   ``PassBundleError/issues``), `.identityMismatch` when the data names another Order Type ID than the
    ///   certificate's.
    public func build(data: Data?, source: String = "data") throws -> BuiltOrder {
        var merged: Data
        do {
            merged = try template.orderJSON(applying: data, source: source)
        } catch let error as PassModelError {
            throw PassBundleError(.invalidOrder, error.reason)
        }
        if let certified = signer.identity.orderTypeIdentifier {
            let named = data.flatMap { try? JSONValue(jsonData: $0) }?["orderTypeIdentifier"]
            if let named, named != .string(certified) {
                let text = named.stringValue.map { "\"\($0)\"" } ?? named.kindName
                throw PassBundleError(.identityMismatch, "\(source) \"orderTypeIdentifier\": \(text) would need an Order "
                    + "Type ID certificate for it; the signing certificate's is \"\(certified)\" (leave the key out to use it)")
            }
            if case .object(var root) = try JSONValue(jsonData: merged), root["orderTypeIdentifier"] != .string(certified) {
                root["orderTypeIdentifier"] = .string(certified)
                merged = try JSONValue.object(root).jsonData(sortedKeys: true, prettyPrinted: true)
            }
        }
        let report = OrderValidator().validate(orderJSON: merged, files: template.files)
        guard report.isValid else {
            throw PassBundleError(.invalidOrder, "the order is not valid:\n" + report.errors.map { "  \($0)" }
                .joined(separator: "\n"), issues: report.issues)
        }
        let bundle = try signer.signedBundle(orderJSON: merged, files: template.files)
        let identifier = (try? JSONValue(jsonData: merged))?["orderIdentifier"]?.stringValue ?? ""
        return BuiltOrder(orderIdentifier: identifier, orderJSON: merged, bundle: bundle, warnings: report.warnings)
    }
}
