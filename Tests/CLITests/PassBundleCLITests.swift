import Foundation
import Testing
import TesseraTestSupport

/// `tessera pass bundle`: signed passes into one `.pkpasses`.
@Suite("tessera pass bundle")
struct PassBundleCLITests {
    let work: URL

    init() async throws {
        work = try TemporaryDirectory.make(prefix: "pkpasses")
        let certs = work.appendingPathComponent("certs")
        let result = try await Subprocess.tessera(["certs", "dev", "--out", certs.path])
        #expect(result.status == 0, "\(result.stderr)")
        let template = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket").path
        for serial in ["A-1", "A-2"] {
            let data = work.appendingPathComponent("\(serial).json")
            try Data("{\"serialNumber\": \"\(serial)\"}".utf8).write(to: data)
            let create = try await Subprocess.tessera([
                "pass", "create", "--template", template, "--data", data.path,
                "--p12", certs.appendingPathComponent("pass.p12").path,
                "--p12-password-file", certs.appendingPathComponent("pass.p12.password").path,
                "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
                "--output", work.appendingPathComponent("\(serial).pkpass").path,
            ])
            #expect(create.status == 0, "\(create.stderr)")
        }
    }

    @Test func bundlesSignedPasses() async throws {
        let output = work.appendingPathComponent("tickets.pkpasses").path
        let result = try await Subprocess.tessera(["pass", "bundle", work.appendingPathComponent("A-1.pkpass").path,
                                             work.appendingPathComponent("A-2.pkpass").path, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(output): 2 passes ("))
        #expect(result.stdout.contains("application/vnd.apple.pkpasses"))
        let listing = try await Subprocess.run("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist())", output])
        #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "['A-1.pkpass', 'A-2.pkpass']")
    }

    @Test func refusesWhatWalletWouldRefuse() async throws {
        let notes = work.appendingPathComponent("notes.pkpass")
        try Data("not a pass".utf8).write(to: notes)
        let output = work.appendingPathComponent("bad.pkpasses").path
        let result = try await Subprocess.tessera(["pass", "bundle", work.appendingPathComponent("A-1.pkpass").path, notes.path,
                                             "--output", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(output) not written: notes.pkpass: not a .pkpass (ZIP) archive"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // A file given by mistake is named as the user named it, not as it would have been stored.
        let text = work.appendingPathComponent("pw.txt")
        try Data("hunter2\n".utf8).write(to: text)
        let mistaken = try await Subprocess.tessera(["pass", "bundle", text.path, "--output", output])
        #expect(mistaken.status == 1)
        #expect(mistaken.stderr.contains("pw.txt: not a .pkpass (ZIP) archive") && !mistaken.stderr.contains("pw.txt.pkpass"),
                "\(mistaken.stderr)")
        let usage = try await Subprocess.tessera(["pass", "bundle", notes.path, "--output", work.appendingPathComponent("x.zip").path])
        #expect(usage.status == 2)

        // Files that cannot be read are reported with every other problem, at once.
        let pass = work.appendingPathComponent("A-1.pkpass").path
        let all = try await Subprocess.tessera(["pass", "bundle", pass, notes.path, work.appendingPathComponent("gone-1.pkpass").path,
                                              work.appendingPathComponent("gone-2.pkpass").path, pass, "--output", output])
        #expect(all.status == 1, "\(all.stderr)")
        for problem in ["gone-1.pkpass: file not found", "gone-2.pkpass: file not found", "notes.pkpass: not a .pkpass",
                        "A-1.pkpass: two passes have this name"] {
            #expect(all.stderr.contains(problem), "\(problem): \(all.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
