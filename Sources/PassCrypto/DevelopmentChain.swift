public import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// The three keys of a chain.
    public struct Keys: Sendable {
        /// The root's key.
        public var root: PrivateKey
        /// The intermediate's key.
        public var wwdr: PrivateKey
        /// The Pass Type ID certificate's key.
        public var pass: PrivateKey

        /// Keys given by the caller.
        /// - Parameters:
        ///   - root: The root's key.
        ///   - wwdr: The intermediate's key.
        ///   - pass: The Pass Type ID certificate's key.
        public init(root: PrivateKey, wwdr: PrivateKey, pass: PrivateKey) {
            self.root = root
            self.wwdr = wwdr
            self.pass = pass
        }

        /// Three new RSA 2048 keys, as Apple's certificates have. Each takes a few hundred milliseconds of CPU.
        /// - Returns: The keys.
        public static func generate() throws -> Keys {
            Keys(root: try PrivateKey.generateRSA(bits: 2048), wwdr: try PrivateKey.generateRSA(bits: 2048),
                 pass: try PrivateKey.generateRSA(bits: 2048))
        }
    }

    /// Generates a new chain.
    /// - Parameters:
    ///   - passTypeIdentifier: e.g. `pass.dev.tessera.demo`.
    ///   - teamIdentifier: e.g. `TESSERA123`.
    ///   - organization: The organization name in the Pass Type ID certificate.
    ///   - validFrom: Start of validity for all three.
    ///   - passValidity: How long the Pass Type ID certificate is valid (Apple issues them for a year).
    ///   - intermediateValidity: How long the WWDR-like intermediate is valid (ten years, as Apple's G4).
    ///   - keys: The keys to certify; new ones when nil. Chains issued over the same keys have distinct certificates
    ///     (each has a random serial number) but any of them verifies the others' signatures.
    /// - Returns: The chain.
    public static func generate(
        passTypeIdentifier: String,
        teamIdentifier: String,
        organization: String = "Tessera Development",
        validFrom: Date = Date().addingTimeInterval(-3600),
        passValidity: TimeInterval = 365 * 86_400,
        intermediateValidity: TimeInterval = 10 * 365 * 86_400,
        keys: Keys? = nil
    ) throws -> DevelopmentChain {
        let keys = try keys ?? Keys.generate()
        let rootKey = keys.root
        let root = try CertificateBuilder(
            subject: DistinguishedName([("C", "US"), ("O", "Tessera Development"), ("OU", "NOT FOR PRODUCTION"),
                                        ("CN", "Tessera Development Root CA")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(20 * 365 * 86_400),
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash")]
        ).issue(publicKeyOf: rootKey, issuer: nil, issuerKey: rootKey)

        let wwdrKey = keys.wwdr
        let wwdr = try CertificateBuilder(
            subject: DistinguishedName([("CN", "Tessera Development WWDR Certification Authority"), ("OU", "G4"),
                                        ("O", "Tessera Development (NOT FOR PRODUCTION)"), ("C", "US")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(intermediateValidity),
            extensions: [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
                         ("1.2.840.113635.100.6.2.1", "ASN1:NULL")]
        ).issue(publicKeyOf: wwdrKey, issuer: root, issuerKey: rootKey)

        let (pass, passKey) = try issueTypeCertificate(
            kind: "Pass Type ID", identifier: passTypeIdentifier, teamIdentifier: teamIdentifier, organization: organization,
            validFrom: validFrom, validity: passValidity, key: keys.pass, issuer: wwdr, issuerKey: wwdrKey,
            extraExtensions: [(passTypeIdentifierExtensionOID, "ASN1:UTF8String:\(passTypeIdentifier)")])

        return DevelopmentChain(root: root, rootKey: rootKey, wwdr: wwdr, wwdrKey: wwdrKey, pass: pass, passKey: passKey)
    }

    /// Issues a development Order Type ID certificate from this chain's WWDR-like intermediate, laid out like the Pass
    /// Type ID one (UID and `Order Type ID: ` common name, team in the OU).
    /// - Parameters:
    ///   - orderTypeIdentifier: e.g. `order.com.example.shop`.
    ///   - teamIdentifier: e.g. `TESSERA123`.
    ///   - organization: The organization name.
    ///   - validFrom: Start of validity.
    ///   - validity: How long it is valid.
    ///   - key: The key to certify; a new RSA 2048 key when nil.
    /// - Returns: The certificate and its key.
    public func orderTypeCertificate(
        orderTypeIdentifier: String, teamIdentifier: String, organization: String = "Tessera Development",
        validFrom: Date = Date().addingTimeInterval(-3600), validity: TimeInterval = 365 * 86_400, key: PrivateKey? = nil
    ) throws -> (certificate: Certificate, key: PrivateKey) {
        try Self.issueTypeCertificate(
            kind: "Order Type ID", identifier: orderTypeIdentifier, teamIdentifier: teamIdentifier,
            organization: organization, validFrom: validFrom, validity: validity,
            key: try key ?? PrivateKey.generateRSA(bits: 2048), issuer: wwdr, issuerKey: wwdrKey, extraExtensions: [])
    }

    /// A signing certificate for a type identifier (`Pass Type ID`, `Order Type ID`) issued by the intermediate.
    private static func issueTypeCertificate(
        kind: String, identifier: String, teamIdentifier: String, organization: String, validFrom: Date,
        validity: TimeInterval, key: PrivateKey, issuer: Certificate, issuerKey: PrivateKey,
        extraExtensions: [(name: String, value: String)]
    ) throws -> (Certificate, PrivateKey) {
        let certificate = try CertificateBuilder(
            subject: DistinguishedName([("UID", identifier), ("CN", "\(kind): \(identifier)"),
                                        ("OU", teamIdentifier), ("O", organization), ("C", "US")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(validity),
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("authorityKeyIdentifier", "keyid:always"),
                         ("keyUsage", "critical,digitalSignature"), ("extendedKeyUsage", "clientAuth,1.2.840.113635.100.4.14"),
                         ("subjectKeyIdentifier", "hash"), ("1.2.840.113635.100.6.3.2", "ASN1:NULL")] + extraExtensions
        ).issue(publicKeyOf: key, issuer: issuer, issuerKey: issuerKey)
        return (certificate, key)
    }

    /// Writes `root.pem`, `wwdr.pem`, `pass.pem`, `pass.key` (mode 0600) and `pass.p12` into `directory`.
    /// - Parameters:
    ///   - directory: The folder, created if missing.
    ///   - p12Password: The password for `pass.p12`.
    /// - Returns: The paths written.
    @discardableResult
    public func write(to directory: URL, p12Password: String) throws -> [URL] {
        let files: [(String, Data, Int)] = [
            ("root.pem", Data(root.pemString.utf8), 0o644),
            ("wwdr.pem", Data(wwdr.pemString.utf8), 0o644),
        ]
        return try Self.write(files, to: directory)
            + writeSigningFiles(named: "pass", certificate: pass, key: passKey, to: directory, p12Password: p12Password)
    }

    /// Writes `<name>.pem`, `<name>.key` (mode 0600) and `<name>.p12` (with the intermediate) for a signing certificate
    /// of this chain, such as an Order Type ID certificate as `order.pem`, `order.key`, `order.p12`.
    /// - Parameters:
    ///   - name: The files' base name.
    ///   - certificate: The certificate.
    ///   - key: Its key.
    ///   - directory: The folder, created if missing.
    ///   - p12Password: The password for the `.p12`.
    /// - Returns: The paths written.
    @discardableResult
    public func writeSigningFiles(
        named name: String, certificate: Certificate, key: PrivateKey, to directory: URL, p12Password: String
    ) throws -> [URL] {
        let p12 = try PKCS12Archive(privateKey: key, certificate: certificate, additionalCertificates: [wwdr])
            .encoded(password: p12Password, friendlyName: certificate.subject["CN"] ?? name)
        return try Self.write([
            ("\(name).pem", Data(certificate.pemString.utf8), 0o644),
            ("\(name).key", Data(try key.pkcs8PEM().utf8), 0o600),
            ("\(name).p12", p12, 0o600),
        ], to: directory)
    }

    private static func write(_ files: [(String, Data, Int)], to directory: URL) throws -> [URL] {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for (name, data, mode) in files {
            let url = directory.appendingPathComponent(name)
            // Created with its mode (a key is never readable by others, not even for a moment), then renamed over
            // the file it replaces, so a reader sees the old file or the new one whole.
            let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
            guard descriptor >= 0 else {
                throw CryptoError(.internalFailure, "\(temporary.path): cannot be created (\(String(cString: strerror(errno))))")
            }
            do {
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
                guard rename(temporary.path, url.path) == 0 else {
                    throw CryptoError(.internalFailure, String(cString: strerror(errno)))
                }
            } catch {
                try? fileManager.removeItem(at: temporary)
                throw CryptoError(.internalFailure, "\(url.path): cannot be written (\(error.localizedDescription))")
            }
            written.append(url)
        }
        return written
    }
}
