public import Foundation
public import PassModel
public import PassCrypto

/// Everything `tessera pass verify` finds out about a `.pkpass`.
public struct PassVerificationReport: Sendable {
    /// Every problem: archive layout, manifest, signature, signer identity and the pass validator's findings.
    public var issues: [ValidationIssue]
    /// The signer's subject, when the signature could be read.
    public var signerSubject: String?
    /// The signer's issuer, when the signature could be read.
    public var signerIssuer: String?
    /// The signer certificate's serial number in hexadecimal, when the signature could be read.
    public var signerSerialNumber: String?
    /// The `signingTime` attribute.
    public var signingTime: Date?
    /// The signature's digest algorithm.
    public var digestAlgorithm: String?
    /// Whether the chain was checked against a trusted root.
    public var chainVerified: Bool

    /// Creates a report.
    /// - Parameters:
    ///   - issues: The problems found.
    ///   - chainVerified: Whether the chain was checked against a trusted root.
    public init(issues: [ValidationIssue], chainVerified: Bool) {
        self.issues = issues
        self.chainVerified = chainVerified
    }

    /// The errors (the pass would not open).
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }
    /// The warnings.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }
    /// Whether Wallet would open the pass.
    public var wouldOpen: Bool { errors.isEmpty }
}

/// Checks a `.pkpass` the way Wallet does and reports every reason it would not open.
public struct PassVerifier: Sendable {
    /// The WWDR intermediate to check the signer against; the one embedded in the signature is used when `nil`.
    public var wwdr: Certificate?
    /// A trusted root: when given, the signer's chain must lead to it.
    public var root: Certificate?
    /// The moment certificates must be valid at (`nil`: now).
    public var now: Date?

    /// Creates a verifier.
    /// - Parameters:
    ///   - wwdr: The expected WWDR intermediate.
    ///   - root: The trusted root.
    ///   - now: The time for certificate validity.
    public init(wwdr: Certificate? = nil, root: Certificate? = nil, now: Date? = nil) {
        self.wwdr = wwdr
        self.root = root
        self.now = now
    }

    /// Verifies a `.pkpass`.
    /// - Parameters:
    ///   - data: The archive bytes.
    ///   - source: A name for messages.
    /// - Returns: The report; check ``PassVerificationReport/wouldOpen``.
    public func verify(data: Data, source: String = ".pkpass") -> PassVerificationReport {
        verify(source: source, format: .pass) { try PassArchive(data: data, source: source) }
    }

    /// Verifies a `.pkpass` file, reading its entries as streams: memory does not grow with an entry's size, and
    /// entries over ``PassArchive/maximumEntrySize`` are reported rather than loaded.
    /// - Parameter path: The file's path.
    /// - Returns: The report; check ``PassVerificationReport/wouldOpen``.
    public func verify(contentsOf path: String) -> PassVerificationReport {
        verify(source: path, format: .pass) { try PassArchive(contentsOf: path) }
    }

    private func verify(source: String, format: BundleFormat, reading read: () throws -> PassArchive) -> PassVerificationReport {
        verifyBundle(source: source, format: format, reading: read, validate: { passJSON, files in
            PassValidator().validate(passJSON: passJSON, files: files).issues
        }, identity: { signer, passJSON in
            guard let object = try? JSONSerialization.jsonObject(with: passJSON) as? [String: Any] else { return [] }
            return PassCertificateIdentity(certificate: signer).mismatches(
                passTypeIdentifier: object["passTypeIdentifier"] as? String, teamIdentifier: object["teamIdentifier"] as? String
            ).map { ValidationIssue(severity: .error, path: $0.path, message: $0.message) }
        })
    }

    /// Verifies a pass or an order bundle: layout, manifest hashes, signature, signer identity, then the content
    /// validator's findings.
    /// - Parameters:
    ///   - source: A name for messages.
    ///   - format: A pass or an order.
    ///   - read: Reads the archive.
    ///   - validate: The content validator, given the main JSON file and the other files.
    ///   - identity: The signer's identity problems, given the signing certificate and the main JSON file.
    /// - Returns: The report.
    func verifyBundle(
        source: String, format: BundleFormat, reading read: () throws -> PassArchive,
        validate: (Data, [String: Data]) -> [ValidationIssue], identity: (Certificate, Data) -> [ValidationIssue]
    ) -> PassVerificationReport {
        var report = PassVerificationReport(issues: [], chainVerified: false)
        func error(_ path: String, _ message: String) { report.issues.append(ValidationIssue(severity: .error, path: path, message: message)) }
        func warning(_ path: String, _ message: String) { report.issues.append(ValidationIssue(severity: .warning, path: path, message: message)) }

        let archive: PassArchive
        do {
            archive = try read()
        } catch let failure {
            let reason = "\(failure)"
            error(source, reason.hasPrefix("\(source): ") ? String(reason.dropFirst(source.count + 2)) : reason)
            return report
        }
        let files = archive.files
        // The other kind of bundle (a pass given to order verify): said once, instead of a hash error for each of
        // its files (the manifest's digest is the other kind's) and a missing main file.
        let other: BundleFormat = format == .pass ? .order : .pass
        if files[format.mainFile] == nil, files[other.mainFile] != nil {
            error(source, "this is a Wallet \(other.noun) (it holds \(other.mainFile), no \(format.mainFile)), not "
                + "\(format == .order ? "an" : "a") \(format.noun): check it with tessera \(other.noun) verify")
            return report
        }
        for problem in archive.layoutProblems { error(problem.path, problem.message) }
        for required in [format.mainFile, "manifest.json", "signature"] where files[required] == nil && archive.hashes[required] == nil {
            error(required, "missing from the archive root")
        }

        if let manifestData = files["manifest.json"] {
            checkManifest(manifestData, hashes: archive.hashes, digest: format.digest, error: error)
            if let signature = files["signature"] {
                checkSignature(signature, manifest: manifestData, into: &report) { signer in
                    files[format.mainFile].map { identity(signer, $0) } ?? []
                }
            }
        }
        if let mainJSON = files[format.mainFile] {
            // A file already refused above (not in the manifest, in a folder) keeps that error alone: the validator's
            // "Wallet ignores it" would contradict it, since Wallet refuses a pass with a file the manifest lacks.
            let refused = Set(report.issues.filter { $0.severity == .error }.map(\.path))
            report.issues += validate(mainJSON, archive.contentFiles).filter {
                !(refused.contains($0.path) && $0.severity == .warning && $0.message.contains("Wallet ignores it"))
            }
        }
        return report
    }

