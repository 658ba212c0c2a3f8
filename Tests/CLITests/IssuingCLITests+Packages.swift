import Foundation
import Testing
import TesseraTestSupport

/// Packages and folders on a bad day: a pass changed after signing, a folder another batch is writing into.
extension IssuingCLITests {
    /// A signed pass whose pass.json changed after signing would not open: its preview says so (banner and summary),
    /// as `pass verify` would, where it said "pass valid".
    @Test func aPreviewOfAPassThatWouldNotOpenSaysSo() async throws {
        let signed = work.appendingPathComponent("tampered.pkpass").path
        let created = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--output", signed] + credentials)
        try #require(created.status == 0, "\(created.stderr)")
        let good = try await Subprocess.tessera(["pass", "preview", signed, "--output", work.appendingPathComponent("good.svg").path])
        #expect(good.status == 0 && good.stdout.contains("pass valid"), "\(good.stdout)\(good.stderr)")
        // pass.json changed after signing (Python's zipfile rewrites the archive with one byte more in it).
        let script = """
            import sys, zipfile
            src = zipfile.ZipFile(sys.argv[1]); files = {n: src.read(n) for n in src.namelist()}; src.close()
            files["pass.json"] = files["pass.json"].replace(b'{', b'{ ', 1)
            with zipfile.ZipFile(sys.argv[1], "w") as out:
                for name, data in files.items(): out.writestr(name, data)
            """
        #expect(try await Subprocess.run("python3", ["-c", script, signed]).status == 0)
        let tampered = try await Subprocess.tessera(["pass", "preview", signed, "--output", work.appendingPathComponent("bad.svg").path])
        #expect(tampered.status == 0, "\(tampered.stderr)")
        #expect(tampered.stdout.contains("pass INVALID (1 errors)"), "\(tampered.stdout)")
        #expect(tampered.stderr.contains("pass.json: SHA-1"), "\(tampered.stderr)")
        let svg = try String(contentsOfFile: work.appendingPathComponent("bad.svg").path, encoding: .utf8)
        #expect(svg.contains("does not match manifest.json"))
    }

    /// A batch writing into a folder holds it: a second one there would remove the first one's temporaries as an
    /// earlier run's leftovers, and fail its rows. Here the test holds the folder as a running batch does.
    @Test func aSecondBatchIntoTheSameFolderIsRefused() async throws {
        let rows = try write("second.csv", "serialNumber\nS1\n")
        let outDir = work.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let temporary = outDir.appendingPathComponent(".S9.pkpass.\(UUID().uuidString).tmp")
        try Data("half written".utf8).write(to: temporary)
        let descriptor = open(outDir.path, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let refused = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                                    "--out-dir", outDir.path] + credentials)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(outDir.path): another tessera pass batch is writing into this folder"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: temporary.path), "the running batch's temporary was removed")
        close(descriptor)
        let after = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                                  "--out-dir", outDir.path] + credentials)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!FileManager.default.fileExists(atPath: temporary.path))  // a leftover now: removed
    }
}
