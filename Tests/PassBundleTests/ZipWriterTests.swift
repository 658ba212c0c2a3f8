import Foundation
import OrderModel
@testable import PassBundle
import PassCrypto
import PassModel
import Testing
import TesseraTestSupport

/// The bundle's own ZIP writer, checked by the readers that matter: ZIPFoundation (what Tessera reads with), Info-ZIP's
/// `unzip -t` and `zipinfo`, and OpenSSL on the extracted signature.
@Suite("ZIP writer")
struct ZipWriterTests {
    /// An empty file, a file larger than a chunk, a name outside ASCII and a localization folder's file.
    static let files: [(path: String, data: Data)] = [
        ("empty.txt", Data()),
        ("large.bin", Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })),
        ("fr.lproj/pass.strings", Data("\"seat\" = \"Siège\";\n".utf8)),
        ("café.png", OrderFixturePNG.tiny),
    ]

    /// 2026-11-27 08:30:45 UTC: a ZIP time has two-second steps, so it reads back as 08:30:44.
    static let date = Date(timeIntervalSince1970: 1_795_768_245)

    @Test func preparedEntriesFollowedByOthersGiveTheSameBytesAsOneArchive() async throws {
        let prepared = try ZipWriter.prepare(Array(Self.files.prefix(2)), date: Self.date)
        let continued = try ZipWriter.archive(prepared, adding: Array(Self.files.dropFirst(2)), date: Self.date)
        let whole = try ZipWriter.archive(.empty, adding: Self.files, date: Self.date)
        #expect(continued == whole)
    }

    @Test func zipFoundationReadsEveryEntryAndItsChecksum() async throws {
        let bundle = try ZipWriter.archive(try ZipWriter.prepare(Array(Self.files.prefix(3))), adding: [Self.files[3]])
        // PassArchive extracts through ZIPFoundation with its CRC-32 check on.
        let archive = try PassArchive(data: bundle)
        #expect(archive.layoutProblems.isEmpty, "\(archive.layoutProblems)")
        #expect(archive.files.count == Self.files.count)
        for (path, data) in Self.files {
            #expect(archive.files[path] == data, "\(path)")
            #expect(archive.hashes[path] == Hex.encode(Digest.sha1(data)), "\(path)")
        }
        #expect(try ZipWriter.archive([]).count == 22)
        #expect(try PassArchive(data: ZipWriter.archive([])).files.isEmpty)
    }

    @Test func unzipTestsTheArchiveAndZipinfoListsStoredUnixFiles() async throws {
        let folder = try TemporaryDirectory.make(prefix: "zip")
        let path = folder.appendingPathComponent("files.zip").path
        try ZipWriter.archive(.empty, adding: Self.files, date: Self.date).write(to: URL(fileURLWithPath: path))
        let tested = try await Subprocess.run("unzip", ["-t", path])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.contains("No errors detected"), "\(tested.stdout)")
        let listed = try await Subprocess.run("zipinfo", ["-T", path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("-") }
        #expect(lines.count == Self.files.count, "\(listed.stdout)")
        for line in lines {
            #expect(line.hasPrefix("-rw-r--r--"), "\(line)")
            #expect(line.contains(" unx "), "\(line)")
            #expect(line.contains(" stor 20261127.083044 "), "\(line)")
        }
        #expect(listed.stdout.contains("café.png"), "\(listed.stdout)")
    }

    @Test func timesAreUTCInTwoSecondStepsFrom1980() async {
        let time: UInt16 = 8 << 11 | 30 << 5 | 22
        let day: UInt16 = 46 << 9 | 11 << 5 | 27
        #expect(ZipWriter.dosTime(Self.date) == (time: time, day: day))
        #expect(ZipWriter.dosTime(Date(timeIntervalSince1970: 0)) == (time: 0, day: 1 << 5 | 1))
    }

    @Test func aSignedPassIsTestedByUnzipAndItsSignatureVerifiesWithOpenSSL() async throws {
        let chain = try TestChain()
        let signer = try PassSigner(credentials: PassCredentials(certificate: chain.chain.pass, privateKey: chain.chain.passKey,
                                                                 wwdr: chain.chain.wwdr))
        let template = try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket"))
        let built = try PassBuilder(template: template, signer: signer).build(data: PassData(overrides: ["serialNumber": .string("ZIP-1")]))
        try await checkWithTools(built.bundle, root: chain.path("root.pem"), mainFile: "pass.json", digest: "sha1",
                           fileCount: template.files.count + 3)
        #expect(PassVerifier(root: chain.chain.root).verify(data: built.bundle).wouldOpen)
    }

    @Test func ordersOfTwoTemplatesFromOneSignerEachCarryTheirOwnFiles() async throws {
        let chain = try TestChain()
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: "order.com.example.shop", teamIdentifier: "TESSERA123")
        let signer = try OrderSigner(credentials: PassCredentials(certificate: order.certificate, privateKey: order.key,
                                                                  wwdr: chain.chain.wwdr))
        let template = try OrderTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"))
        let orderJSON = try template.orderJSON(applying: nil, source: "template")
        var other = template.files
        other["logo.png"] = OrderFixturePNG.tiny
        other["fr.lproj/order.strings"] = Data("\"Total\" = \"Total\";\n".utf8)
        // Alternating between the two sets, and the first set again as a separately built but equal dictionary.
        let copy = Dictionary(uniqueKeysWithValues: template.files.map { ($0.key, Data($0.value)) })
        for files in [template.files, other, template.files, other, copy] {
            let bundle = try signer.signedBundle(orderJSON: orderJSON, files: files)
            let archive = try PassArchive(data: bundle, format: .order)
            #expect(archive.contentFiles == files)
            let report = OrderVerifier(root: chain.chain.root).verify(data: bundle)
            #expect(report.wouldOpen, "\(report.errors)")
        }
        try await checkWithTools(signer.signedBundle(orderJSON: orderJSON, files: other), root: chain.path("root.pem"),
                           mainFile: "order.json", digest: "sha256", fileCount: other.count + 3)
    }

    /// `unzip -t` finds no error, `unzip` extracts every entry, OpenSSL verifies the signature over `manifest.json`, and
    /// the manifest's hash of the main file is OpenSSL's.
    private func checkWithTools(_ bundle: Data, root: String, mainFile: String, digest: String, fileCount: Int) async throws {
        let folder = try TemporaryDirectory.make(prefix: "bundle")
        let path = folder.appendingPathComponent("bundle.zip").path
        try bundle.write(to: URL(fileURLWithPath: path))
        let tested = try await Subprocess.run("unzip", ["-t", path])
        #expect(tested.status == 0 && tested.stdout.contains("No errors detected"), "\(tested.stdout)\(tested.stderr)")
        let contents = folder.appendingPathComponent("contents")
        let extracted = try await Subprocess.run("unzip", ["-q", path, "-d", contents.path])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let listed = try await Subprocess.run("zipinfo", ["-1", path])
        #expect(listed.stdout.split(separator: "\n").count == fileCount, "\(listed.stdout)")
        let verified = try await Subprocess.opensslVerifyDetached(
            signature: contents.appendingPathComponent("signature"), content: contents.appendingPathComponent("manifest.json"),
            caFile: root)
        #expect(verified.status == 0 && verified.stderr.contains("Verification successful"), "\(verified.stderr)")
        let manifest = try Manifest(jsonData: Data(contentsOf: contents.appendingPathComponent("manifest.json")))
        let hashed = try await Subprocess.run("openssl", ["dgst", "-\(digest)", "-r", contents.appendingPathComponent(mainFile).path])
        #expect(manifest.hashes[mainFile] == String(hashed.stdout.prefix(while: { $0 != " " })))
    }
}