    private func checkManifest(_ data: Data, hashes: [String: String], digest: DigestAlgorithm, error: (String, String) -> Void) {
        let manifest: Manifest
        do {
            manifest = try Manifest(jsonData: data)
        } catch _ {
            error("manifest.json", "not a JSON object of file names to \(digest.rawValue) hashes")
            return
        }
        let files = hashes
        for (path, hash) in hashes.filter({ !PassSigner.reservedNames.contains($0.key) }).sorted(by: { $0.key < $1.key }) {
            guard let listed = manifest.hashes[path] else {
                error(path, "not listed in manifest.json")
                continue
            }
            if listed != hash {
                error(path, "\(digest.rawValue) \(hash) does not match manifest.json (\(listed)): the file changed after signing")
            }
        }
        for path in manifest.hashes.keys.sorted() where files[path] == nil {
            error("manifest.json", "lists \(path), which is not in the archive")
        }
    }

    private func checkSignature(
        _ signature: Data, manifest: Data, into report: inout PassVerificationReport,
        identity: (Certificate) -> [ValidationIssue]
    ) {
        if signature.starts(with: Data("-----BEGIN".utf8)) {
            // Read here to report everything else about it, but Wallet reads the signature as DER.
            report.issues.append(ValidationIssue(
                severity: .error, path: "signature",
                message: "PEM text: Wallet reads only a DER (binary) signature (openssl cms -sign ... -outform DER)"))
        }
        let verifier = CMSVerifier(trustedRoots: root.map { [$0] } ?? [], intermediates: wwdr.map { [$0] } ?? [],
                                   verificationTime: now)
        var info: CMSSignatureInfo
        var chainFailed = false
        // The certificate the chain's check found out of its validity, if it did.
        var outOfValidity: Certificate?
        do {
            info = try verifier.verify(signature: signature, content: manifest)
        } catch {
            if let failure = error as? CryptoError, failure.code == .certificateExpired {
                outOfValidity = failure.certificate
            }
            report.issues.append(ValidationIssue(severity: .error, path: "signature", message: "\(error)"))
            // A chain that does not lead to the root is one problem; the signer's identity and intermediate are
            // still checked, so every problem is reported at once.
            let unchained = CMSVerifier(trustedRoots: [], intermediates: wwdr.map { [$0] } ?? [], verificationTime: now)
            guard root != nil, let signatureOnly = try? unchained.verify(signature: signature, content: manifest) else {
                // It does not verify at all (the manifest changed after signing): who signed it, and when, is still
                // told, as read from the signature (none of it verified).
                if let read = try? unchained.read(signature: signature) {
                    report.signerSubject = read.signer.subject.oneLine
                    report.signerIssuer = read.signer.issuer.oneLine
                    report.signerSerialNumber = read.signer.serialNumberHex
                    report.signingTime = read.signingTime
                    report.digestAlgorithm = read.digestAlgorithm
                }
                return
            }
            info = signatureOnly
            chainFailed = true
        }
        report.signerSubject = info.signer.subject.oneLine
        report.signerIssuer = info.signer.issuer.oneLine
        report.signerSerialNumber = info.signer.serialNumberHex
        report.signingTime = info.signingTime
        report.digestAlgorithm = info.digestAlgorithm
        report.chainVerified = info.chainVerified
        var issues: [ValidationIssue] = []
        func error(_ message: String) { issues.append(ValidationIssue(severity: .error, path: "signature", message: message)) }
        func warning(_ message: String) { issues.append(ValidationIssue(severity: .warning, path: "signature", message: message)) }

        if info.digestAlgorithm.uppercased().hasPrefix("SHA1") { warning("signed with SHA-1; use SHA-256") }
        if info.signingTime == nil { warning("no signingTime attribute") }
        let moment = now ?? Date()
        // Not said twice when the chain's check already named the signer as out of its validity.
        if !info.signer.isValid(at: moment), outOfValidity?.derData != info.signer.derData {
            error("the signing certificate \"\(info.signer.subject["CN"] ?? "")\" is not valid now (valid until \(info.signer.notAfter.map { "\($0)" } ?? "?"))")
        }
        let embeddedIssuer = info.embeddedCertificates.first { info.signer.isIssued(by: $0) }
        if let wwdr {
            if !info.signer.isIssued(by: wwdr) {
                error(PassCredentials.wrongIntermediateReason(certificate: info.signer, wwdr: wwdr))
            }
        }
        if embeddedIssuer == nil {
            error("the signature does not include the WWDR intermediate that issued the signer (\(info.signer.issuer.oneLine))")
        }
        if root == nil && !chainFailed {
            warning("the certificate chain was not checked against a root certificate: no root was given (root)")
        }
        issues += identity(info.signer)
        report.issues += issues
    }
}
