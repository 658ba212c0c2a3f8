import Foundation
import Testing
import TesseraTestSupport

/// Rows files and credentials at their edges: spaces kept in CSV cells, an export that came out empty, a serial number
/// near the file name limit, a WWDR file of several generations beside a `.p12`, a PKCS#11 URI with a PIN in it, and a
/// pass whose text would drive the terminal.
extension IssuingCLITests {
    @Test func csvCellsKeepTheirSpacesAndAnEmptyExportFails() async throws {
        let rows = try write("spaced.csv", "serialNumber, barcodeMessage\n  SP-1 ,   0042\nSP-2,\u{00A0}A\n")
        let result = try await batch(rows, into: "spaced")
        #expect(result.status == 0, "\(result.stderr)")
        let pass = try await passJSON(work.appendingPathComponent("spaced/SP-1.pkpass").path)
        #expect(pass["serialNumber"] as? String == "SP-1")
        #expect((pass["barcodes"] as? [[String: Any]])?.first?["message"] as? String == "   0042", "\(pass)")
        let ideographic = try await passJSON(work.appendingPathComponent("spaced/SP-2.pkpass").path)
        #expect((ideographic["barcodes"] as? [[String: Any]])?.first?["message"] as? String == "\u{00A0}A")

        for (name, text) in [("header.csv", "serialNumber,barcodeMessage\n"), ("blank.csv", "serialNumber,barcodeMessage\n,\n\n"),
                             ("empty.jsonl", "\n")] {
            let empty = try await batch(try write(name, text), into: "empty-\(name)")
            #expect(empty.status == 1 && empty.stderr.contains("no rows to sign"), "\(name): \(empty.status) \(empty.stderr)")
            #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("empty-\(name)").path))
        }
    }

    @Test func aSerialNumberNearTheNameLimitIsWritten() async throws {
        let serial = String(repeating: "A", count: 220)
        let result = try await batch(try write("long.csv", "serialNumber\n\(serial)\n"), into: "long")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("long/\(serial).pkpass").path))
    }

    @Test func aWWDRFileOfSeveralGenerationsSignsBesideAP12() async throws {
        let other = work.appendingPathComponent("other")
        let made = try await Subprocess.tessera(["certs", "dev", "--out", other.path])
        #expect(made.status == 0, "\(made.stderr)")
        let generations = work.appendingPathComponent("wwdr-generations.pem")
        try (try Data(contentsOf: other.appendingPathComponent("wwdr.pem")) + Data(contentsOf: certs.appendingPathComponent("wwdr.pem")))
            .write(to: generations)
        var arguments = credentials
        arguments[arguments.count - 1] = generations.path
        let create = try await Subprocess.tessera(["pass", "create", "--template", eventTicket,
                                                   "--output", work.appendingPathComponent("g.pkpass").path] + arguments)
        #expect(create.status == 0, "\(create.stderr)")
    }

    @Test func aPINInAPKCS11URIIsNeverRepeated() async throws {
        for uri in ["pkcs11:token=hsm;object=pass;pin-value=734519", "pkcs11:token=hsm;object=pass%3Fpin-value=734519"] {
            let refused = try await Subprocess.tessera([
                "pass", "create", "--template", eventTicket, "--cert", certs.appendingPathComponent("pass.pem").path,
                "--key", uri, "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
                "--output", work.appendingPathComponent("h.pkpass").path,
            ])
            #expect(refused.status == 2 && refused.stderr.contains("--pkcs11-module"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("734519"), "\(refused.stderr)")
        }
    }

    @Test func textThatWouldDriveTheTerminalIsEscaped() async throws {
        let data = try write("hostile.json", #"{"description": "Ticket\u001b]2;owned\u0007\u001b[2J\u202Egnp.exe"}"#)
        let output = work.appendingPathComponent("hostile.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", eventTicket, "--data", data, "--output", output]
                                                  + credentials)
        #expect(create.status == 0, "\(create.stderr)")
        let inspect = try await Subprocess.tessera(["pass", "inspect", output])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(!inspect.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
                "\(inspect.stdout.debugDescription)")
        #expect(inspect.stdout.contains(#"Ticket\u{1B}]2;owned\u{7}\u{1B}[2J\u{202E}gnp.exe"#), "\(inspect.stdout)")
    }
}
