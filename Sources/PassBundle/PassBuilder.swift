public import Foundation
public import PassModel

/// A signed pass made by ``PassBuilder``.
public struct BuiltPass: Sendable {
    /// The pass's serial number.
    public var serialNumber: String
    /// The `.pkpass` bytes.
    public var bundle: Data
    /// Validator warnings (a built pass has no errors).
    public var warnings: [ValidationIssue]
}

/// Makes signed passes from one template: applies a data document, validates, signs.
/// Build one per template and reuse it; it is safe to use from several tasks at once.
///
/// The signing certificate is the issuer's identity: every pass gets the certificate's Pass Type ID (its UID) and
/// team (its OU), whatever the template says, so the shipped templates work with any certificate. A data document
/// may name `passTypeIdentifier` or `teamIdentifier` only with the certificate's own values.
public struct PassBuilder: Sendable {
    /// The template.
    public let template: PassTemplate
    /// The signer.
    public let signer: PassSigner
    private let contents: PassContents
    private let preparedFiles: PassValidator.PreparedFiles
    private let validator = PassValidator()

    /// Creates a builder; the template's files are hashed, zipped and checked once here.
    /// - Parameters:
    ///   - template: A loaded template.
    ///   - signer: The signer.
    public init(template: PassTemplate, signer: PassSigner) throws {
        self.template = template
        self.signer = signer
        self.contents = try PassContents(files: template.files)
        self.preparedFiles = PassValidator.PreparedFiles(files: template.files)
    }

    /// The Pass Type ID every pass of this builder gets: the certificate's, or the template's when the certificate
    /// names none.
    public var passTypeIdentifier: String? {
        signer.credentials.identity.passTypeIdentifier ?? template.pass.passTypeIdentifier
    }

    /// Builds one signed pass.
    ///
    /// A data document may carry images of the pass's own under `images` (``PassImages``): they replace the
    /// template's files of the same image, at every scale and in every language folder, in this pass only.
    /// - Parameter data: The data document applied to the template, or `nil` for the template as is.
    /// - Returns: The serial number, bundle bytes and warnings.
    /// - Throws: ``PassBundleError``: `.invalidPass` listing every error and warning at once (in
    ///   ``PassBundleError/issues``), `.identityMismatch` when the data names another Pass Type ID or team than
    ///   the certificate's.
    public func build(data: PassData?) throws -> BuiltPass {
        let checked = try validated(data)
        let contents = checked.images.isEmpty ? self.contents : try PassContents(files: checked.files)
        let passJSON = try template.passJSON(for: checked.pass)
        let bundle = try signer.signedBundle(passJSON: passJSON, contents: contents,
                                             passTypeIdentifier: checked.pass.passTypeIdentifier,
                                             teamIdentifier: checked.pass.teamIdentifier)
        return BuiltPass(serialNumber: checked.pass.serialNumber ?? "", bundle: bundle, warnings: checked.warnings)
    }

    /// Checks that `data` makes a valid pass with this template, as ``build(data:)`` does, without making or signing
    /// the bundle: a fraction of its cost, for a change tried on many passes.
    /// - Returns: The warnings ``build(data:)`` would give.
    /// - Throws: What ``build(data:)`` throws for data the template refuses.
    public func check(data: PassData?) throws -> [ValidationIssue] {
        try validated(data).warnings
    }

    /// The pass `data` makes, its images and files, and its warnings, once validated.
    private func validated(_ data: PassData?) throws
        -> (pass: Pass, images: PassImages, files: [String: Data], warnings: [ValidationIssue])
    {
        var data = try identified(data)
        let images = try PassImages(taking: &data)
        let files = images.replacing(in: template.files)
        let preparedFiles = images.isEmpty ? self.preparedFiles : PassValidator.PreparedFiles(files: files, reusing: self.preparedFiles)
        let pass: Pass
        do {
            pass = try template.pass(applying: data)
        } catch let error as PassModelError {
            let report = template.report(applying: data, prepared: preparedFiles)
            throw report.isValid ? PassBundleError(.invalidPass, error.reason, issues: report.issues + [
                ValidationIssue(severity: .error, path: "data", message: error.reason),
            ]) : Self.invalid(report.issues)
        }
        let report = validator.validate(pass: pass, prepared: preparedFiles)
        let notes = placeholderNotes(data) + images.issues(style: pass.style)
        guard report.isValid, !notes.contains(where: { $0.severity == .error }) else {
            throw Self.invalid(notes + report.issues)
        }
        return (pass, images, files, notes + report.warnings)
    }

    private static func invalid(_ issues: [ValidationIssue]) -> PassBundleError {
        let errors = issues.filter { $0.severity == .error }
        return PassBundleError(.invalidPass, "the pass is not valid:\n" + errors.map { "  \($0)" }.joined(separator: "\n"),
                               issues: issues)
    }

    /// The data document with the certificate's Pass Type ID and team filled in.
    /// - Parameter data: The data document, or `nil`.
    /// - Returns: The document with `passTypeIdentifier` and `teamIdentifier` set to the certificate's.
    /// - Throws: ``PassBundleError`` `.identityMismatch` when the document names other values, saying which
    ///   certificate those would need.
    public func identified(_ data: PassData?) throws -> PassData {
        var data = data ?? PassData()
        let identity = signer.credentials.identity
        let wanted: [(key: String, value: String?, what: String)] = [
            ("passTypeIdentifier", identity.passTypeIdentifier, "Pass Type ID"),
            ("teamIdentifier", identity.teamIdentifier, "team (OU)"),
        ]
        var problems: [String] = []
        for (key, value, what) in wanted {
            guard let value else { continue }
            switch data.overrides[key] {
            case nil:
                data.overrides[key] = .string(value)
            case .string(value)?:
                break
            case let other?:
                let named = other.stringValue.map { "\"\($0)\"" } ?? other.kindName
                problems.append(
                    "data \"\(key)\": \(named) would need a Pass Type ID certificate whose \(what) is \(named); "
                        + "the signing certificate's \(what) is \"\(value)\" (leave \(key) out to use it)")
            }
        }
        if !problems.isEmpty { throw PassBundleError(.identityMismatch, problems.joined(separator: "\n")) }
        return data
    }

    /// A warning for each barcode text removed because the data changed the message and the template's text was
    /// written for the template's own message.
    private func placeholderNotes(_ data: PassData) -> [ValidationIssue] {
        guard data.overrides[PassData.barcodeMessageKey] != nil, data.overrides[PassData.barcodeAltTextKey] == nil
        else { return [] }
        var notes: [ValidationIssue] = []
        for (position, barcode) in (template.pass.barcodes ?? []).enumerated() {
            if let altText = barcode.altText, altText != barcode.message {
                notes.append(ValidationIssue(
                    severity: .warning, path: "barcodes[\(position)].altText",
                    message: "the template's text \"\(altText)\" was written for its own barcode message, so it is "
                        + "left out; give barcodeAltText to show text under the barcode"))
            }
        }
        return notes
    }
}
