public import Foundation

/// A development certificate chain shaped like Apple's: a root, a WWDR-like intermediate and a
/// Pass Type ID certificate with the real certificate's subject layout and extensions.
/// Wallet does not trust it; it exists for tests and local tooling only.
public struct DevelopmentChain: Sendable {
    /// Apple's Pass Type ID extension OID; its value is the pass type identifier.
    public static let passTypeIdentifierExtensionOID = "1.2.840.113635.100.6.1.16"

    /// The self-signed root.
    public var root: Certificate
    /// The root's key.
    public var rootKey: PrivateKey
    /// The WWDR-like intermediate.
    public var wwdr: Certificate
    /// The intermediate's key.
    public var wwdrKey: PrivateKey
    /// The Pass Type ID certificate.
    public var pass: Certificate
    /// The Pass Type ID certificate's key.
    public var passKey: PrivateKey

    /// Generates a new chain.
    /// - Parameters:
    ///   - passTypeIdentifier: e.g. `pass.dev.tessera.demo`.
    ///   - teamIdentifier: e.g. `TESSERA123`.
    ///   - organization: The organization name in the Pass Type ID certificate.
    ///   - validFrom: Start of validity for all three.
    ///   - passValidity: How long the Pass Type ID certificate is valid (Apple issues them for a year).
    /// - Returns: The chain.
    public static func generate(
        passTypeIdentifier: String,
        teamIdentifier: String,
        organization: String = "Tessera Development",
        validFrom: Date = Date().addingTimeInterval(-3600),
        passValidity: TimeInterval = 365 * 86_400
    ) throws -> DevelopmentChain {
        let rootKey = try PrivateKey.generateRSA(bits: 2048)
        let root = try CertificateBuilder(
            subject: DistinguishedName([("C", "US"), ("O", "Tessera Development"), ("OU", "NOT FOR PRODUCTION"),
                                        ("CN", "Tessera Development Root CA")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(20 * 365 * 86_400),
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash")]
        ).issue(publicKeyOf: rootKey, issuer: nil, issuerKey: rootKey)

        let wwdrKey = try PrivateKey.generateRSA(bits: 2048)
        let wwdr = try CertificateBuilder(
            subject: DistinguishedName([("CN", "Tessera Development WWDR Certification Authority"), ("OU", "G4"),
                                        ("O", "Tessera Development (NOT FOR PRODUCTION)"), ("C", "US")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(10 * 365 * 86_400),
            extensions: [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
                         ("1.2.840.113635.100.6.2.1", "ASN1:NULL")]
        ).issue(publicKeyOf: wwdrKey, issuer: root, issuerKey: rootKey)

        let passKey = try PrivateKey.generateRSA(bits: 2048)
        let pass = try CertificateBuilder(
            subject: DistinguishedName([("UID", passTypeIdentifier), ("CN", "Pass Type ID: \(passTypeIdentifier)"),
                                        ("OU", teamIdentifier), ("O", organization), ("C", "US")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(passValidity),
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("authorityKeyIdentifier", "keyid:always"),
                         ("keyUsage", "critical,digitalSignature"), ("extendedKeyUsage", "clientAuth,1.2.840.113635.100.4.14"),
                         ("subjectKeyIdentifier", "hash"), ("1.2.840.113635.100.6.3.2", "ASN1:NULL"),
                         (passTypeIdentifierExtensionOID, "ASN1:UTF8String:\(passTypeIdentifier)")]
        ).issue(publicKeyOf: passKey, issuer: wwdr, issuerKey: wwdrKey)

        return DevelopmentChain(root: root, rootKey: rootKey, wwdr: wwdr, wwdrKey: wwdrKey, pass: pass, passKey: passKey)
    }

    /// Writes `root.pem`, `wwdr.pem`, `pass.pem`, `pass.key` (mode 0600) and `pass.p12` into `directory`.
    /// - Parameters:
    ///   - directory: The folder, created if missing.
    ///   - p12Password: The password for `pass.p12`.
    /// - Returns: The paths written.
    @discardableResult
    public func write(to directory: URL, p12Password: String) throws -> [URL] {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        let p12 = try PKCS12Archive(privateKey: passKey, certificate: pass, additionalCertificates: [wwdr])
            .encoded(password: p12Password, friendlyName: pass.subject["CN"] ?? "Pass Type ID")
        let files: [(String, Data, Int)] = [
            ("root.pem", Data(root.pemString.utf8), 0o644),
            ("wwdr.pem", Data(wwdr.pemString.utf8), 0o644),
            ("pass.pem", Data(pass.pemString.utf8), 0o644),
            ("pass.key", Data(try passKey.pkcs8PEM().utf8), 0o600),
            ("pass.p12", p12, 0o600),
        ]
        var written: [URL] = []
        for (name, data, mode) in files {
            let url = directory.appendingPathComponent(name)
            try data.write(to: url, options: .atomic)
            try fileManager.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
            written.append(url)
        }
        return written
    }
}
