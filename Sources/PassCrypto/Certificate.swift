internal import COpenSSL
public import Foundation
internal import Validation

/// An X.509 certificate, owned and freed with the object.
public final class Certificate: @unchecked Sendable, CustomStringConvertible {
    let pointer: OpaquePointer

    /// Takes ownership of an `X509*`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// The `X509*` with its reference count raised, for a new owner; the object stays alive during the call.
    func retainedPointer() -> OpaquePointer {
        withExtendedLifetime(self) {
            X509_up_ref(pointer)
            return pointer
        }
    }

    /// Reads one certificate from PEM or DER bytes.
    /// - Parameters:
    ///   - data: PEM (`-----BEGIN CERTIFICATE-----`) or DER bytes.
    ///   - source: A name for error messages, such as the file path.
    public convenience init(data: Data, source: String = "certificate") throws {
        let all = try Certificate.all(from: data, source: source)
        guard let first = all.first else {
            throw CryptoError(.invalidCertificate, "\(source): no certificate found")
        }
        self.init(taking: first.retainedPointer())
    }

    /// Reads one certificate from a PEM or DER file.
    /// - Parameter path: The file's path.
    public convenience init(contentsOf path: String) throws {
        let all = try Certificate.all(fromFile: path)
        self.init(taking: all[0].retainedPointer())
    }

    /// Reads every certificate in PEM or DER bytes (a PEM file may hold a chain).
    /// - Parameters:
    ///   - data: The bytes.
    ///   - source: A name for error messages.
    /// - Returns: The certificates in file order; never empty.
    public static func all(from data: Data, source: String) throws -> [Certificate] {
        OpenSSL.clearErrors()
        if data.starts(with: Array("-----".utf8)) || String(decoding: data.prefix(4096), as: UTF8.self).contains("-----BEGIN") {
            var certificates: [Certificate] = []
            try OpenSSL.withReadBIO(data) { bio in
                while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                    certificates.append(Certificate(taking: x509))
                }
            }
            OpenSSL.clearErrors()  // the loop ends on a "no start line" error
            guard !certificates.isEmpty else {
                throw CryptoError(.invalidCertificate, "\(source): no PEM certificate could be read")
            }
            return certificates
        }
        let x509: OpaquePointer? = data.withUnsafeBytes { raw in
            var cursor: UnsafePointer<UInt8>? = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_X509(nil, &cursor, raw.count)
        }
        guard let x509 else {
            throw CryptoError.openSSL(.invalidCertificate, "\(source): not a PEM or DER certificate")
        }
        return [Certificate(taking: x509)]
    }

    /// Reads every certificate in a PEM or DER file.
    /// - Parameter path: The file's path.
    /// - Returns: The certificates in file order.
    public static func all(fromFile path: String) throws -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CryptoError(.invalidCertificate, "\(path): \(FileReading.problem(at: path))")
        }
        return try all(from: data, source: path)
    }

    /// The DER encoding.
    public var derData: Data {
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &buffer)
        guard length > 0, let buffer else { return Data() }
        defer { tessera_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// The PEM encoding.
    public var pemString: String {
        let data = (try? OpenSSL.writeBIO({ PEM_write_bio_X509($0, pointer) == 1 },
                                          failure: CryptoError(.internalFailure, "PEM encoding failed"))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The start of the validity period.
    public var notBefore: Date? { OpenSSL.date(from: X509_get0_notBefore(pointer)) }
    /// The end of the validity period.
    public var notAfter: Date? { OpenSSL.date(from: X509_get0_notAfter(pointer)) }

    /// The serial number in hexadecimal.
    public var serialNumberHex: String {
        guard let bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(pointer), nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { tessera_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    /// Whether `issuer` issued this certificate: names match and its key verifies this certificate's signature.
    /// - Parameter issuer: The candidate issuer.
    /// - Returns: `true` when `issuer` signed this certificate.
    public func isIssued(by issuer: Certificate) -> Bool {
        defer { OpenSSL.clearErrors() }
        guard X509_check_issued(issuer.pointer, pointer) == X509_V_OK else { return false }
        guard let key = X509_get0_pubkey(issuer.pointer) else { return false }
        return X509_verify(pointer, key) == 1
    }

    /// Whether `key` is the private key of this certificate.
    /// - Parameter key: The private key.
    /// - Returns: `true` when they match.
    public func matches(_ key: PrivateKey) -> Bool {
        defer { OpenSSL.clearErrors() }
        return X509_check_private_key(pointer, key.pointer) == 1
    }

    /// Whether `date` falls inside the validity period.
    /// - Parameter date: The moment to test.
    /// - Returns: `true` when valid at `date`.
    public func isValid(at date: Date) -> Bool {
        guard let notBefore, let notAfter else { return false }
        return notBefore <= date && date <= notAfter
    }

    /// The SHA-256 fingerprint of the DER encoding, in hexadecimal.
    public var sha256Fingerprint: String { Hex.encode(Digest.sha256(derData), uppercase: true) }

    /// A one-line summary: subject, issuer and validity.
    public var description: String {
        "subject=\(subject.oneLine) issuer=\(issuer.oneLine) notAfter=\(notAfter.map { "\($0)" } ?? "?")"
    }
}
