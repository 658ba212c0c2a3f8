import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import PassModel
import Validation

/// `tessera pass inspect`: what a `.pkpass` holds.
struct PassInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a .pkpass holds: pass details, fields, barcodes, files and signer."
    )

    @Argument(help: "The .pkpass file.")
    var file: String

    @Flag(help: "Print as JSON: the pass.json object, the files with sizes and SHA-1, and the signer.")
    var json = false

    struct Inspection: Encodable {
        var pass: JSONValue?
        var files: [BundleInspection.FileEntry]
        var signer: String?
        var signerIssuer: String?
        var signingTime: String?
    }

    func run() throws {
        let bundle = try BundleInspection(file: file, format: .pass)
        let archive = bundle.archive
        let inspection = Inspection(pass: bundle.main, files: bundle.files, signer: bundle.signerSubject,
                                    signerIssuer: bundle.signerIssuer, signingTime: bundle.signingTime)
        if json {
            print(try ReportJSON.encode(inspection))
            // The JSON has no `pass` then: said, and exit 1, as without --json.
            if let problem = bundle.mainProblem(.pass) { throw CommandFailure(message: "\(file): \(problem)") }
            return
        }
        guard let passData = archive.files["pass.json"] else {
            throw CommandFailure(message: "\(file): no pass.json at the archive root")
        }
        let pass: Pass
        do {
            pass = try Pass(jsonData: passData)
        } catch {
            throw CommandFailure(message: "\(file): pass.json could not be read: \(error)")
        }
        print(PassSummary(pass: pass).text)
        bundle.printFilesAndSigner(command: "tessera pass verify")
    }
}

/// What `tessera pass inspect` and `tessera order inspect` share: the archive, its files with their sizes and hashes
/// (SHA-1 for a pass, SHA-256 for an order, as each manifest lists them), the main JSON file and the signer.
struct BundleInspection {
    /// One file of the bundle.
    struct FileEntry: Encodable {
        var path: String
        var size: Int
        var sha1: String?
        var sha256: String?
    }

    let archive: PassArchive
    let files: [FileEntry]
    /// The main JSON file (`pass.json`, `order.json`), when it is JSON.
    let main: JSONValue?
    let signer: CMSSignatureInfo?

    /// Reads a bundle, failing with exit 1 and the reason when it is not a readable archive.
    init(file: String, format: BundleFormat) throws {
        do {
            archive = try PassArchive(contentsOf: file, format: format)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        }
        main = archive.files[format.mainFile].flatMap { try? JSONValue(jsonData: $0) }
        if let signature = archive.files["signature"], let manifest = archive.files["manifest.json"] {
            // Who signed it is shown even when the signature no longer matches the manifest (`verify` says whether).
            signer = (try? CMSVerifier().verify(signature: signature, content: manifest))
                ?? (try? CMSVerifier().read(signature: signature))
        } else {
            signer = nil
        }
        let archive = archive
        files = archive.files.keys.sorted().map { path in
            let hash = Hex.encode(format.digest.digest(archive.files[path]!))
            return FileEntry(path: path, size: archive.files[path]!.count, sha1: format.digest == .sha1 ? hash : nil,
                             sha256: format.digest == .sha256 ? hash : nil)
        }
    }

    /// Why the main JSON file is missing from ``main``, or `nil` when it is there.
    func mainProblem(_ format: BundleFormat) -> String? {
        guard main == nil else { return nil }
        guard let data = archive.files[format.mainFile] else { return "no \(format.mainFile) at the archive root" }
        return "\(format.mainFile) could not be read: \(JSONSyntax.fault(in: data) ?? "not a JSON document")"
    }

    var signerSubject: String? { signer?.signer.subject.oneLine }
    var signerIssuer: String? { signer?.signer.issuer.oneLine }
    var signingTime: String? { signer?.signingTime.map { ISO8601DateFormatter().string(from: $0) } }

    /// Prints the file list and the signer as text.
    func printFilesAndSigner(command: String) {
        print("Files:")
        for entry in files {
            print("  \(TerminalText.safe(entry.path).padding(toLength: 28, withPad: " ", startingAt: 0)) \(entry.size) bytes")
        }
        if let signer {
            print("Signed by: \(signer.signer.subject.oneLine)")
            print("Issued by: \(signer.signer.issuer.oneLine)")
            if let time = signer.signingTime { print("Signed at: \(ISO8601DateFormatter().string(from: time))") }
        } else {
            print("Signature: missing or unreadable (run `\(command)` for details)")
        }
    }
}
