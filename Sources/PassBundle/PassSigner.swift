public import Foundation
import PassCrypto

/// Turns `pass.json` and its files into a signed `.pkpass`: `manifest.json` with the SHA-1 of every file,
/// `signature` (detached CMS over the manifest's exact bytes: SHA-256, `signingTime`, WWDR included),
/// all entries at the archive root.
public struct PassSigner: Sendable {
    /// The names Wallet reserves in a bundle.
    public static let reservedNames: Set<String> = ["manifest.json", "signature"]

    /// The credentials used.
    public let credentials: PassCredentials
    private let cms: CMSSigner

    /// Creates a signer.
    /// - Parameter credentials: Checked signing credentials.
    public init(credentials: PassCredentials) throws {
        self.credentials = credentials
        self.cms = try PassCredentials.mapCrypto {
            try CMSSigner(certificate: credentials.certificate, privateKey: credentials.privateKey, chain: [credentials.wwdr])
        }
    }

    /// Builds a signed bundle in memory.
    /// - Parameters:
    ///   - passJSON: The `pass.json` bytes; its `passTypeIdentifier` and `teamIdentifier` must match the certificate.
    ///   - files: Every other file by relative path (images, `xx.lproj/...`), excluding `manifest.json` and `signature`.
    /// - Returns: The `.pkpass` (ZIP) bytes.
    public func signedBundle(passJSON: Data, files: [String: Data]) throws -> Data {
        try signedBundle(passJSON: passJSON, contents: PassContents(files: files))
    }

    /// Builds a signed bundle in memory from contents prepared once (the fast path for many passes of one template).
    /// - Parameters:
    ///   - passJSON: The `pass.json` bytes; its `passTypeIdentifier` and `teamIdentifier` must match the certificate.
    ///   - contents: The other files, hashed and zipped.
    /// - Returns: The `.pkpass` (ZIP) bytes.
    public func signedBundle(passJSON: Data, contents: PassContents) throws -> Data {
        let identifiers: Identifiers
        do {
            identifiers = try JSONDecoder().decode(Identifiers.self, from: passJSON)
        } catch {
            throw PassBundleError(.invalidPass, "pass.json: not a JSON object with string passTypeIdentifier and teamIdentifier")
        }
        return try signedBundle(passJSON: passJSON, contents: contents,
                                passTypeIdentifier: identifiers.passTypeIdentifier, teamIdentifier: identifiers.teamIdentifier)
    }

    /// The two keys of `pass.json` the certificate must match.
    private struct Identifiers: Decodable {
        var passTypeIdentifier: String?
        var teamIdentifier: String?
    }

    /// Signs `passJSON` whose identifiers the caller has already read (``PassBuilder`` has the typed pass).
    func signedBundle(passJSON: Data, contents: PassContents, passTypeIdentifier: String?, teamIdentifier: String?) throws -> Data {
        let problems = credentials.identity.mismatches(passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        if !problems.isEmpty {
            throw PassBundleError(.identityMismatch, problems.map { "pass.json \($0.path): \($0.message)" }.joined(separator: "\n"))
        }
        return try sealedBundle(mainJSON: passJSON, contents: contents)
    }

    /// Signs a bundle whose identity the caller has checked: `manifest.json` of the contents and the main JSON file
    /// (`pass.json` or `order.json`, as `contents.format` says), its detached signature, then the archive.
    /// - Parameters:
    ///   - mainJSON: The main JSON file's bytes.
    ///   - contents: The other files, hashed and zipped.
    /// - Returns: The bundle's ZIP bytes.
    func sealedBundle(mainJSON: Data, contents: PassContents) throws -> Data {
        let manifestData = contents.manifestJSON(passJSON: mainJSON)
        let signature = try PassCredentials.mapCrypto { try cms.signDetached(manifestData) }
        return try contents.archive(adding: [
            (contents.format.mainFile, mainJSON), ("manifest.json", manifestData), ("signature", signature),
        ])
    }

    /// Builds a signed bundle and writes it to `url` through a temporary file and a rename, so a failure
    /// never leaves a partial `.pkpass`.
    /// - Parameters:
    ///   - passJSON: The `pass.json` bytes.
    ///   - files: Every other file by relative path.
    ///   - url: The destination.
    public func writeSignedBundle(passJSON: Data, files: [String: Data], to url: URL) throws {
        try Self.writeAtomically(try signedBundle(passJSON: passJSON, files: files), to: url)
    }

    /// `.<name>.<UUID>.tmp`, within the 255 bytes a file name may have: a long name (a serial number of 220
    /// characters) is shortened before its extension, at a character's end, so a name that fits never fails for
    /// its temporary's sake.
    static func temporaryName(for name: String) -> String {
        let suffix = ".\(UUID().uuidString).tmp"
        guard 1 + name.utf8.count + suffix.utf8.count > 255 else { return ".\(name)\(suffix)" }
        let ext = (name as NSString).pathExtension
        let tail = ext.isEmpty ? "" : "." + ext
        var stem = String(name.dropLast(tail.count))
        while 1 + stem.utf8.count + tail.utf8.count + suffix.utf8.count > 255, !stem.isEmpty { stem.removeLast() }
        return ".\(stem)\(tail)\(suffix)"
    }

    /// Writes `data` to a temporary file beside `url`, then renames it into place.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - url: The destination.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(temporaryName(for: url.lastPathComponent))
        do {
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw PassBundleError(.io, "\(url.path): could not move the finished file into place (errno \(errno))")
            }
        } catch let error as PassBundleError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw PassBundleError(.io, "\(url.path): could not write: \(error.localizedDescription)")
        }
    }
}

extension PassSigner {
    /// Signs arbitrary bytes with the pass certificate: a detached CMS (PKCS#7) signature in DER, SHA-256, with the
    /// WWDR intermediate included, as Wallet expects for a rewards-enrollment personalization token.
    /// - Parameter content: The bytes to sign (the personalization token's UTF-8 bytes).
    /// - Returns: The DER signature.
    public func signDetached(_ content: Data) throws -> Data {
        try PassCredentials.mapCrypto { try cms.signDetached(content) }
    }
}
