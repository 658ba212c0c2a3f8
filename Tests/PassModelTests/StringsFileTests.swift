import Foundation
import PassModel
import Testing

@Suite("StringsFile")
struct StringsFileTests {
    @Test func parsesEntriesEscapesAndComments() throws {
        let text = #"""
            /* Header comment
               over two lines */
            "GATE" = "Porte"; // trailing comment
            "QUOTE" = "say \"hi\" \\ now";
            "LINES"="one\ntwo\tthree";
            "SNOW" = "\U2603 and \u00e9";
            unquoted_key = "value";
            """#
        let file = try StringsFile(data: Data(text.utf8), fileName: "fr.lproj/pass.strings")
        #expect(file.entries["GATE"] == "Porte")
        #expect(file.entries["QUOTE"] == "say \"hi\" \\ now")
        #expect(file.entries["LINES"] == "one\ntwo\tthree")
        #expect(file.entries["SNOW"] == "☃ and é")
        #expect(file.entries["unquoted_key"] == "value")
        #expect(file.entries.count == 5)
    }

    @Test func readsUTF16WithByteOrderMark() throws {
        let text = "\"SEAT\" = \"Siège\";\n"
        var little = Data([0xFF, 0xFE])
        little.append(text.data(using: .utf16LittleEndian)!)
        var big = Data([0xFE, 0xFF])
        big.append(text.data(using: .utf16BigEndian)!)
        #expect(try StringsFile(data: little, fileName: "a").entries == ["SEAT": "Siège"])
        #expect(try StringsFile(data: big, fileName: "b").entries == ["SEAT": "Siège"])
        var utf8BOM = Data([0xEF, 0xBB, 0xBF])
        utf8BOM.append(Data(text.utf8))
        #expect(try StringsFile(data: utf8BOM, fileName: "c").entries == ["SEAT": "Siège"])
    }

    @Test(arguments: [
        ("\"A\" = \"x\";\n\"B\" = \"y\"\n\"C\" = \"z\";", "line 3: expected ';' after the value of key \"B\""),
        ("\"A\" = \"x\";\n\n\"B\" \"y\";", "line 3: expected '='"),
        ("\"A\" = \"x\";\n/* never closed", "line 2: unterminated /* comment"),
        ("\"A\" = \"unterminated;\n", "line 1: unterminated string"),
        ("\"A\" = \"\\U12\";", "line 1: \\U must be followed by 4 hex digits"),
    ])
    func reportsLineNumbers(text: String, fragment: String) {
        #expect {
            try StringsFile(data: Data(text.utf8), fileName: "de.lproj/pass.strings")
        } throws: { error in
            let reason = (error as? PassModelError)?.reason ?? ""
            return reason.hasPrefix("de.lproj/pass.strings, ") && reason.contains(fragment)
        }
    }

    @Test func rejectsBinary() {
        #expect(throws: PassModelError.self) {
            try StringsFile(data: Data([0x22, 0xC3, 0x28, 0x22]), fileName: "x")
        }
    }
}
