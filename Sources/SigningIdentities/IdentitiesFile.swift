public import Foundation
import PassModel
import Validation

/// The identities file of `tessera serve --identities`: the signing identities one server signs with and the APNs
/// token keys of their teams. Paths in it are relative to the file.
///
/// ```json
/// {"identities": [{"identifier": "pass.com.brand-a.tickets", "cert": "a/pass.pem", "key": "a/pass.key",
///                  "wwdr": "a/wwdr.pem", "templates": "a/templates"}],
///  "apns": [{"teamIdentifier": "A1B2C3D4E5", "p8": "a/AuthKey.p8", "keyIdentifier": "KEY123"}]}
/// ```
public struct IdentitiesFile: Sendable, Equatable {
    /// One signing identity as the file describes it (paths resolved against the file's folder).
    public struct Entry: Sendable, Equatable {
        /// The Pass Type ID (`pass.…`) or Order Type ID (`order.…`) it signs for.
        public var identifier: String
        /// The certificate (PEM or DER), with ``key``.
        public var cert: URL?
        /// The private key file, with ``cert``.
        public var key: URL?
        /// The private key as a PKCS#11 URI (`pkcs11:token=…;object=…`) instead of a file: it stays in the module.
        public var keyURI: String?
        /// The file holding ``key``'s password.
        public var keyPasswordFile: URL?
        /// A PKCS#12 holding certificate and key, instead of ``cert`` and ``key``.
        public var p12: URL?
        /// The file holding ``p12``'s password.
        public var p12PasswordFile: URL?
        /// The Apple WWDR intermediate that issued the certificate (optional with a `.p12` that holds it).
        public var wwdr: URL?
        /// The pass templates folder whose templates sign with this identity (pass identities).
        public var templates: URL?
        /// The order templates folder (order identities).
        public var orderTemplates: URL?

        /// Whether it signs orders (`order.…`) rather than passes.
        public var isOrderIdentity: Bool { identifier.hasPrefix("order.") }
    }

    /// An APNs token-authentication key: it covers every topic of its team.
    public struct APNsKey: Sendable, Equatable {
        /// The team identifier (the provider token's issuer).
        public var teamIdentifier: String
        /// The `.p8` key file.
        public var p8: URL
        /// The key's 10-character identifier.
        public var keyIdentifier: String
    }

    /// The file it was read from.
    public var url: URL
    /// The identities, in the file's order.
    public var identities: [Entry]
    /// The APNs keys, one per team at most.
    public var apns: [APNsKey]

    /// Reads and checks an identities file's shape (credentials are loaded by ``SigningIdentities``).
    /// - Parameter url: The file.
    /// - Throws: ``IdentitiesFileError`` naming the file, the entry and the field at fault.
    public init(contentsOf url: URL) throws {
        self.url = url
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw IdentitiesFileError(file: url.path, field: nil, "not found or unreadable")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Where it stops being JSON, as every other file the commands read is told.
            throw IdentitiesFileError(file: url.path, field: nil, "not JSON: \(JSONSyntax.fault(in: data) ?? "the file is empty or not text")")
        }
        guard let object = root as? [String: Any] else {
            throw IdentitiesFileError(file: url.path, field: nil, "must be a JSON object with \"identities\"")
        }
        // A key written twice keeps one value silently (the last in Foundation's reader): the file would mean
        // something other than what its author sees.
        if let duplicate = JSONDuplicateKeys.find(in: data).first {
            throw IdentitiesFileError(file: url.path, field: duplicate.path, duplicate.message)
        }
        let fields = Fields(file: url)
        try fields.refuseUnknown(object, known: ["identities", "apns"], at: nil)
        guard let list = object["identities"] as? [Any], !list.isEmpty else {
            throw IdentitiesFileError(file: url.path, field: "identities", "must be a non-empty array of identities")
        }
        identities = try list.enumerated().map { index, item in try fields.entry(item, at: "identities[\(index)]") }
        let keys = object["apns"] ?? []
        guard let keyList = keys as? [Any] else {
            throw IdentitiesFileError(file: url.path, field: "apns", "must be an array of APNs keys")
        }
        apns = try keyList.enumerated().map { index, item in try fields.apnsKey(item, at: "apns[\(index)]") }
        try checkUniqueness()
    }

    private func checkUniqueness() throws {
        var seen: [String: Int] = [:]
        for (index, entry) in identities.enumerated() {
            if let first = seen[entry.identifier] {
                throw IdentitiesFileError(
                    file: url.path, field: "identities[\(index)].identifier",
                    "\(entry.identifier) is already identities[\(first)]: one entry per identifier")
            }
            seen[entry.identifier] = index
        }
        var teams: [String: Int] = [:]
        for (index, key) in apns.enumerated() {
            if let first = teams[key.teamIdentifier] {
                throw IdentitiesFileError(
                    file: url.path, field: "apns[\(index)].teamIdentifier",
                    "team \(key.teamIdentifier) already has a key at apns[\(first)]: one key per team")
            }
            teams[key.teamIdentifier] = index
        }
    }
}

