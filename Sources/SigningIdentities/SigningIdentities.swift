public import Foundation
public import PassBundle
public import PassCrypto

/// One loaded signing identity: its credentials, the templates it signs and when its certificate expires.
public struct SigningIdentity: Sendable {
    /// The Pass Type ID or Order Type ID.
    public var identifier: String
    /// Where it is in the identities file (`identities[1]`), for messages.
    public var entry: String
    /// The file's entry it was loaded from.
    public var source: IdentitiesFile.Entry
    /// The checked certificate, key and WWDR intermediate (an expired certificate is loaded too).
    public var credentials: PassCredentials
    /// The templates folder (pass templates, or order templates for an Order Type ID).
    public var templatesDirectory: URL

    /// Whether it signs orders rather than passes.
    public var isOrderIdentity: Bool { source.isOrderIdentity }
    /// The team the certificate names (its OU).
    public var teamIdentifier: String? { credentials.identity.teamIdentifier }
    /// The end of its signing: the end of the certificate's validity, or of the WWDR intermediate's when that comes
    /// first (Apple's G1 intermediate expired in February 2023 under certificates valid for months).
    public var expiresAt: Date? { expiry?.date }
    /// What expires at ``expiresAt``: `certificate` or `WWDR intermediate`.
    public var expiringPart: String? { expiry?.part }

    private var expiry: (date: Date, part: String)? {
        [("certificate", credentials.certificate.notAfter), ("WWDR intermediate", credentials.wwdr.notAfter)]
            .compactMap { part, date in date.map { ($0, part) } }
            .min { $0.0 < $1.0 }
    }
    /// The certificate's serial number in hexadecimal.
    public var certificateSerialNumber: String { credentials.certificate.serialNumberHex }

    /// Why it cannot sign new versions at `now` (its certificate or the WWDR intermediate expired, or is not valid
    /// yet), else `nil`.
    public func unusableReason(at now: Date) -> String? {
        credentials.unusableReason(at: now)
    }

    /// Whole days from `now` until ``expiresAt`` (negative once expired).
    public func daysLeft(at now: Date) -> Int? {
        expiresAt.map { Int(($0.timeIntervalSince(now) / 86_400).rounded(.down)) }
    }
}

/// Every identity of an identities file, loaded and checked.
public struct SigningIdentities: Sendable {
    /// The file they were read from.
    public var file: IdentitiesFile
    /// The identities, in the file's order.
    public var identities: [SigningIdentity]

    /// The pass identities.
    public var passIdentities: [SigningIdentity] { identities.filter { !$0.isOrderIdentity } }
    /// The order identities.
    public var orderIdentities: [SigningIdentity] { identities.filter(\.isOrderIdentity) }

    /// Loads every identity's credentials. An identity whose certificate has expired is loaded (its stored passes are
    /// still served); the caller decides what an unusable identity may do.
    /// - Parameters:
    ///   - file: The identities file.
    ///   - pkcs11: The PKCS#11 module and PIN for keys given as PKCS#11 URIs.
    /// - Throws: ``IdentitiesFileError`` naming the entry and field at fault; nothing is half-loaded.
    public static func load(_ file: IdentitiesFile, pkcs11: PKCS11Module? = nil) throws -> SigningIdentities {
        SigningIdentities(file: file, identities: try file.identities.enumerated().map { index, entry in
            try Self.identity(entry, at: "identities[\(index)]", file: file.url.path, pkcs11: pkcs11)
        })
    }

    /// Loads each identity on its own: one whose credentials do not load is its error, and the others load anyway
    /// (for a report of every identity, such as `tessera certs status`; a server loads all or none with ``load(_:pkcs11:)``).
    /// - Returns: Per entry of the file, in its order: the entry's identifier and where it is, and the identity or why
    ///   it does not load.
    public static func loadEach(_ file: IdentitiesFile, pkcs11: PKCS11Module? = nil)
        -> [(identifier: String, entry: String, identity: Result<SigningIdentity, IdentitiesFileError>)]
    {
        file.identities.enumerated().map { index, entry in
            let at = "identities[\(index)]"
            let identity: Result<SigningIdentity, IdentitiesFileError>
            do {
                identity = .success(try Self.identity(entry, at: at, file: file.url.path, pkcs11: pkcs11))
            } catch let error as IdentitiesFileError {
                identity = .failure(error)
            } catch {
                identity = .failure(IdentitiesFileError(file: file.url.path, field: at, "\(error)"))
            }
            return (entry.identifier, at, identity)
        }
    }

