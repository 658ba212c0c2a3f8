import Foundation
@testable import PassBundle
import PassCrypto
import PassModel
import Testing
import TesseraTestSupport

@Suite("Signing and verification")
struct SigningTests {
    let chain: TestChain
    let signer: PassSigner

    init() async throws {
        chain = try TestChain()
        signer = try PassSigner(credentials: PassCredentials(certificate: chain.chain.pass, privateKey: chain.chain.passKey,
                                                             wwdr: chain.chain.wwdr))
    }

    static let templates = ["boarding-pass", "coupon", "event-ticket", "store-card", "generic"]

    func template(_ name: String) throws -> PassTemplate {
        try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"))
    }

    @Test(arguments: templates)
    func signedTemplatesVerifyWithOpenSSL(name: String) async throws {
        let built = try PassBuilder(template: template(name), signer: signer)
            .build(data: PassData(overrides: ["serialNumber": .string("SER-\(name)")]))
        let archive = try PassArchive(data: built.bundle)
        #expect(archive.layoutProblems.isEmpty)
        #expect(Set(archive.files.keys).isSuperset(of: ["pass.json", "manifest.json", "signature", "icon.png"]))

        let folder = try TemporaryDirectory.make(prefix: "verify")
        try archive.files["manifest.json"]!.write(to: folder.appendingPathComponent("manifest.json"))
        try archive.files["signature"]!.write(to: folder.appendingPathComponent("signature"))
        let result = try await Subprocess.opensslVerifyDetached(
            signature: folder.appendingPathComponent("signature"), content: folder.appendingPathComponent("manifest.json"),
            caFile: chain.path("root.pem"))
        #expect(result.status == 0, "openssl cms -verify failed: \(result.stderr)")
        #expect(result.stderr.contains("Verification successful"))

        // The signature carries SHA-256, signingTime and the WWDR intermediate.
        let printed = try await Subprocess.run("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in",
                                                     folder.appendingPathComponent("signature").path])
        #expect(printed.stdout.contains("sha256"))
        #expect(printed.stdout.contains("signingTime"))
        #expect(printed.stdout.contains("Tessera Development WWDR Certification Authority"))

        // Manifest hashes are SHA-1 of every file.
        let manifest = try Manifest(jsonData: archive.files["manifest.json"]!)
        #expect(manifest.hashes["pass.json"] == Hex.encode(Digest.sha1(archive.files["pass.json"]!)))
        #expect(manifest.hashes.count == archive.files.count - 2)