/// An identities file that cannot be used: the file, the field (`identities[1].cert`) and what is wrong.
public struct IdentitiesFileError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The identities file.
    public var file: String
    /// The field at fault, as a path into the file; `nil` for the file as a whole.
    public var field: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(file: String, field: String?, _ reason: String) {
        self.file = file
        self.field = field
        self.reason = reason
    }

    /// `FILE: FIELD: reason`.
    public var description: String { [file, field, reason].compactMap { $0 }.joined(separator: ": ") }
}

/// Reads the fields of one file's JSON, naming each by its path.
private struct Fields {
    let file: URL

    func refuseUnknown(_ object: [String: Any], known: Set<String>, at path: String?) throws {
        for key in object.keys.sorted() where !known.contains(key) {
            let field = path.map { "\($0).\(key)" } ?? key
            throw IdentitiesFileError(
                file: file.path, field: field, "unknown field (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ object: [String: Any], _ key: String, at path: String, required: Bool) throws -> String? {
        guard let value = object[key] else {
            if required { throw IdentitiesFileError(file: file.path, field: "\(path).\(key)", "is required") }
            return nil
        }
        guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw IdentitiesFileError(file: file.path, field: "\(path).\(key)", "must be a non-empty string")
        }
        return text
    }

    /// A path field, resolved against the file's folder.
    func path(_ object: [String: Any], _ key: String, at path: String) throws -> URL? {
        try string(object, key, at: path, required: false).map { text in
            text.hasPrefix("/") ? URL(fileURLWithPath: text)
                : file.deletingLastPathComponent().appendingPathComponent(text).standardizedFileURL
        }
    }

    func entry(_ item: Any, at path: String) throws -> IdentitiesFile.Entry {
        guard let object = item as? [String: Any] else {
            throw IdentitiesFileError(file: file.path, field: path, "must be an object")
        }
        try refuseUnknown(object, known: [
            "identifier", "cert", "key", "keyPasswordFile", "p12", "p12PasswordFile", "wwdr", "templates", "orderTemplates",
        ], at: path)
        let identifier = try string(object, "identifier", at: path, required: true)!
        let isOrder = identifier.hasPrefix("order.")
        guard (identifier.hasPrefix("pass.") || isOrder), identifier.count > 6,
              identifier.utf8.allSatisfy({ $0 > 32 && $0 < 127 })
        else {
            throw IdentitiesFileError(
                file: file.path, field: "\(path).identifier",
                "\(identifier) is not a Pass Type ID (pass.com.example.name) or Order Type ID (order.com.example.name)")
        }
        let keyText = try string(object, "key", at: path, required: false)
        let keyURI = keyText.flatMap { $0.lowercased().hasPrefix("pkcs11:") ? $0 : nil }
        let entry = IdentitiesFile.Entry(
            identifier: identifier, cert: try self.path(object, "cert", at: path),
            key: keyURI == nil ? try self.path(object, "key", at: path) : nil, keyURI: keyURI,
            keyPasswordFile: try self.path(object, "keyPasswordFile", at: path), p12: try self.path(object, "p12", at: path),
            p12PasswordFile: try self.path(object, "p12PasswordFile", at: path), wwdr: try self.path(object, "wwdr", at: path),
            templates: try self.path(object, "templates", at: path),
            orderTemplates: try self.path(object, "orderTemplates", at: path))
        try checkCredentialFields(entry, at: path)
        if isOrder {
            guard entry.orderTemplates != nil else {
                throw IdentitiesFileError(file: file.path, field: "\(path).orderTemplates", "is required for an Order Type ID")
            }
            if entry.templates != nil {
                throw IdentitiesFileError(
                    file: file.path, field: "\(path).templates", "an Order Type ID signs orders: use orderTemplates")
            }
        } else {
            guard entry.templates != nil else {
                throw IdentitiesFileError(file: file.path, field: "\(path).templates", "is required for a Pass Type ID")
            }
            if entry.orderTemplates != nil {
                throw IdentitiesFileError(
                    file: file.path, field: "\(path).orderTemplates", "a Pass Type ID signs passes: use templates")
            }
        }
        return entry
    }

    private func checkCredentialFields(_ entry: IdentitiesFile.Entry, at path: String) throws {
        if entry.p12 != nil {
            for (name, value) in [("cert", entry.cert), ("key", entry.key ?? entry.keyURI.map { URL(fileURLWithPath: $0) }),
                                  ("keyPasswordFile", entry.keyPasswordFile)]
            where value != nil {
                throw IdentitiesFileError(file: file.path, field: "\(path).\(name)", "give either p12 or cert with key, not both")
            }
        } else {
            let key = entry.key ?? entry.keyURI.map { URL(fileURLWithPath: $0) }
            for (name, value) in [("cert", entry.cert), ("key", key), ("wwdr", entry.wwdr)] where value == nil {
                throw IdentitiesFileError(
                    file: file.path, field: "\(path).\(name)", "is required (cert, key and wwdr, or p12)")
            }
            if entry.p12PasswordFile != nil {
                throw IdentitiesFileError(file: file.path, field: "\(path).p12PasswordFile", "is only for p12")
            }
            if entry.keyURI != nil, entry.keyPasswordFile != nil {
                throw IdentitiesFileError(
                    file: file.path, field: "\(path).keyPasswordFile",
                    "is not used with a PKCS#11 key: the token's PIN comes from --pkcs11-pin-file or TESSERA_PKCS11_PIN")
            }
        }
    }

    func apnsKey(_ item: Any, at path: String) throws -> IdentitiesFile.APNsKey {
        guard let object = item as? [String: Any] else {
            throw IdentitiesFileError(file: file.path, field: path, "must be an object")
        }
        try refuseUnknown(object, known: ["teamIdentifier", "p8", "keyIdentifier"], at: path)
        let team = try string(object, "teamIdentifier", at: path, required: true)!
        guard team.utf8.allSatisfy({ $0.isASCIIAlphanumeric }) else {
            throw IdentitiesFileError(file: file.path, field: "\(path).teamIdentifier", "must be letters and digits, like A1B2C3D4E5")
        }
        let keyIdentifier = try string(object, "keyIdentifier", at: path, required: true)!
        guard keyIdentifier.utf8.allSatisfy({ $0.isASCIIAlphanumeric }) else {
            throw IdentitiesFileError(file: file.path, field: "\(path).keyIdentifier", "must be letters and digits")
        }
        guard let p8 = try self.path(object, "p8", at: path) else {
            throw IdentitiesFileError(file: file.path, field: "\(path).p8", "is required")
        }
        return IdentitiesFile.APNsKey(teamIdentifier: team, p8: p8, keyIdentifier: keyIdentifier)
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
