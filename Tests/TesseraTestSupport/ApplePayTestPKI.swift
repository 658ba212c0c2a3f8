public import Foundation
public import PassCrypto

/// A certificate hierarchy shaped like Apple Pay's token signing chain, for generating signed test tokens:
/// a root (standing in for Apple Root CA - G3), an intermediate carrying OID 1.2.840.113635.100.6.2.14 and a
/// signing leaf carrying OID 1.2.840.113635.100.6.29; plus merchant payment-processing identities with the
/// merchant identifier extension 1.2.840.113635.100.6.32.
///
/// Encrypt with `PaymentTokenEncryptor` (module PaymentToken), then sign the token's `signedContent` with
/// ``signature(for:at:)``.
public struct ApplePayTestPKI: Sendable {
    /// The self-signed root.
    public let root: Certificate
    /// The intermediate (Apple Application Integration CA - G3 look-alike).
    public let intermediate: Certificate
    /// The signing leaf (`ecc-smp-broker-sign` or `rsa-smp-broker-sign` look-alike).
    public let leaf: Certificate
    /// The leaf's key.
    public let leafKey: PrivateKey
    /// Signs token content with the leaf, including the intermediate in each signature.
    public let signer: CMSSigner

    /// Generates a hierarchy valid from `validFrom` for `validity` seconds.
    /// - Parameters:
    ///   - validFrom: Start of validity of all three certificates.
    ///   - validity: How long they stay valid.
    ///   - rsaLeaf: Whether the signing leaf has an RSA key (as RSA_v1 tokens are signed) instead of P-256.
    ///   - leafOID: Whether the leaf carries its Apple OID (turn off to test the OID check).
    ///   - intermediateOID: Whether the intermediate carries its Apple OID.
    public init(validFrom: Date = Date().addingTimeInterval(-86_400), validity: TimeInterval = 2 * 365 * 86_400,
                rsaLeaf: Bool = false, leafOID: Bool = true, intermediateOID: Bool = true) throws {
        let notAfter = validFrom.addingTimeInterval(validity)
        let rootKey = try PrivateKey.generateP256()
        root = try CertificateBuilder(
            subject: DistinguishedName([("CN", "Tessera Test Root CA - G3"), ("OU", "NOT FOR PRODUCTION"),
                                        ("O", "Tessera Test"), ("C", "US")]),
            notBefore: validFrom, notAfter: notAfter,
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash")]
        ).issue(publicKeyOf: rootKey, issuer: nil, issuerKey: rootKey)

        let intermediateKey = try PrivateKey.generateP256()
        var intermediateExtensions: [(name: String, value: String)] = [
            ("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
            ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
        ]
        if intermediateOID { intermediateExtensions.append(("1.2.840.113635.100.6.2.14", "ASN1:NULL")) }
        intermediate = try CertificateBuilder(
            subject: DistinguishedName([("CN", "Tessera Test Application Integration CA - G3"), ("OU", "NOT FOR PRODUCTION"),
                                        ("O", "Tessera Test"), ("C", "US")]),
            notBefore: validFrom, notAfter: notAfter, extensions: intermediateExtensions
        ).issue(publicKeyOf: intermediateKey, issuer: root, issuerKey: rootKey)

        leafKey = rsaLeaf ? try PrivateKey.generateRSA(bits: 2048) : try PrivateKey.generateP256()
        var leafExtensions: [(name: String, value: String)] = [
            ("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
            ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
        ]
        if leafOID { leafExtensions.append(("1.2.840.113635.100.6.29", "ASN1:NULL")) }
        leaf = try CertificateBuilder(
            subject: DistinguishedName([("CN", rsaLeaf ? "rsa-smp-broker-sign_UC4-TEST" : "ecc-smp-broker-sign_UC4-TEST"),
                                        ("OU", "NOT FOR PRODUCTION"), ("O", "Tessera Test"), ("C", "US")]),
            notBefore: validFrom, notAfter: notAfter, extensions: leafExtensions
        ).issue(publicKeyOf: leafKey, issuer: intermediate, issuerKey: intermediateKey)
        signer = try CMSSigner(certificate: leaf, privateKey: leafKey, chain: [intermediate])
    }

    /// A detached CMS signature over `content` whose `signingTime` is `signingTime`.
    /// - Parameters:
    ///   - content: The token's signed content.
    ///   - signingTime: The time to record.
    /// - Returns: DER CMS bytes for the token's `signature`.
    public func signature(for content: Data, at signingTime: Date = Date()) throws -> Data {
        try signer.signDetached(content, at: signingTime)
    }

    /// Writes the root as PEM and returns the file's path.
    /// - Parameter directory: The folder.
    /// - Returns: The path of `apple-root.pem`.
    public func writeRoot(to directory: URL) throws -> String {
        let url = directory.appendingPathComponent("apple-root.pem")
        try Data(root.pemString.utf8).write(to: url)
        return url.path
    }
}

/// A merchant's Apple Pay payment-processing identity for tests: a key (P-256 or RSA) and a certificate carrying
/// the merchant identifier hash in extension 1.2.840.113635.100.6.32, issued by a throwaway CA.
public struct TestMerchantIdentity: Sendable {
    /// The merchant identifier, e.g. `merchant.dev.tessera.test`.
    public let merchantID: String
    /// The private key.
    public let privateKey: PrivateKey
    /// The "Apple Pay Payment Processing" certificate.
    public let certificate: Certificate

    /// Generates an identity.
    /// - Parameters:
    ///   - merchantID: The merchant identifier.
    ///   - rsa: An RSA-2048 key (RSA_v1 tokens) instead of P-256 (EC_v1).
    public init(merchantID: String = "merchant.dev.tessera.test", rsa: Bool = false) throws {
        self.merchantID = merchantID
        privateKey = rsa ? try PrivateKey.generateRSA(bits: 2048) : try PrivateKey.generateP256()
        let hashHex = Hex.encode(Digest.sha256(Data(merchantID.utf8)), uppercase: true)
        let now = Date()
        certificate = try CertificateBuilder(
            subject: DistinguishedName([("UID", merchantID), ("CN", "Apple Pay Payment Processing:\(merchantID)"),
                                        ("OU", "TESSERA123"), ("O", "Tessera Test"), ("C", "US")]),
            notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(365 * 86_400),
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("1.2.840.113635.100.6.32", "ASN1:UTF8String:\(hashHex)")]
        ).issue(publicKeyOf: privateKey, issuer: nil, issuerKey: privateKey)
    }

    /// The private key as PKCS#8 PEM.
    public var keyPEM: String { (try? privateKey.pkcs8PEM()) ?? "" }

    /// Writes `merchant.key` (PKCS#8) and `merchant.pem` into `directory`.
    /// - Parameter directory: The folder.
    /// - Returns: The key and certificate paths.
    public func write(to directory: URL) throws -> (key: String, certificate: String) {
        let key = directory.appendingPathComponent("merchant-\(merchantID).key")
        let certificate = directory.appendingPathComponent("merchant-\(merchantID).pem")
        try Data(try privateKey.pkcs8PEM().utf8).write(to: key)
        try Data(self.certificate.pemString.utf8).write(to: certificate)
        return (key.path, certificate.path)
    }
}
