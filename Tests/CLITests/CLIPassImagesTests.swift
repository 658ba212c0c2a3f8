import Foundation
import Testing
import TesseraTestSupport

/// Images of a pass's own from the command line: `images` in `pass create --data`, and `pass batch`'s
/// `images.<name>` columns (CSV) and keys (JSON Lines) naming files beside the rows file.
@Suite("tessera CLI: images of a pass's own")
struct CLIPassImagesTests {
    let work: URL
    let certs: URL

    init() async throws {
        (work, certs) = try await Subprocess.folderWithDevelopmentCertificates(prefix: "cli-images")
    }

    var template: String { Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/generic").path }
    var credentials: [String] {
        ["--p12", certs.appendingPathComponent("pass.p12").path,
         "--p12-password-file", certs.appendingPathComponent("pass.p12.password").path,
         "--wwdr", certs.appendingPathComponent("wwdr.pem").path]
    }

    /// A 90×90 PNG whose comment makes each photo's bytes its own.
    static func photo(_ note: String) -> Data { TestPNG.make(width: 90, height: 90, comment: note) }

    /// An entry of a `.pkpass`, read by Python's `zipfile` (an independent ZIP reader), as hex.
    static func entryHex(_ bundle: String, _ name: String) async throws -> String {
        let read = try await Subprocess.run("python3", ["-c",
            "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).hex())", bundle, name])
        return read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    @Test func createTakesImagesInTheDataDocument() async throws {
        let photo = Self.photo("ana")
        let data = work.appendingPathComponent("data.json")
        try Data(#"{"serialNumber": "M-1", "images": {"thumbnail.png": "\#(photo.base64EncodedString())"}}"#.utf8).write(to: data)
        let output = work.appendingPathComponent("m1.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", template, "--data", data.path,
                                             "--output", output] + credentials)
        #expect(create.status == 0, "\(create.stderr)")
        await #expect(try Self.entryHex(output, "thumbnail.png") == Self.hex(photo))
        // The template's other scales of that image go with it (a Retina screen would show the template's picture);
        // its other images stay.
        let names = try await Subprocess.run("python3", ["-c",
            "import sys, zipfile; print(' '.join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))", output])
        let entries = Set(names.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(!entries.contains("thumbnail@2x.png") && !entries.contains("thumbnail@3x.png"), "\(entries)")
        #expect(entries.isSuperset(of: ["icon.png", "icon@2x.png", "logo@3x.png", "manifest.json", "signature"]), "\(entries)")

        try Data(#"{"serialNumber": "M-2", "images": {"strip.png": "\#(photo.base64EncodedString())"}}"#.utf8).write(to: data)
        let refused = try await Subprocess.tessera(["pass", "create", "--template", template, "--data", data.path,
                                              "--output", work.appendingPathComponent("m2.pkpass").path] + credentials)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("images.strip.png: generic passes do not show a strip image"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("m2.pkpass").path))
    }

    @Test func batchReadsImageFilesBesideTheRowsFile() async throws {
        let photos = work.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Self.photo("ana").write(to: photos.appendingPathComponent("ana.png"))
        try Self.photo("bo").write(to: photos.appendingPathComponent("bo.png"))
        let csv = work.appendingPathComponent("members.csv")
        try Data("""
            serialNumber,images.thumbnail.png
            C-1,photos/ana.png
            C-2,photos/missing.png
            C-3,

            """.utf8).write(to: csv)
        let out = work.appendingPathComponent("out")
        let batch = try await Subprocess.tessera(["pass", "batch", "--template", template, "--rows", csv.path,
                                            "--out-dir", out.path] + credentials)
        #expect(batch.status == 1, "\(batch.stdout)\(batch.stderr)")
        #expect(batch.stderr.contains("line 3"), "\(batch.stderr)")
        #expect(batch.stderr.contains("images.thumbnail.png"), "\(batch.stderr)")
        #expect(batch.stderr.contains("missing.png"), "\(batch.stderr)")
        await #expect(try Self.entryHex(out.appendingPathComponent("C-1.pkpass").path, "thumbnail.png") == Self.hex(Self.photo("ana")))
        let templateThumbnail = try Data(contentsOf: URL(fileURLWithPath: template).appendingPathComponent("thumbnail.png"))
        await #expect(try Self.entryHex(out.appendingPathComponent("C-3.pkpass").path, "thumbnail.png") == Self.hex(templateThumbnail))

        let jsonl = work.appendingPathComponent("members.jsonl")
        try Data("""
            {"serialNumber": "J-1", "images.thumbnail.png": "photos/bo.png"}

            """.utf8).write(to: jsonl)
        let lines = try await Subprocess.tessera(["pass", "batch", "--template", template, "--rows", jsonl.path,
                                            "--out-dir", out.path] + credentials)
        #expect(lines.status == 0, "\(lines.stderr)")
        await #expect(try Self.entryHex(out.appendingPathComponent("J-1.pkpass").path, "thumbnail.png") == Self.hex(Self.photo("bo")))

        // A row whose `images` is not an object, or that gives one image twice, fails alone and names it.
        let conflicting = work.appendingPathComponent("conflicting.jsonl")
        try Data("""
            {"serialNumber": "K-1", "images": "oops", "images.thumbnail.png": "photos/bo.png"}
            {"serialNumber": "K-2", "images": {"thumbnail.png": "AAAA"}, "images.thumbnail.png": "photos/bo.png"}
            {"serialNumber": "K-3", "images.thumbnail.png": "photos/ana.png"}

            """.utf8).write(to: conflicting)
        let mixed = try await Subprocess.tessera(["pass", "batch", "--template", template, "--rows", conflicting.path,
                                            "--out-dir", out.path] + credentials)
        #expect(mixed.status == 1, "\(mixed.stdout)\(mixed.stderr)")
        #expect(mixed.stderr.contains("line 1") && mixed.stderr.contains("\"images\": must be an object"), "\(mixed.stderr)")
        #expect(mixed.stderr.contains("line 2") && mixed.stderr.contains("give it once"), "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("K-1.pkpass").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("K-2.pkpass").path))
        await #expect(try Self.entryHex(out.appendingPathComponent("K-3.pkpass").path, "thumbnail.png") == Self.hex(Self.photo("ana")))

        let badHeader = work.appendingPathComponent("bad.csv")
        try Data("serialNumber,images.photo.png\nX-1,photos/ana.png\n".utf8).write(to: badHeader)
        let refused = try await Subprocess.tessera(["pass", "batch", "--template", template, "--rows", badHeader.path,
                                              "--out-dir", out.path] + credentials)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("images.photo.png"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("X-1.pkpass").path))
    }
}
