import ArgumentParser
import Foundation
import PassBundle
import PassModel
import Validation

/// `tessera pass`: make, check and look inside passes.
struct PassCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pass",
        abstract: "Create, batch-create, bundle, verify, inspect and preview .pkpass files; Google Wallet save links.",
        subcommands: [
            PassCreateCommand.self, PassBatchCommand.self, PassBundleCommand.self, PassVerifyCommand.self, PassInspectCommand.self,
            PassPreviewCommand.self, PassGoogleCommand.self,
        ]
    )
}

/// `tessera pass create`: one signed pass from a template and optional data.
struct PassCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Build and sign one .pkpass from a template folder and a data document."
    )

    @Option(help: "Template folder (pass.json, images, xx.lproj).")
    var template: String

    @Option(help: "JSON data document: top-level keys override pass.json, \"fields\" sets field values by key.")
    var data: String?

    @OptionGroup var credentials: CredentialOptions

    @Option(help: "Where to write the .pkpass (written whole or not at all).")
    var output: String

    func run() throws {
        try Loading.checkOutputFile(output)
        let template = try Loading.template(at: self.template, output: output)
        let passData = try data.map { try Loading.passData(at: $0) }
        let builder = try PassBuilder(template: template, signer: try Loading.signer(credentials))
        do {
            let built = try builder.build(data: passData)
            for warning in built.warnings { Terminal.warning("\(warning.path): \(warning.message)") }
            try PassSigner.writeAtomically(built.bundle, to: URL(fileURLWithPath: output))
            print("\(output): signed pass \(built.serialNumber) (\(built.bundle.count) bytes)")
        } catch let error as PassBundleError {
            throw Loading.failure(error, output: output)
        } catch let error as PassModelError {
            throw CommandFailure(message: error.description)
        }
    }
}

/// Shared loading steps that turn library errors into command failures.
enum Loading {
    /// Refuses an `--output` that is a folder or inside a folder that does not exist, before any work is done.
    static func checkOutputFile(_ path: String, example name: String = "pass.pkpass") throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let example = URL(fileURLWithPath: path).appendingPathComponent(name).path
            throw CommandFailure(message: "--output \(path) is a folder; give the path of the file to write, such as \(example)")
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
            throw CommandFailure(message: "--output \(path): the folder \(parent) does not exist")
        }
        if !isDirectory.boolValue {
            throw CommandFailure(message: "--output \(path): \(parent) is a file, not a folder")
        }
    }

    /// Loads a template. A `pass.json` that does not decode is reported like an invalid pass: every value of the
    /// wrong type and every other error and warning of the rest of the pass, one `error|warning: <path>: <reason>`
    /// line each, then the count (saying `output` is not written, when there is one).
    static func template(at path: String, output: String? = nil) throws -> PassTemplate {
        do {
            return try PassTemplate(directory: URL(fileURLWithPath: path))
        } catch let error as PassModelError where !error.issues.isEmpty {
            let errors = error.issues.filter { $0.severity == .error }
            let warnings = error.issues.filter { $0.severity == .warning }
            for issue in errors + warnings { Terminal.standardError(issue.description) }
            let counts = "\(errors.count) error(s), \(warnings.count) warning(s) in the template"
            throw CommandFailure(message: output.map { "\($0) not written: \(counts)" } ?? "\(path): \(counts)")
        } catch let error as PassModelError {
            throw CommandFailure(message: error.description)
        }
    }

    static func passData(at path: String) throws -> PassData {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "\(path): \(FileReading.problem(at: path, what: "data file"))")
        }
        do {
            return try PassData(jsonData: bytes)
        } catch let error as PassModelError {
            throw CommandFailure(message: "\(path): \(error.description)")
        }
    }

    /// The failure for a bundle that could not be built. When there is a report, every error and every warning is
    /// printed to standard error together: fixing one at a time is not a way to work.
    static func failure(_ error: PassBundleError, output: String) -> CommandFailure {
        guard !error.issues.isEmpty else { return CommandFailure(message: error.description) }
        let errors = error.issues.filter { $0.severity == .error }
        let warnings = error.issues.filter { $0.severity == .warning }
        for issue in errors + warnings { Terminal.standardError("\(issue.severity.rawValue): \(issue.path): \(issue.message)") }
        return CommandFailure(message: "\(output) not written: \(errors.count) error(s), \(warnings.count) warning(s)")
    }

    static func signer(_ options: CredentialOptions) throws -> PassSigner {
        do {
            return try PassSigner(credentials: try options.load())
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        }
    }
}
