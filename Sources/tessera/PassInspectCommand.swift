import ArgumentParser
import Foundation
import PassBundle
import PassCrypto
import PassModel

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

    struct FileEntry: Encodable {
        var path: String
        var size: Int
        var sha1: String
    }

    struct Inspection: Encodable {
        var pass: JSONValue?
        var files: [FileEntry]
        var signer: String?
        var signerIssuer: String?
        var signingTime: String?
    }

    func run() throws {
        let archive: PassArchive
        do {
            archive = try PassArchive(contentsOf: file)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        }
        let passValue = archive.files["pass.json"].flatMap { try? JSONValue(jsonData: $0) }
        var signer: CMSSignatureInfo?
        if let signature = archive.files["signature"], let manifest = archive.files["manifest.json"] {
            signer = try? CMSVerifier().verify(signature: signature, content: manifest)
        }
        let files = archive.files.keys.sorted().map { path in
            FileEntry(path: path, size: archive.files[path]!.count, sha1: Hex.encode(Digest.sha1(archive.files[path]!)))
        }
        let inspection = Inspection(pass: passValue, files: files, signer: signer?.signer.subject.oneLine,
                                    signerIssuer: signer?.signer.issuer.oneLine,
                                    signingTime: signer?.signingTime.map { ISO8601DateFormatter().string(from: $0) })
        if json {
            print(try ReportJSON.encode(inspection))
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
        print("Files:")
        for entry in files { print("  \(entry.path.padding(toLength: 28, withPad: " ", startingAt: 0)) \(entry.size) bytes") }
        if let signer {
            print("Signed by: \(signer.signer.subject.oneLine)")
            print("Issued by: \(signer.signer.issuer.oneLine)")
            if let time = signer.signingTime { print("Signed at: \(ISO8601DateFormatter().string(from: time))") }
        } else {
            print("Signature: missing or unreadable (run `tessera pass verify` for details)")
        }
    }
}
