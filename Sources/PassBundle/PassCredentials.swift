public import Foundation
public import PassCrypto

/// What signs passes (or orders): the Pass Type ID (or Order Type ID) certificate, its key and the Apple WWDR
/// intermediate that issued it.
public struct PassCredentials: Sendable {
    /// The Pass Type ID certificate.
    public let certificate: Certificate
    /// Its private key.
    public let privateKey: PrivateKey
    /// The WWDR intermediate, included in every signature.
    public let wwdr: Certificate
    /// The Pass Type ID and team the certificate signs for.
    public let identity: PassCertificateIdentity

    /// Checks and combines the parts: key matches certificate, both certificates currently valid,
    /// and `wwdr` issued `certificate`.
    /// - Parameters:
    ///   - certificate: The Pass Type ID certificate.
    ///   - privateKey: Its key.
    ///   - wwdr: The WWDR intermediate.
    ///   - now: The time for validity checks.
    ///   - allowingExpiry: Accept certificates outside their validity period (a server keeps an expired identity
    ///     loaded to serve the passes it signed, and refuses new versions itself).
    public init(
        certificate: Certificate, privateKey: PrivateKey, wwdr: Certificate, now: Date = Date(), allowingExpiry: Bool = false
    ) throws {
        guard certificate.matches(privateKey) else {
            throw PassBundleError(.credentials, "the private key does not belong to the certificate \"\(certificate.subject["CN"] ?? certificate.subject.oneLine)\"")
        }
        if !allowingExpiry { try Self.checkValidity(certificate, role: "the \(Self.kind(of: certificate))", now: now) }
        guard certificate.isIssued(by: wwdr) else {
            throw PassBundleError(.wrongIntermediate, Self.wrongIntermediateReason(certificate: certificate, wwdr: wwdr))
        }
        if !allowingExpiry { try Self.checkValidity(wwdr, role: "the WWDR intermediate", now: now) }
        self.certificate = certificate
        self.privateKey = privateKey
        self.wwdr = wwdr
        self.identity = PassCertificateIdentity(certificate: certificate)
    }

    /// Loads a PEM (or DER) certificate and key file pair.
    /// - Parameters:
    ///   - certificatePath: The Pass Type ID certificate.
    ///   - keyPath: Its key (PKCS#1, PKCS#8 or SEC1; possibly encrypted).
    ///   - keyPassword: The key's password, if encrypted.
    ///   - wwdrPath: The WWDR intermediate.
    ///   - allowingExpiry: Accept certificates outside their validity period.
    ///   - pkcs11: The PKCS#11 module and PIN, when `keyPath` is a PKCS#11 URI (`pkcs11:token=…;object=…`): the key
    ///     stays in the module and signs there.
    /// - Returns: Checked credentials.
    public static func load(
        certificatePath: String, keyPath: String, keyPassword: String?, wwdrPath: String, allowingExpiry: Bool = false,
        pkcs11: PKCS11Module? = nil
    ) throws -> PassCredentials {
        let certificates = try mapCrypto { try Certificate.all(fromFile: certificatePath) }
        let key = try mapCrypto {
            guard PrivateKey.isPKCS11URI(keyPath) else { return try PrivateKey(contentsOf: keyPath, password: keyPassword) }
            guard let pkcs11 else {
                throw CryptoError(.invalidKey, "\(PrivateKey.pkcs11Description(keyPath)): a PKCS#11 URI needs the PKCS#11 "
                    + "module (--pkcs11-module or TESSERA_PKCS11_MODULE; pkcs11Module in an identities file)")
            }
            return try PrivateKey.pkcs11(uri: keyPath, module: pkcs11)
        }
        // A certificate file may hold the chain, in any order (the intermediate first, as some exports write it): the
        // certificate is the one the key belongs to. A WWDR file may hold several generations: the one that issued it.
        let certificate = certificates.first { $0.matches(key) } ?? certificates[0]
        let intermediates = try mapCrypto { try Certificate.all(fromFile: wwdrPath) }
        let wwdr = issuer(of: certificate, among: intermediates) ?? intermediates[0]
        return try PassCredentials(certificate: certificate, privateKey: key, wwdr: wwdr, allowingExpiry: allowingExpiry)
    }

    /// The intermediate of `candidates` that issued `certificate`: of several (an intermediate reissued with the same
    /// name and key, as Apple's WWDR G1 was in 2016, both kept in one file), one valid now, else the latest to expire.
    static func issuer(of certificate: Certificate, among candidates: [Certificate], at now: Date = Date()) -> Certificate? {
        let issuers = candidates.filter { certificate.isIssued(by: $0) }
        let valid = issuers.filter { ($0.notBefore ?? .distantPast) <= now && now <= ($0.notAfter ?? .distantFuture) }
        return (valid.isEmpty ? issuers : valid).max { ($0.notAfter ?? .distantFuture) < ($1.notAfter ?? .distantFuture) }
    }

