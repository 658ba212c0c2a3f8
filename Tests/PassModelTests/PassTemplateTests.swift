import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PassModel
import Testing

@Suite("PassTemplate and PassData")
struct PassTemplateTests {
    func template() throws -> PassTemplate {
        try PassTemplate(name: "event-ticket", passJSON: Fixtures.data(Fixtures.eventTicket), files: Fixtures.iconFiles)
    }

    @Test func parsesDataDocuments() throws {
        let data = try PassData(jsonData: Data(#"{"serialNumber":"E-9","fields":{"seat":"1A","gate":7}}"#.utf8))
        #expect(data.overrides == ["serialNumber": "E-9"])
        #expect(data.fields == ["seat": "1A", "gate": 7])
        #expect(try PassData(jsonData: Data("{}".utf8)) == PassData())
    }

    @Test func rejectsBadDataDocuments() {
        #expect { try PassData(jsonData: Data("[1]".utf8)) } throws: {
            "\($0)".contains("must be a JSON object, found array")
        }
        #expect { try PassData(jsonData: Data(#"{"fields":["seat"]}"#.utf8)) } throws: {
            "\($0)".contains("\"fields\"") && "\($0)".contains("found array")
        }
        #expect { try PassData(jsonData: Data("{".utf8)) } throws: { ($0 as? PassModelError)?.code == .invalidJSON }
    }

    @Test func appliesOverridesAndFields() throws {
        let data = PassData(
            overrides: ["serialNumber": "E-42", "backgroundColor": "rgb(1, 2, 3)", "voided": true],
            fields: ["seat": "14C", "gate": 9, "doors": "2026-05-07T19:00-05:00"]
        )
        let bytes = try template().passJSON(applying: data)
        let pass = try Pass(jsonData: bytes)
        #expect(pass.serialNumber == "E-42")
        #expect(pass.backgroundColor == "rgb(1, 2, 3)")
        #expect(pass.voided == true)
        #expect(pass.eventTicket?.secondaryFields?[0].value == .string("14C"))
        #expect(pass.eventTicket?.secondaryFields?[1].value == .integer(9))
        #expect(pass.eventTicket?.auxiliaryFields?[0].value == .string("2026-05-07T19:00-05:00"))
        #expect(pass.eventTicket?.secondaryFields?[0].label == "SEAT")
        #expect(try template().pass(applying: data) == pass)
        #expect(PassValidator().validate(passJSON: bytes, files: Fixtures.iconFiles).issues.isEmpty)
    }

    @Test func withoutDataReturnsTemplate() throws {
        let template = try template()
        #expect(try template.passJSON(applying: nil) == template.passJSON)
        #expect(try template.pass(applying: PassData()) == template.pass)
    }

