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
            let certificates = try Self.loadCertificates(certificatePath, what: "Pass Type ID certificate")
            let key = try Self.loadPrivateKey(keyPath, password: password)
            tls.privateKey = .privateKey(key)
            tls.certificateChain = try Self.chain(certificates, key: key, tls: tls, path: certificatePath)
        }
        return tls
    }

    /// The chain as TLS sends it, the key's own certificate first: a file may hold the intermediate before it (signing
    /// takes the certificates in any order, and so does this), and TLS refuses a first certificate that is not the
    /// key's. The key's certificate is the one a TLS context accepts with the key.
    static func chain(_ certificates: [NIOSSLCertificate], key: NIOSSLPrivateKey, tls: TLSConfiguration, path: String)
        throws(APNsError) -> [NIOSSLCertificateSource]
    {
        guard certificates.count > 1 else { return certificates.map { .certificate($0) } }
        for (index, leaf) in certificates.enumerated() {
            var candidate = tls
            candidate.certificateChain = ([leaf] + certificates.enumerated().filter { $0.offset != index }.map(\.element))
                .map { .certificate($0) }
            if (try? NIOSSLContext(configuration: candidate)) != nil { return candidate.certificateChain }
        }
        throw .invalidCredentials("no certificate in \(path) is the private key's (Pass Type ID certificate)")
    }

    /// The certificates of a PEM file (one or more), or of a DER file (one).
    static func loadCertificates(_ path: String, what: String) throws(APNsError) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                guard let der = try? NIOSSLCertificate(file: path, format: .der) else { throw error }
                certificates = [der]
            }
        } catch {
            throw .invalidCredentials("cannot read the \(what) from \(path)", underlying: error)
        }
        guard !certificates.isEmpty else { throw .invalidCredentials("no certificate in \(path) (\(what))") }
        return certificates
    }

    /// The private key of a PEM file (PKCS#8 or traditional, encrypted with `password` when given), or of a DER file.
    static func loadPrivateKey(_ path: String, password: String?) throws(APNsError) -> NIOSSLPrivateKey {
        do {
            do {
                guard let password else { return try NIOSSLPrivateKey(file: path, format: .pem) }
                let bytes = Array(password.utf8)
                return try NIOSSLPrivateKey(file: path, format: .pem) { (setPassphrase: NIOSSLPassphraseSetter<[UInt8]>) in
                    setPassphrase(bytes)
                }
            } catch {
                guard password == nil, let der = try? NIOSSLPrivateKey(file: path, format: .der) else { throw error }
                return der
            }
        } catch {
            let hint = password == nil ? " (is it encrypted? give its password)" : " (wrong password?)"
            throw .invalidCredentials("cannot read the private key from \(path)\(hint)", underlying: error)
        }
    }
}