    /// Reads the file and loads it.
    /// - Parameters:
    ///   - url: The identities file.
    ///   - pkcs11: The PKCS#11 module and PIN for keys given as PKCS#11 URIs.
    /// - Throws: ``IdentitiesFileError``.
    public static func load(contentsOf url: URL, pkcs11: PKCS11Module? = nil) throws -> SigningIdentities {
        try load(IdentitiesFile(contentsOf: url), pkcs11: pkcs11)
    }

    private static func identity(
        _ entry: IdentitiesFile.Entry, at path: String, file: String, pkcs11: PKCS11Module?
    ) throws -> SigningIdentity {
        func failure(_ field: String?, _ reason: String) -> IdentitiesFileError {
            IdentitiesFileError(file: file, field: field.map { "\(path).\($0)" } ?? path, reason)
        }
        func password(_ url: URL?, field: String) throws -> String? {
            guard let url else { return nil }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw failure(field, "\(url.path): password file not found or unreadable")
            }
            // The line ending at the end, also `\r\n`, which Swift counts as one character that is neither.
            var scalars = String(decoding: data, as: UTF8.self).unicodeScalars
            while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
            return String(scalars)
        }
        let credentials: PassCredentials
        do {
            if let p12 = entry.p12 {
                credentials = try PassCredentials.load(
                    p12Path: p12.path, password: try password(entry.p12PasswordFile, field: "p12PasswordFile") ?? "",
                    wwdrPath: entry.wwdr?.path, allowingExpiry: true)
            } else {
                if entry.keyURI != nil, pkcs11 == nil {
                    throw failure("key", "a PKCS#11 URI needs the PKCS#11 module (--pkcs11-module or TESSERA_PKCS11_MODULE)")
                }
                credentials = try PassCredentials.load(
                    certificatePath: entry.cert!.path, keyPath: entry.keyURI ?? entry.key!.path,
                    keyPassword: try password(entry.keyPasswordFile, field: "keyPasswordFile"),
                    wwdrPath: entry.wwdr!.path, allowingExpiry: true, pkcs11: pkcs11)
            }
        } catch let error as PassBundleError {
            let field: String
            switch error.code {
            case .wrongIntermediate, .intermediateMissing: field = "wwdr"
            case .passwordRequired where entry.keyURI != nil: field = "key"
            case .passwordRequired: field = entry.p12 == nil ? "keyPasswordFile" : "p12PasswordFile"
            default:
                // A file that does not load is named by the path in the reason: the key's or the intermediate's
                // missing file is not the certificate's fault.
                if let wwdr = entry.wwdr?.path, error.reason.contains(wwdr) {
                    field = "wwdr"
                } else if entry.p12 != nil {
                    field = "p12"
                } else if let key = entry.key?.path, error.reason.contains(key) {
                    field = "key"
                } else if let cert = entry.cert?.path, error.reason.contains(cert) {
                    field = "cert"
                } else if let uri = entry.keyURI, error.reason.contains(uri) || error.code == .credentials {
                    // The module, the token, its PIN or the object the URI names: the key's, not the certificate's.
                    field = "key"
                } else {
                    field = error.reason.contains("private key") ? "key" : "cert"
                }
            }
            throw failure(field, error.reason)
        }
        let named: String?
        if entry.isOrderIdentity {
            named = OrderCertificateIdentity(certificate: credentials.certificate).orderTypeIdentifier
        } else {
            named = credentials.identity.passTypeIdentifier
        }
        guard let named else {
            throw failure(entry.p12 == nil ? "cert" : "p12", "the certificate names no \(entry.isOrderIdentity ? "Order" : "Pass") Type ID (its UID)")
        }
        guard named == entry.identifier else {
            throw failure("identifier", "\(entry.identifier) is not the certificate's identifier (\(named))")
        }
        let templates = (entry.isOrderIdentity ? entry.orderTemplates : entry.templates)!
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: templates.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw failure(entry.isOrderIdentity ? "orderTemplates" : "templates", "folder \(templates.path) does not exist")
        }
        return SigningIdentity(
            identifier: entry.identifier, entry: path, source: entry, credentials: credentials, templatesDirectory: templates)
    }
}
