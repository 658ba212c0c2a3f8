import Foundation
import NIOSSL

extension APNsClient.Configuration {
    /// The TLS configuration for the provider connection: trust roots and, for certificate
    /// authentication, the Pass Type ID certificate and key as the client identity.
    /// - Returns: The NIOSSL client configuration.
    func makeTLSConfiguration() throws(APNsError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        // ALPN: the connection offers h2 only (APNsConnection).
        switch trustRoots {
        case .system:
            tls.trustRoots = .default
        case .systemPlus(let pemPath):
            tls.trustRoots = .default
            tls.additionalTrustRoots = [.certificates(try Self.loadCertificates(pemPath, what: "trust roots"))]
        case .only(let pemPath):
            tls.trustRoots = .certificates(try Self.loadCertificates(pemPath, what: "trust roots"))
        }
        if case .certificate(let certificatePath, let keyPath, let password) = authentication {
            let chain = try Self.loadCertificates(certificatePath, what: "Pass Type ID certificate")
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(try Self.loadPrivateKey(keyPath, password: password))
        }
        return tls
    }

    static func loadCertificates(_ path: String, what: String) throws(APNsError) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw .invalidCredentials("cannot read the \(what) from \(path)", underlying: error)
        }
        guard !certificates.isEmpty else { throw .invalidCredentials("no certificate in \(path) (\(what))") }
        return certificates
    }

    static func loadPrivateKey(_ path: String, password: String?) throws(APNsError) -> NIOSSLPrivateKey {
        do {
            guard let password else { return try NIOSSLPrivateKey(file: path, format: .pem) }
            let bytes = Array(password.utf8)
            return try NIOSSLPrivateKey(file: path, format: .pem) { (setPassphrase: NIOSSLPassphraseSetter<[UInt8]>) in
                setPassphrase(bytes)
            }
        } catch {
            let hint = password == nil ? " (is it encrypted? give its password)" : " (wrong password?)"
            throw .invalidCredentials("cannot read the private key from \(path)\(hint)", underlying: error)
        }
    }
}
