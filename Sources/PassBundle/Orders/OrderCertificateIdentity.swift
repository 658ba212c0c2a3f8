public import PassCrypto

/// Who an Order Type ID certificate says it signs for: the Order Type ID (`order.com.example.shop`) and the team.
public struct OrderCertificateIdentity: Sendable, Equatable {
    /// The type identifier the certificate names (its subject's UID, or the `Order Type ID: ` common name), whatever
    /// its prefix: a Pass Type ID certificate's is `pass.…`, which ``problems(orderTypeIdentifier:)`` reports.
    public var typeIdentifier: String?
    /// The team identifier, from the subject's OU.
    public var teamIdentifier: String?
    /// The organization, from the subject's O.
    public var organizationName: String?

    /// Reads the identity of a certificate.
    /// - Parameter certificate: An Order Type ID certificate.
    public init(certificate: Certificate) {
        let pass = PassCertificateIdentity(certificate: certificate)
        typeIdentifier = PassCertificateIdentity.typeIdentifier(of: certificate, commonNamePrefix: "Order Type ID: ")
            ?? pass.passTypeIdentifier
        teamIdentifier = pass.teamIdentifier
        organizationName = pass.organizationName
    }

    /// The Order Type ID, when the certificate is an Order Type ID certificate (its identifier starts with `order.`).
    public var orderTypeIdentifier: String? {
        typeIdentifier.flatMap { $0.hasPrefix("order.") ? $0 : nil }
    }

    /// Why this certificate cannot sign an order of `orderTypeIdentifier`: it names no Order Type ID, it is a Pass Type
    /// ID certificate, its identifier is another one, or it names no team.
    /// - Parameter order: The order's `orderTypeIdentifier`, or `nil` to check only the certificate.
    /// - Returns: One `(path, message)` per problem; empty when the certificate fits.
    public func problems(orderTypeIdentifier order: String?) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        switch typeIdentifier {
        case nil:
            problems.append(("orderTypeIdentifier", "the signing certificate names no Order Type ID (no UID or "
                + "\"Order Type ID:\" common name)"))
        case let identifier? where identifier.hasPrefix("pass."):
            problems.append(("orderTypeIdentifier", "the signing certificate is a Pass Type ID certificate (\(identifier)); "
                + "orders are signed with an Order Type ID certificate, whose identifier starts with \"order.\""))
        case let identifier? where !identifier.hasPrefix("order."):
            problems.append(("orderTypeIdentifier", "the signing certificate's identifier \"\(identifier)\" is not an "
                + "Order Type ID (they start with \"order.\")"))
        case let identifier?:
            if let order, order != identifier {
                problems.append(("orderTypeIdentifier",
                                 "\"\(order)\" does not match the signing certificate's Order Type ID \"\(identifier)\""))
            }
        }
        if teamIdentifier?.isEmpty ?? true {
            problems.append(("signature", "the signing certificate names no team (OU)"))
        }
        return problems
    }
}
