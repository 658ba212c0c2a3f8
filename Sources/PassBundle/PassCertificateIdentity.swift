public import PassCrypto

/// Who a Pass Type ID certificate says it signs for.
public struct PassCertificateIdentity: Sendable, Equatable {
    /// The Pass Type ID, from the subject's UID, the `Pass Type ID: ` common name, or Apple's extension
    /// 1.2.840.113635.100.6.1.16, in that order.
    public var passTypeIdentifier: String?
    /// The team identifier, from the subject's OU.
    public var teamIdentifier: String?
    /// The organization, from the subject's O.
    public var organizationName: String?

    /// Reads the identity of a certificate.
    /// - Parameter certificate: A Pass Type ID certificate.
    public init(certificate: Certificate) {
        passTypeIdentifier = Self.typeIdentifier(of: certificate, commonNamePrefix: "Pass Type ID: ")
            ?? certificate.extensionText(oid: DevelopmentChain.passTypeIdentifierExtensionOID)
        teamIdentifier = certificate.subject["OU"]
        organizationName = certificate.subject["O"]
    }

    /// The type identifier a signing certificate names: its subject's UID, else its common name after
    /// `commonNamePrefix` (`Pass Type ID: `, `Order Type ID: `).
    static func typeIdentifier(of certificate: Certificate, commonNamePrefix: String) -> String? {
        if let uid = certificate.subject["UID"], !uid.isEmpty { return uid }
        guard let commonName = certificate.subject["CN"], commonName.hasPrefix(commonNamePrefix) else { return nil }
        return String(commonName.dropFirst(commonNamePrefix.count))
    }

    /// Describes how `passTypeIdentifier` and `teamIdentifier` from `pass.json` differ from this identity.
    /// - Parameters:
    ///   - passTypeIdentifier: The value in `pass.json`.
    ///   - teamIdentifier: The value in `pass.json`.
    /// - Returns: One `(path, message)` per mismatch; empty when they match.
    public func mismatches(passTypeIdentifier pass: String?, teamIdentifier team: String?) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        if let expected = passTypeIdentifier, pass != expected {
            problems.append(("passTypeIdentifier",
                             "\"\(pass ?? "")\" does not match the signing certificate's Pass Type ID \"\(expected)\""))
        } else if passTypeIdentifier == nil {
            problems.append(("passTypeIdentifier", "the signing certificate names no Pass Type ID (no UID, \"Pass Type ID:\" common name or Apple extension)"))
        }
        if let expected = teamIdentifier, team != expected {
            problems.append(("teamIdentifier",
                             "\"\(team ?? "")\" does not match the signing certificate's team (OU) \"\(expected)\""))
        }
        return problems
    }
}
