public import Foundation
public import PassModel

extension PassPreviewRenderer {
    /// Prepares a preview of a template with a data document applied, as `tessera pass create` would build it.
    /// - Parameters:
    ///   - template: The template (its `pass.json` and files).
    ///   - data: The data document, or `nil` to draw the template as it is.
    ///   - language: A language code such as `en` or `fr`; `nil` picks `en` when the template has it.
    ///   - configuration: The device's time zone and clock.
    /// - Throws: `PassModelError` when the data does not apply (an unknown field key, a value of the wrong type).
    public init(template: PassTemplate, data: PassData? = nil, language: String? = nil,
                configuration: Configuration = .init()) throws {
        var pass = try template.pass(applying: data)
        // `pass create` and the server fill these from the signing certificate (a Pass Designer template leaves them
        // empty): a template without them is not called invalid for it.
        if (pass.passTypeIdentifier ?? "").isEmpty, data?.overrides["passTypeIdentifier"] == nil {
            pass.passTypeIdentifier = Self.unsignedPassTypeIdentifier
        }
        if (pass.teamIdentifier ?? "").isEmpty, data?.overrides["teamIdentifier"] == nil {
            pass.teamIdentifier = Self.unsignedTeamIdentifier
        }
        self.init(pass: pass, files: template.files, language: language, configuration: configuration)
    }

    /// What a template's preview takes for a Pass Type ID the signing certificate will give.
    static let unsignedPassTypeIdentifier = "pass.preview.from-certificate"
    /// What a template's preview takes for a team the signing certificate will give.
    static let unsignedTeamIdentifier = "PREVIEW000"

    /// Prepares a preview of a pass bundle's files, such as those of a `.pkpass` archive.
    /// - Parameters:
    ///   - bundleFiles: Every file by path, `pass.json` included.
    ///   - language: A language code such as `en` or `fr`; `nil` picks `en` when the pass has it.
    ///   - configuration: The device's time zone and clock.
    ///   - packageIssues: What a verifier found of the package (``PassBundle``'s `PassVerifier`: manifest hashes,
    ///     the signature), drawn in the banner with the validator's own.
    /// - Throws: ``PassPreviewError`` `missingPassJSON`, or `invalidPass` with the decoding reason.
    public init(bundleFiles: [String: Data], language: String? = nil, configuration: Configuration = .init(),
                packageIssues: [ValidationIssue] = []) throws {
        guard let passJSON = bundleFiles["pass.json"] else {
            throw PassPreviewError(.missingPassJSON, "pass.json: missing from the pass")
        }
        let pass: Pass
        do {
            pass = try Pass(jsonData: passJSON)
        } catch let error as PassModelError {
            throw PassPreviewError(.invalidPass, error.description)
        }
        self.init(pass: pass, files: bundleFiles, language: language, configuration: configuration)
        let validated = report.issues
        report = ValidationReport(issues: packageIssues.filter { !validated.contains($0) } + validated)
    }
}