    /// Loads a `.p12` (including macOS's legacy RC2-40 encryption) and the WWDR intermediate.
    /// - Parameters:
    ///   - p12Path: The PKCS#12 file.
    ///   - password: Its password.
    ///   - wwdrPath: The WWDR intermediate; when `nil`, an intermediate inside the `.p12` that issued the certificate is used.
    ///   - allowingExpiry: Accept certificates outside their validity period.
    /// - Returns: Checked credentials.
    public static func load(
        p12Path: String, password: String, wwdrPath: String?, allowingExpiry: Bool = false
    ) throws -> PassCredentials {
        let archive = try mapCrypto { try PKCS12Archive(contentsOf: p12Path, password: password) }
        let wwdr: Certificate
        if let wwdrPath {
            // A WWDR file may hold several generations: the one that issued the certificate, as with --cert/--key.
            let intermediates = try mapCrypto { try Certificate.all(fromFile: wwdrPath) }
            wwdr = issuer(of: archive.certificate, among: intermediates) ?? intermediates[0]
        } else if let included = issuer(of: archive.certificate, among: archive.additionalCertificates) {
            wwdr = included
        } else {
            throw PassBundleError(
                .intermediateMissing, "\(p12Path) holds no WWDR intermediate: the WWDR intermediate certificate (wwdrPath) is needed")
        }
        return try PassCredentials(
            certificate: archive.certificate, privateKey: archive.privateKey, wwdr: wwdr, allowingExpiry: allowingExpiry)
    }

    static func mapCrypto<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CryptoError {
            throw PassBundleError(error.code == .passwordRequired ? .passwordRequired : .credentials, error.description)
        }
    }

    private static func checkValidity(_ certificate: Certificate, role: String, now: Date) throws {
        let name = certificate.subject["CN"] ?? certificate.subject.oneLine
        let format = ISO8601DateFormatter()
        if let notAfter = certificate.notAfter, notAfter < now {
            throw PassBundleError(.credentials, "\(role) \"\(name)\" expired on \(format.string(from: notAfter)); renew it in your Apple Developer account")
        }
        if let notBefore = certificate.notBefore, notBefore > now {
            throw PassBundleError(.credentials, "\(role) \"\(name)\" is not valid until \(format.string(from: notBefore))")
        }
    }

    /// "Order Type ID certificate" for a certificate whose identifier starts with `order.`, else "Pass Type ID certificate".
    static func kind(of certificate: Certificate) -> String {
        let identifier = PassCertificateIdentity.typeIdentifier(of: certificate, commonNamePrefix: "Order Type ID: ")
        return identifier?.hasPrefix("order.") == true ? "Order Type ID certificate" : "Pass Type ID certificate"
    }

    /// Explains which intermediate is needed when `wwdr` did not issue `certificate`.
    static func wrongIntermediateReason(certificate: Certificate, wwdr: Certificate) -> String {
        let issuer = certificate.issuer
        let generation = issuer["OU"].map { " (\($0))" } ?? ""
        var reason = "the WWDR certificate \"\(wwdr.subject.oneLine)\" did not issue the \(kind(of: certificate)), "
            + "which was issued by \"\(issuer.oneLine)\": the WWDR intermediate (wwdr) must be that one\(generation)"
        if issuer.oneLine == wwdr.subject.oneLine {
            // Same name, another key: an intermediate of the same name from another chain (two `certs dev` folders,
            // or a renewed intermediate), which the names alone would not show.
            reason += ". The names are the same but the keys differ: this WWDR certificate (serial "
                + "\(wwdr.serialNumberHex)) is another intermediate of that name, from another chain; use the one that "
                + "came with the certificate"
        }
        if issuer["CN"]?.contains("Apple Worldwide Developer Relations") == true {
            // The generation that issued it, not the newest: a certificate from G1 needs G1, not G4.
            if let ou = issuer["OU"], ou.count <= 3, ou.hasPrefix("G"), ou.dropFirst().allSatisfy(\.isNumber) {
                reason += ". Apple publishes it as https://www.apple.com/certificateauthority/AppleWWDRCA\(ou).cer"
            } else {
                reason += ". That is Apple's first WWDR intermediate "
                    + "(https://developer.apple.com/certificationauthority/AppleWWDRCA.cer), which expired on 2023-02-07: "
                    + "a certificate it issued cannot sign passes any more; Pass Type ID and Order Type ID certificates "
                    + "issued since 2022 come from the G4 intermediate"
            }
        }
        return reason
    }
}

extension PassCredentials {
    /// Why these credentials cannot sign at `now` (the certificate or the WWDR intermediate expired, or is not valid
    /// yet), else `nil`. Credentials loaded with `allowingExpiry` are checked here before each new version.
    public func unusableReason(at now: Date) -> String? {
        if let expired = expiryReason(at: now) { return expired }
        for (role, certificate) in [("certificate", certificate), ("WWDR intermediate", wwdr)] {
            if let notBefore = certificate.notBefore, notBefore > now {
                return "the \(role) is not valid until \(ISO8601DateFormatter().string(from: notBefore))"
            }
        }
        return nil
    }

    /// Why these credentials no longer sign at `now`: the certificate or the WWDR intermediate expired; else `nil`.
    public func expiryReason(at now: Date) -> String? {
        for (role, certificate) in [("certificate", certificate), ("WWDR intermediate", wwdr)] {
            if let notAfter = certificate.notAfter, notAfter < now {
                return "the \(role) expired on \(ISO8601DateFormatter().string(from: notAfter))"
            }
        }
        return nil
    }
}
