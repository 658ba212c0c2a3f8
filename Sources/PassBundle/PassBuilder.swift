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

    /// Builds one signed pass.
    /// - Parameter data: The data document applied to the template, or `nil` for the template as is.
    /// - Returns: The serial number, bundle bytes and warnings.
    /// - Throws: ``PassBundleError`` with code `.invalidPass` listing every validation error, or a data error naming the key.
    public func build(data: PassData?) throws -> BuiltPass {
        let pass = try template.pass(applying: data)
        let report = validator.validate(pass: pass, prepared: preparedFiles)
        guard report.isValid else {
            throw PassBundleError(.invalidPass, "the pass is not valid:\n" + report.errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        let passJSON = try template.passJSON(for: pass)
        let bundle = try signer.signedBundle(passJSON: passJSON, contents: contents,
                                             passTypeIdentifier: pass.passTypeIdentifier, teamIdentifier: pass.teamIdentifier)
        return BuiltPass(serialNumber: pass.serialNumber ?? "", bundle: bundle, warnings: report.warnings)
    }
}