    @Test func barcodeMessageSetsEveryBarcode() throws {
        var json = Fixtures.eventTicket
        json["barcodes"] = [
            ["format": "PKBarcodeFormatQR", "message": "old", "messageEncoding": "iso-8859-1"],
            ["format": "PKBarcodeFormatCode128", "message": "old", "messageEncoding": "iso-8859-1", "altText": "alt"],
        ]
        json["barcode"] = ["format": "PKBarcodeFormatQR", "message": "old", "messageEncoding": "iso-8859-1"]
        let template = try PassTemplate(name: "t", passJSON: Fixtures.data(json))
        let pass = try template.pass(applying: PassData(overrides: ["barcodeMessage": "NEW-1"]))
        #expect(pass.barcodes?.map(\.message) == ["NEW-1", "NEW-1"])
        // "alt" was written for the old message: it is left out rather than printed under the new one.
        #expect(pass.barcodes?[1].altText == nil)
        #expect(pass.barcode?.message == "NEW-1")
        #expect(pass.unknownKeys["barcodeMessage"] == nil)

        let bare = try PassTemplate(name: "bare", passJSON: Fixtures.data(Fixtures.eventTicket.setting(["barcodes"], to: nil)))
        #expect { try bare.passJSON(applying: PassData(overrides: ["barcodeMessage": "x"])) } throws: {
            "\($0)".contains("has no barcodes")
        }
    }

    @Test func unknownFieldKeyNamesTheKey() throws {
        #expect {
            try template().passJSON(applying: PassData(fields: ["seatt": "1A"]))
        } throws: { error in
            (error as? PassModelError)?.code == .unknownField
                && "\(error)" == "data field \"seatt\" does not exist in template \"event-ticket\"; "
                    + "known keys: doors, event, gate, seat, terms"
        }
    }

    @Test func wrongTypesNameTheKey() throws {
        #expect { try template().passJSON(applying: PassData(overrides: ["serialNumber": 12])) } throws: {
            "\($0)" == "data override \"serialNumber\": expected a string, found number"
        }
        #expect { try template().passJSON(applying: PassData(overrides: ["barcodes": [["format": 1]]])) } throws: {
            "\($0)".contains("data override \"barcodes\" (at barcodes[0].format)")
        }
        #expect { try template().passJSON(applying: PassData(fields: ["seat": ["a"]])) } throws: {
            "\($0)".contains("data field \"seat\": expected a string, number or date string, found array")
        }
        #expect { try template().passJSON(applying: PassData(fields: ["doors": "tomorrow"])) } throws: {
            "\($0)".contains("data field \"doors\"")
        }
    }

    @Test func overridingTheStyleReindexesFields() throws {
        let style: JSONValue = ["primaryFields": [["key": "name", "value": "?"]]]
        let data = PassData(overrides: ["eventTicket": style], fields: ["name": "Ada"])
        let pass = try template().pass(applying: data)
        #expect(pass.eventTicket?.primaryFields?.first?.value == .string("Ada"))
    }

    @Test func nullOverrideRemovesKey() throws {
        let pass = try template().pass(applying: PassData(overrides: ["backgroundColor": nil]))
        #expect(pass.backgroundColor == nil)
        let json = try JSONValue(jsonData: template().passJSON(applying: PassData(overrides: ["backgroundColor": nil, "x": nil])))
        #expect(json["backgroundColor"] == nil && json["x"] == nil)
    }

    @Test func loadsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passmodel-\(UUID().uuidString)/my-ticket")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        try Fixtures.data(Fixtures.eventTicket).write(to: folder.appendingPathComponent("pass.json"))
        try Fixtures.png(width: 29, height: 29).write(to: folder.appendingPathComponent("icon.png"))
        try Data("\"A\" = \"B\";".utf8).write(to: folder.appendingPathComponent("fr.lproj/pass.strings"))
        for skipped in [".DS_Store", "manifest.json", "signature"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(skipped))
        }
        let template = try PassTemplate(directory: folder)
        #expect(template.name == "my-ticket")
        #expect(template.pass.serialNumber == "E-0001")
        #expect(template.files.keys.sorted() == ["fr.lproj/pass.strings", "icon.png"])
    }

    @Test func folderErrorsNameTheFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("passmodel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try PassTemplate(directory: root.appendingPathComponent("missing")) } throws: {
            "\($0)".contains("missing") && "\($0)".contains("does not exist")
        }
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect { try PassTemplate(directory: empty) } throws: { "\($0)".contains("has no pass.json") }
        try Data("{\n\"a\": }".utf8).write(to: empty.appendingPathComponent("pass.json"))
        #expect { try PassTemplate(directory: empty) } throws: {
            "\($0)".contains("empty/pass.json: invalid JSON: line 2")
        }
        try Data(#"{"serialNumber": 5}"#.utf8).write(to: empty.appendingPathComponent("pass.json"))
        #expect { try PassTemplate(directory: empty) } throws: {
            "\($0)".contains("empty/pass.json: serialNumber: expected a string, found number")
        }
    }

    /// A link inside the folder is followed (a localisation sharing another's images); one leading out of it would sign
    /// that file into every pass, and a pipe would hold the load for ever: each is refused naming the path.
    @Test func symbolicLinksStayInsideTheFolder() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("passmodel-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        let folder = root.appendingPathComponent("ticket")
        try manager.createDirectory(at: folder.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        try Fixtures.data(Fixtures.eventTicket).write(to: folder.appendingPathComponent("pass.json"))
        try Fixtures.png(width: 29, height: 29).write(to: folder.appendingPathComponent("icon.png"))
        try Data("\"A\" = \"B\";".utf8).write(to: folder.appendingPathComponent("en.lproj/pass.strings"))
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("fr.lproj").path, withDestinationPath: "en.lproj")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("icon@2x.png").path, withDestinationPath: "icon.png")
        let loaded = try PassTemplate(directory: folder)
        #expect(loaded.files.keys.sorted() == ["en.lproj/pass.strings", "fr.lproj/pass.strings", "icon.png", "icon@2x.png"])
        #expect(loaded.files["icon@2x.png"] == loaded.files["icon.png"])
        // The template folder itself may be reached through a link.
        let alias = root.appendingPathComponent("current")
        try manager.createSymbolicLink(atPath: alias.path, withDestinationPath: folder.path)
        #expect(try PassTemplate(directory: alias).files.count == 4)

        func refused(_ name: String, to destination: String, saying words: [String]) throws {
            let link = folder.appendingPathComponent(name)
            try manager.createSymbolicLink(atPath: link.path, withDestinationPath: destination)
            defer { try? manager.removeItem(at: link) }
            #expect { try PassTemplate(directory: folder) } throws: { error in
                // Named by the link; where it leads is not told (the issuer API passes the message on).
                words.allSatisfy { "\(error)".contains($0) } && "\(error)".contains(link.path)
                    && !"\(error)".contains("secret.txt") && !"\(error)".contains(root.path + ":")
            }
            #expect { try PassTemplate(directory: alias) } throws: { words.allSatisfy("\($0)".contains) }
        }
        let secret = root.appendingPathComponent("secret.txt")
        try Data("the issuer's secret, outside the template".utf8).write(to: secret)
        try refused("logo.png", to: secret.path, saying: ["is a symbolic link leading outside the template's folder"])
        try refused("strip.png", to: "../secret.txt", saying: ["outside the template's folder"])
        try refused("shared", to: root.path, saying: ["outside the template's folder"])
        try refused("thumbnail.png", to: "nowhere.png", saying: ["is a symbolic link to nothing"])
        try refused("loop", to: ".", saying: ["is a symbolic link to a folder that holds it (a loop)"])
        #expect(mkfifo(folder.appendingPathComponent("background.png").path, 0o600) == 0)
        #expect { try PassTemplate(directory: folder) } throws: {
            "\($0)".contains("background.png is not a regular file")
        }
    }
}
