import Foundation
import Testing
import TesseraTestSupport

/// Rows files as issuers export them: bad rows failing alone on their line, quotes, line endings, byte order marks,
/// repeated keys, numbers, misspelled headers and unknown keys.
extension IssuingCLITests {
    @Test func aBadCSVRowFailsAloneWithItsLine() async throws {
        let rows = try write("rows.csv", "serialNumber,fields.seat\nS1,1A\nS2,2B,EXTRA\nS3,3C\nS4\n")
        let outDir = work.appendingPathComponent("rows")
        let batch = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                            "--out-dir", outDir.path] + credentials)
        #expect(batch.status == 1)
        #expect(batch.stdout.contains("2 of 4 passes written"))
        #expect(batch.stderr.contains("rows.csv line 3: has 3 cells, the header has 2"))
        #expect(batch.stderr.contains("rows.csv line 5: has 1 of the header's 2 cells: missing \"fields.seat\""))
        #expect(!batch.stderr.contains("line 2:"))
        #expect(!batch.stderr.contains("line 4:"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted() == ["S1.pkpass", "S3.pkpass"])
        let seat = try await passJSON(outDir.appendingPathComponent("S3.pkpass").path)
        let fields = (seat["eventTicket"] as? [String: Any])?.values.compactMap { $0 as? [[String: Any]] }.joined()
        #expect(fields?.contains { $0["key"] as? String == "seat" && $0["value"] as? String == "3C" } == true)
    }

    @Test func badQuotesFailTheirRowAndAnUnclosedQuoteStopsTheBatch() async throws {
        // A quote inside an unquoted cell, text after a closing quote: each row fails alone, on its line; a quoted
        // cell spanning two lines is a good row, and the rows after it keep their line numbers.
        let rows = try write("quotes.csv", "serialNumber,fields.seat\r\nQ1,1A\r\nQ2,2\"B\"\r\nQ3,\"3C\"x\r\nQ4,\"4\r\nD\"\r\nQ5,5E,x\r\nQ6,6F\r\n")
        let outDir = work.appendingPathComponent("quotes")
        let batch = try await self.batch(rows, into: "quotes")
        #expect(batch.status == 1, "\(batch.stderr)")
        #expect(batch.stderr.contains("quotes.csv line 3: a quote inside a cell that does not start with one"), "\(batch.stderr)")
        #expect(batch.stderr.contains("quotes.csv line 4: text after a quoted cell's closing quote"), "\(batch.stderr)")
        #expect(batch.stderr.contains("quotes.csv line 7: has 3 cells, the header has 2"), "\(batch.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted() == ["Q1.pkpass", "Q4.pkpass", "Q6.pkpass"])

        // A quote never closed would take every later line into one cell: nothing is written, its line is named.
        let unclosed = try write("unclosed.csv", "serialNumber,fields.seat\nU1,ok\nU2,\"never closed\nU3,x\nU4,y\n")
        let stopped = try await self.batch(unclosed, into: "unclosed")
        #expect(stopped.status == 1 && stopped.stderr.contains("unclosed.csv line 3: a quoted cell is never closed"), "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("unclosed").path))

        // Not UTF-8 (a spreadsheet's Latin-1 export): the batch stops naming the line; in JSON Lines the row fails.
        let latin1 = work.appendingPathComponent("latin1.csv")
        try (Data("serialNumber,fields.seat\nL1,caf".utf8) + Data([0xE9, 0x0A])).write(to: latin1)
        let refused = try await self.batch(latin1.path, into: "latin1")
        #expect(refused.status == 1 && refused.stderr.contains("latin1.csv line 2: not UTF-8 text"), "\(refused.stderr)")
        let jsonl = work.appendingPathComponent("latin1.jsonl")
        try (Data(#"{"serialNumber":"M1","fields":{"seat":"caf"#.utf8) + Data([0xE9]) + Data("\"}}\r\n{\"serialNumber\":\"M2\"}\r\n".utf8)).write(to: jsonl)
        let mixed = try await self.batch(jsonl.path, into: "mixed")
        #expect(mixed.status == 1 && mixed.stderr.contains("latin1.jsonl line 1: not UTF-8 text"), "\(mixed.stderr)")
        #expect(mixed.stdout.contains("1 of 2 passes written"), "\(mixed.stdout)")

        // A row that is not JSON is named by its own line and the column in it, not as "line 1" of itself.
        let cut = try write("cut.jsonl", "{\"serialNumber\":\"C1\"}\n  {\"serialNumber\": }\n")
        let cutRows = try await self.batch(cut, into: "cut")
        #expect(cutRows.status == 1 && cutRows.stderr.contains("cut.jsonl line 2: not JSON at column 20: "), "\(cutRows.stderr)")
    }

    @Test func otherLineBreaksEmptyRowsFileNamesAndImagePaths() async throws {
        // A line break other than LF or CR LF outside quotes (a cell pasted from a web page) fails its row alone, and
        // the rows after it keep their line numbers; inside quotes it is the cell's. A row of empty cells is skipped.
        let rows = try write("breaks.csv", "serialNumber,fields.seat\nB1,Row A\u{2028}Row B\nB2,\"quoted\u{2028}kept\"\n,\n"
            + "B3,3C\u{0B}\nB4,4D\r\nB5,5\rE\nB6,6\u{85}F\n")
        let broken = try await batch(rows, into: "breaks")
        #expect(broken.status == 1, "\(broken.stderr)")
        for expected in ["line 2: a line separator (U+2028) outside quotes", "line 5: a vertical tab (VT) outside quotes",
                         "line 7: a carriage return (CR) alone outside quotes", "line 8: a next line (U+0085 NEL)"] {
            #expect(broken.stderr.contains("breaks.csv \(expected)"), "\(expected): \(broken.stderr)")
        }
        #expect(broken.stdout.contains("2 of 6 passes written"), "\(broken.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("breaks").path).sorted()
                == ["B2.pkpass", "B4.pkpass"])

        // Lines ending with CR alone (a classic Mac export), a quoted cell among them.
        let mac = try write("mac.csv", "serialNumber,fields.seat\rM1,\"a, b\"\rM2,c\r")
        let read = try await batch(mac, into: "mac")
        #expect(read.status == 0 && read.stdout.contains("2 of 2 passes written"), "\(read.stderr)")

        // File names: a serial whose file name another's already is is refused saying so; a letter joined with a
        // slash does not carry it into the name.
        let names = try write("names.csv", "serialNumber,fields.seat\nA 1,1\nA_1,2\nx\u{0D4E}/y,3\n")
        let named = try await batch(names, into: "names")
        #expect(named.status == 1 && named.stderr.contains(
            "names.csv line 3: serial number \"A_1\" would be written to A_1.pkpass, as line 2's \"A 1\" is"), "\(named.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("names").path).sorted()
                == ["A_1.pkpass", "x_y.pkpass"])
        // Serials that differ only in case are two passes: both written on a disk that tells the names apart (on one
        // that does not, the second is refused naming the first).
        let cases = try write("cases.csv", "serialNumber,fields.seat\nab-1,1\nAB-1,2\n")
        let cased = try await batch(cases, into: "cases")
        #expect(cased.status == 0 && cased.stdout.contains("2 of 2 passes written"), "\(cased.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("cases").path).sorted()
                == ["AB-1.pkpass", "ab-1.pkpass"])

        // An image path naming a device or a folder fails its row before anything is read from it.
        let images = try write("images.csv", "serialNumber,images.thumbnail.png\nI1,/dev/zero\nI2,.\n")
        let refused = try await batch(images, into: "images")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("images.csv line 2:") && refused.stderr.contains("not a regular file"), "\(refused.stderr)")
        #expect(refused.stderr.contains("images.csv line 3:") && refused.stderr.contains("is a folder"), "\(refused.stderr)")

        // A rows file of another kind is a usage error (2), before anything is read.
        let text = try write("rows.txt", "serialNumber\nT1\n")
        let usage = try await batch(text, into: "text")
        #expect(usage.status == 2 && usage.stderr.contains(".csv, .jsonl or .ndjson"), "\(usage.stderr)")
    }

    @Test func jsonLinesWithWindowsLineEndingsAreOneRowPerLine() async throws {
        let rows = try write("crlf.jsonl", "{\"serialNumber\":\"W1\"}\r\n{\"serialNumber\":\"W2\"}\r\n\r\n{\"serialNumber\":\"W3\"}\r\n")
        let outDir = work.appendingPathComponent("crlf")
        let batch = try await self.batch(rows, into: "crlf")
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted() == ["W1.pkpass", "W2.pkpass", "W3.pkpass"])
    }

    @Test func byteOrderMarksRepeatedKeysAndNumbersInRows() async throws {
        // PowerShell's Export-Csv: a byte order mark, every cell quoted, CRLF.
        let marked = try write("marked.csv", "\u{FEFF}\"serialNumber\",\"barcodeMessage\"\r\n\"BOM-1\",\"M-1\"\r\n")
        let csv = try await self.batch(marked, into: "marked")
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("marked/BOM-1.pkpass").path))
        let lines = try write("marked.jsonl", "\u{FEFF}{\"serialNumber\":\"BOM-2\"}\n"
            + "{\"serialNumber\":\"TWICE\",\"fields\":{\"seat\":\"12A\"},\"fields\":{\"gate\":\"7\"}}\n")
        let jsonl = try await self.batch(lines, into: "marked-lines")
        #expect(jsonl.status == 1, "\(jsonl.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("marked-lines/BOM-2.pkpass").path))
        #expect(jsonl.stderr.contains("line 2") && jsonl.stderr.contains("\"fields\" appears twice"), "\(jsonl.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("marked-lines/TWICE.pkpass").path))

        // A currency field's cell is a number, so Wallet shows $42.10; text stays text.
        let balances = try write("balances.csv", "serialNumber,fields.balance\nS-1,42.10\nS-2,see desk\n")
        let out = work.appendingPathComponent("balances")
        let cards = try await Subprocess.tessera(["pass", "batch", "--template", templates.appendingPathComponent("store-card").path,
                                                  "--rows", balances, "--out-dir", out.path] + credentials)
        #expect(cards.status == 0, "\(cards.stderr)")
        func balance(_ serial: String) async throws -> String {
            try await Subprocess.run("python3", ["-c", """
                import json, sys, zipfile
                p = json.loads(zipfile.ZipFile(sys.argv[1]).read("pass.json"))
                print(json.dumps([f["value"] for f in p["storeCard"]["primaryFields"] if f["key"] == "balance"][0]))
                """, out.appendingPathComponent("\(serial).pkpass").path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try await balance("S-1") == "42.1")
        #expect(try await balance("S-2") == "\"see desk\"")
    }

    @Test func misspelledHeadersStopTheBatchBeforeAnyPass() async throws {
        let rows = try write("typo.csv", "serialnumber,feilds.seat\nS1,1A\n")
        let outDir = work.appendingPathComponent("typo")
        let batch = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                            "--out-dir", outDir.path] + credentials)
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("\"serialnumber\": not a known column (did you mean \"serialNumber\"?)"))
        #expect(batch.stderr.contains("\"feilds.seat\": not a known column (did you mean \"fields.seat\"?)"))
        #expect(!FileManager.default.fileExists(atPath: outDir.path))
    }

    @Test func jsonLinesUnknownKeysAreWarningsOfTheirRow() async throws {
        let rows = try write("warn.jsonl", """
        {"serialNumber": "W1"}
        {"serialNumber": "W2", "colour": "red"}
        """)
        let batch = try await Subprocess.tessera(["pass", "batch", "--template", eventTicket, "--rows", rows,
                                            "--out-dir", work.appendingPathComponent("warn").path] + credentials)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.contains("warning: warn.jsonl line 2: colour: unknown key"))
        #expect(!batch.stderr.contains("line 1:"))
    }
}