        let report = PassVerifier(root: chain.chain.root).verify(data: built.bundle)
        #expect(report.wouldOpen, "\(report.errors)")
        #expect(report.chainVerified)
    }

    /// The per-pass manifest is spliced into one encoded per template: it must be the very bytes a full encoding gives.
    @Test(arguments: templates)
    func preparedManifestEqualsAFullEncoding(name: String) async throws {
        let template = try template(name)
        let contents = try PassContents(files: template.files)
        for passJSON in [Data("{}".utf8), template.passJSON, Data(repeating: 0x41, count: 5000)] {
            let full = Manifest(files: contents.files.merging(["pass.json": passJSON]) { $1 }).jsonData()
            #expect(contents.manifestJSON(passJSON: passJSON) == full)
        }
    }

    @Test func verifierFindsTamperedFilesAndMissingEntries() async throws {
        let built = try PassBuilder(template: template("coupon"), signer: signer).build(data: nil)
        var files = try PassArchive(data: built.bundle).files
        files["icon.png"]!.append(0)
        files["signature"] = nil
        let tampered = try PassSignerTestHelper.zip(files)
        let report = PassVerifier().verify(data: tampered)
        #expect(!report.wouldOpen)
        #expect(report.errors.contains { $0.path == "icon.png" && $0.message.contains("does not match manifest.json") })
        #expect(report.errors.contains { $0.path == "signature" && $0.message.contains("missing") })
    }

    @Test func verifierRejectsASignatureOverOtherContent() async throws {
        let built = try PassBuilder(template: template("coupon"), signer: signer).build(data: nil)
        var files = try PassArchive(data: built.bundle).files
        files["manifest.json"] = Data(String(decoding: files["manifest.json"]!, as: UTF8.self).replacingOccurrences(of: "{", with: "{ ").utf8)
        let report = PassVerifier().verify(data: try PassSignerTestHelper.zip(files))
        #expect(report.errors.contains { $0.path == "signature" && $0.message.contains("does not match the signed content") })
        // Who signed it, and when, is still told (read from the signature, not verified).
        #expect(report.signerSubject?.contains("Pass Type ID") == true && report.signingTime != nil && !report.chainVerified)
        let rooted = PassVerifier(root: chain.chain.root).verify(data: try PassSignerTestHelper.zip(files))
        #expect(rooted.signerSubject?.contains("Pass Type ID") == true && !rooted.chainVerified)
    }

    /// A signature written as PEM text (`openssl smime -sign -outform PEM`) is read, so that its signer is reported,
    /// and refused: Wallet reads DER. (Reading it once crashed the process: the PEM reader was called undeclared, and its
    /// pointer was cut to 32 bits.)
    @Test func verifierReadsAndRefusesAPEMSignature() async throws {
        let built = try PassBuilder(template: template("coupon"), signer: signer).build(data: nil)
        var files = try PassArchive(data: built.bundle).files
        let folder = try TemporaryDirectory.make(prefix: "pem-signature")
        let der = folder.appendingPathComponent("signature.der")
        try files["signature"]!.write(to: der)
        let pem = try await Subprocess.run("openssl", ["cms", "-cmsout", "-inform", "DER", "-outform", "PEM", "-in", der.path])
        try #require(pem.status == 0 && pem.stdout.hasPrefix("-----BEGIN CMS-----"), "\(pem.stderr)")
        files["signature"] = Data(pem.stdout.utf8)
        let report = PassVerifier(root: chain.chain.root).verify(data: try PassSignerTestHelper.zip(files))
        #expect(!report.wouldOpen)
        #expect(report.errors.map(\.description) == ["error: signature: PEM text: Wallet reads only a DER (binary) signature (openssl cms -sign ... -outform DER)"])
        #expect(report.signerSubject?.contains("Pass Type ID") == true && report.chainVerified)
    }

    /// A file the manifest lacks (a macOS `.DS_Store` zipped with the pass) is one error; the validator's "Wallet
    /// ignores it" would contradict it, as Wallet refuses the pass.
    @Test func aFileTheManifestLacksIsOneErrorNotAlsoIgnored() async throws {
        let built = try PassBuilder(template: template("coupon"), signer: signer).build(data: nil)
        var files = try PassArchive(data: built.bundle).files
        files[".DS_Store"] = Data("x".utf8)
        let report = PassVerifier().verify(data: try PassSignerTestHelper.zip(files))
        #expect(report.issues.filter { $0.path == ".DS_Store" }.map(\.description) == ["error: .DS_Store: not listed in manifest.json"])
    }

    @Test func verifierNamesTarStyleEntryNames() async throws {
        let built = try PassBuilder(template: template("generic"), signer: signer).build(data: nil)
        let files = try PassArchive(data: built.bundle).files
        let dotted = Dictionary(uniqueKeysWithValues: files.map { ("./\($0.key)", $0.value) })
        let report = PassVerifier().verify(data: try PassSignerTestHelper.zip(dotted, first: "./pass.json"))
        let passJSON = report.errors.filter { $0.path == "./pass.json" }.map(\.message)
        #expect(passJSON.contains { $0.contains("must be stored as \"pass.json\"") }, "\(report.errors)")
        #expect(!report.errors.contains { $0.message.contains("inside a folder") }, "\(report.errors)")
        #expect(!report.wouldOpen)
    }

    @Test func verifierRejectsAFolderAtTheRoot() async throws {
        let built = try PassBuilder(template: template("generic"), signer: signer).build(data: nil)
        let files = try PassArchive(data: built.bundle).files
        let nested = Dictionary(uniqueKeysWithValues: files.map { ("MyPass.pass/\($0.key)", $0.value) })
        let report = PassVerifier().verify(data: try PassSignerTestHelper.zip(nested))
        #expect(report.errors.contains { $0.path == "MyPass.pass/pass.json" && $0.message.contains("must be at the archive root") })
        #expect(report.errors.contains { $0.path == "pass.json" && $0.message.contains("missing") })
    }

    @Test func signerRefusesAPassForAnotherPassTypeID() async throws {
        let built = try template("generic").passJSON(applying: PassData(overrides: ["passTypeIdentifier": .string("pass.com.other")]))
        let error = #expect(throws: PassBundleError.self) {
            try signer.signedBundle(passJSON: built, files: try template("generic").files)
        }
        #expect(error?.reason.contains("passTypeIdentifier") == true)
        #expect(error?.reason.contains("pass.dev.tessera.demo") == true)
        let team = try template("generic").passJSON(applying: PassData(overrides: ["teamIdentifier": .string("OTHERTEAM1")]))
        let teamError = #expect(throws: PassBundleError.self) {
            try signer.signedBundle(passJSON: team, files: try template("generic").files)
        }
        #expect(teamError?.reason.contains("teamIdentifier") == true)
    }

    @Test func invalidPassIsRefusedAndNothingIsWritten() async throws {
        let folder = try TemporaryDirectory.make(prefix: "atomic")
        let output = folder.appendingPathComponent("out.pkpass")
        let builder = try PassBuilder(template: try template("event-ticket"), signer: signer)
        #expect(throws: PassBundleError.self) {
            let built = try builder.build(data: PassData(overrides: ["formatVersion": .integer(2)]))
            try PassSigner.writeAtomically(built.bundle, to: output)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

@Suite("Verification of a chain out of its validity")
struct ExpiredChainVerificationTests {
    @Test("a pass verified after its certificate expired names the certificate and the date, once")
    func expiredSigner() throws {
        let chain = try TestChain()
        let signer = try PassSigner(credentials: PassCredentials(
            certificate: chain.chain.pass, privateKey: chain.chain.passKey, wwdr: chain.chain.wwdr))
        let template = try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/coupon"))
        let built = try PassBuilder(template: template, signer: signer)
            .build(data: PassData(overrides: ["serialNumber": .string("EXP-1")]))
        let later = Date().addingTimeInterval(400 * 86_400)  // the certificate lasts 365 days, its intermediate 10 years
        let report = PassVerifier(root: chain.chain.root, now: later).verify(data: built.bundle)
        let signature = report.errors.filter { $0.path == "signature" }.map(\.message)
        let until = String(ISO8601DateFormatter().string(from: try #require(chain.chain.pass.notAfter)).prefix(10))
        #expect(signature.count == 1, "\(signature)")
        #expect(signature.first?.contains(
            "has expired: \"Pass Type ID: pass.dev.tessera.demo\" was valid until \(until)") == true, "\(signature)")
        #expect(signature.first?.contains("does not verify against the given root") == false)
        #expect(!report.wouldOpen)
    }

    @Test("the intermediate named for a certificate Apple's WWDR issued is the generation that issued it")
    func intermediateGeneration() throws {
        let keys = try TestKeys.chain()
        let chain = try TestChain()
        func leaf(issuerOU: String) throws -> Certificate {
            let issuer = try CertificateBuilder(
                subject: DistinguishedName([("CN", "Apple Worldwide Developer Relations Certification Authority"),
                                            ("OU", issuerOU), ("O", "Apple Inc."), ("C", "US")]),
                notBefore: Date().addingTimeInterval(-86_400), notAfter: Date().addingTimeInterval(86_400),
                extensions: [("basicConstraints", "critical,CA:TRUE")]
            ).issue(publicKeyOf: keys.wwdr, issuer: nil, issuerKey: keys.wwdr)
            return try CertificateBuilder(
                subject: DistinguishedName([("UID", "pass.com.example"), ("CN", "Pass Type ID: pass.com.example")]),
                notBefore: Date().addingTimeInterval(-3600), notAfter: Date().addingTimeInterval(86_400), extensions: []
            ).issue(publicKeyOf: keys.pass, issuer: issuer, issuerKey: keys.wwdr)
        }
        let g4 = PassCredentials.wrongIntermediateReason(certificate: try leaf(issuerOU: "G4"), wwdr: chain.chain.wwdr)
        #expect(g4.contains("https://www.apple.com/certificateauthority/AppleWWDRCAG4.cer"), "\(g4)")
        let g3 = PassCredentials.wrongIntermediateReason(certificate: try leaf(issuerOU: "G3"), wwdr: chain.chain.wwdr)
        #expect(g3.contains("AppleWWDRCAG3.cer") && !g3.contains("AppleWWDRCAG4"), "\(g3)")
        let first = PassCredentials.wrongIntermediateReason(
            certificate: try leaf(issuerOU: "Apple Worldwide Developer Relations"), wwdr: chain.chain.wwdr)
        #expect(first.contains("AppleWWDRCA.cer") && first.contains("expired on 2023-02-07"), "\(first)")
    }
}
