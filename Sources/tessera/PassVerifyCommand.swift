import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import PassModel

/// `tessera pass verify`: every reason a `.pkpass` would not open.
struct PassVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a .pkpass: archive layout, manifest hashes, signature, signer identity and pass.json. Exit 0 only when the pass would open."
    )

    @Argument(help: "The .pkpass file.")
    var file: String

    @Option(help: "The WWDR intermediate the signer must be issued by (default: the one inside the signature).")
    var wwdr: String?

    @Option(help: "A trusted root the chain must lead to (for Apple passes: Apple Root CA; for development: root.pem).")
    var root: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        try BundleVerification.run(file: file, wwdr: wwdr, root: root, json: json) { wwdr, root in
            PassVerifier(wwdr: wwdr, root: root).verify(contentsOf: file)
        }
    }
}

/// What `tessera pass verify` and `tessera order verify` share: loading `--wwdr` and `--root`, printing the report as
/// text or JSON, and exit 1 when the bundle would not open.
enum BundleVerification {
    /// Verifies `file` and prints the report.
    /// - Parameters:
    ///   - file: The bundle's path.
    ///   - wwdr: The `--wwdr` path.
    ///   - root: The `--root` path.
    ///   - json: Whether to print JSON.
    ///   - verify: Verifies the file with the loaded certificates.
    static func run(
        file: String, wwdr: String?, root: String?, json: Bool,
        verify: (Certificate?, Certificate?) -> PassVerificationReport
    ) throws {
        var problems: [ValidationIssue] = []
        func certificate(_ path: String?, flag: String) throws -> Certificate? {
            guard let path else { return nil }
            do {
                return try Certificate(contentsOf: path)
            } catch let error as CryptoError {
                // Still answer in the form asked for.
                guard json else { throw CommandFailure(message: "\(flag): \(error.description)") }
                problems.append(ValidationIssue(severity: .error, path: flag, message: error.description))
                return nil
            }
        }
        let wwdrCertificate = try certificate(wwdr, flag: "--wwdr")
        let rootCertificate = try certificate(root, flag: "--root")
        var report = problems.isEmpty ? verify(wwdrCertificate, rootCertificate) : PassVerificationReport(issues: [], chainVerified: false)
        report.issues = problems + report.issues.map {
            ValidationIssue(severity: $0.severity, path: $0.path, message: FlagHints.verificationMessage($0.message))
        }
        if json {
            print(try ReportJSON.encode(report))
        } else {
            for issue in report.errors + report.warnings {
                print(TerminalText.safe("\(issue.severity.rawValue): \(issue.path): \(issue.message)"))
            }
            if let subject = report.signerSubject { print("signer: \(subject)") }
            if let time = report.signingTime { print("signed: \(ISO8601DateFormatter().string(from: time))") }
            print(report.wouldOpen
                  ? "OK: \(file) would open (\(report.warnings.count) warning(s))"
                  : "FAIL: \(file) would not open: \(report.errors.count) error(s), \(report.warnings.count) warning(s)")
        }
        if !report.wouldOpen { throw ExitCode(1) }
    }
}

/// JSON forms of reports for `--json`.
enum ReportJSON {
    struct Verification: Encodable {
        var wouldOpen: Bool
        var errors: [ValidationIssue]
        var warnings: [ValidationIssue]
        var signer: String?
        var signerIssuer: String?
        var signerSerialNumber: String?
        var signingTime: String?
        var digestAlgorithm: String?
        var chainVerified: Bool
    }

    static func encode(_ report: PassVerificationReport) throws -> String {
        let value = Verification(
            wouldOpen: report.wouldOpen, errors: report.errors, warnings: report.warnings,
            signer: report.signerSubject, signerIssuer: report.signerIssuer, signerSerialNumber: report.signerSerialNumber,
            signingTime: report.signingTime.map { ISO8601DateFormatter().string(from: $0) },
            digestAlgorithm: report.digestAlgorithm, chainVerified: report.chainVerified)
        return try encode(value)
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
