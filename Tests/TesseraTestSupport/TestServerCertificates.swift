public import Foundation
public import PassCrypto

/// A throwaway certificate authority and a TLS server certificate for `localhost` / `127.0.0.1`, written as PEM
/// files at test time, for local stand-ins of remote services (APNs) that clients reach over TLS.
public struct TestServerCertificates: Sendable {
    /// The folder holding `server-ca.pem`, `server.pem` and `server.key`.
    public let directory: URL
    /// The CA certificate the client should trust.
    public let authority: Certificate
    /// The server certificate (SAN `DNS:localhost`, `IP:127.0.0.1`, `IP:::1`).
    public let server: Certificate

    /// Generates the CA and the server certificate (P-256 keys) and writes them.
    /// - Parameter validFrom: Start of validity; both last a day from it.
    public init(validFrom: Date = Date().addingTimeInterval(-3600)) throws {
        let caKey = try PrivateKey.generateP256()
        authority = try CertificateBuilder(
            subject: DistinguishedName([("O", "Tessera Tests"), ("CN", "Tessera Test Server CA")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(86_400),
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash")]
        ).issue(publicKeyOf: caKey, issuer: nil, issuerKey: caKey)
        let serverKey = try PrivateKey.generateP256()
        server = try CertificateBuilder(
            subject: DistinguishedName([("O", "Tessera Tests"), ("CN", "localhost")]),
            notBefore: validFrom, notAfter: validFrom.addingTimeInterval(86_400),
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
                         ("extendedKeyUsage", "serverAuth"), ("subjectAltName", "DNS:localhost,IP:127.0.0.1,IP:::1"),
                         ("authorityKeyIdentifier", "keyid:always")]
        ).issue(publicKeyOf: serverKey, issuer: authority, issuerKey: caKey)
        directory = try TemporaryDirectory.make(prefix: "tls")
        try Data(authority.pemString.utf8).write(to: directory.appendingPathComponent("server-ca.pem"))
        try Data(server.pemString.utf8).write(to: directory.appendingPathComponent("server.pem"))
        try Data(try serverKey.pkcs8PEM().utf8).write(to: directory.appendingPathComponent("server.key"))
    }

    /// The CA certificate's PEM file, for the client's trust roots.
    public var authorityPEMPath: String { directory.appendingPathComponent("server-ca.pem").path }
    /// The server certificate's PEM file.
    public var serverCertificatePEMPath: String { directory.appendingPathComponent("server.pem").path }
    /// The server key's PEM file (PKCS#8, unencrypted).
    public var serverKeyPEMPath: String { directory.appendingPathComponent("server.key").path }
}

/// A P-256 key in the form of an APNs `.p8` file (unencrypted PKCS#8 PEM), written at test time.
public struct TestAPNsSigningKey: Sendable {
    /// The key.
    public let key: PrivateKey
    /// The `.p8` file.
    public let path: String
    /// The PEM text.
    public let pem: String

    /// Generates the key and writes `AuthKey_<keyID>.p8` into a new temporary folder.
    /// - Parameter keyID: The key identifier used in the file name.
    public init(keyID: String = "ABC123DEFG") throws {
        key = try PrivateKey.generateP256()
        pem = try key.pkcs8PEM()
        let url = try TemporaryDirectory.make(prefix: "p8").appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(pem.utf8).write(to: url)
        path = url.path
    }
}
