import Foundation
import PassModel
import Testing

/// Templates saved by Pass Designer (`.pkpasstemplate`): Designer's own file and `_id` keys stay out of the pass.
@Suite("Pass Designer templates")
struct DesignerTemplateTests {
    /// A poster generic pass as Designer saves it: `_id` in fields, actions and seats, and `tooling.json`.
    static var designerJSON: JSONValue {
        var json = PassModelAdditionsTests.posterGeneric
        json.set(["posterGeneric", "headerFields", 0, "_id"], to: "4F0C2D7E-1B2A-4C3D-9E8F-0A1B2C3D4E5F")
        json.set(["posterGeneric", "primaryFields", 0, "_id"], to: "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D")
        json.set(["generic", "primaryFields", 0, "_id"], to: "11111111-2222-4333-8444-555555555555")
        json.set(["featuredActions", 0, "_id"], to: "ACACACAC-1111-4222-8333-444444444444")
        json["semantics"] = ["seats": [["_id": "5EA75EA7-0000-4000-8000-000000000000", "seatNumber": "12"]]]
        json["userInfo"] = ["_id": "the issuer's own"]
        return json
    }

    func folder(_ name: String, json: JSONValue, extra: [String: Data] = [:]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("designer-\(UUID().uuidString)")
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Fixtures.data(json).write(to: folder.appendingPathComponent("pass.json"))
        for (path, data) in Fixtures.iconFiles.merging(extra, uniquingKeysWith: { $1 }) {
            try data.write(to: folder.appendingPathComponent(path))
        }
        return folder
    }

    static let tooling = Data(#"{"designerVersion": "1.0", "automaticallyGenerateCompatiblePass": false}"#.utf8)

    @Test func designerBundleLoadsWithoutDesignersFilesAndIdentifiers() throws {
        let bundle = try folder("Doggy.pkpasstemplate", json: Self.designerJSON, extra: ["tooling.json": Self.tooling])
        let template = try PassTemplate(directory: bundle)
        #expect(template.name == "Doggy")
        #expect(template.files["tooling.json"] == nil)
        let json = try JSONValue(jsonData: template.passJSON)
        #expect(json["posterGeneric"]?["headerFields"]?[0]?["_id"] == nil)
        #expect(json["generic"]?["primaryFields"]?[0]?["_id"] == nil)
        #expect(json["featuredActions"]?[0]?["_id"] == nil)
        #expect(json["semantics"]?["seats"]?[0] == ["seatNumber": "12"])
        #expect(json["userInfo"] == ["_id": "the issuer's own"])
        let report = PassValidator().validate(passJSON: template.passJSON, files: template.files)
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func designerAndPlainTemplatesMakeTheSamePasses() throws {
        var plainJSON = Self.designerJSON.removingDesignerIDsForTest()
        plainJSON["userInfo"] = ["_id": "the issuer's own"]
        let designer = try PassTemplate(
            directory: folder("Doggy.pkpasstemplate", json: Self.designerJSON, extra: ["tooling.json": Self.tooling]))
        let plain = try PassTemplate(directory: folder("doggy", json: plainJSON))
        let data = PassData(overrides: ["serialNumber": "D-7"], fields: ["name": "Rex", "member": "D-7"])
        let fromDesigner = try designer.passJSON(for: designer.pass(applying: data))
        let fromPlain = try plain.passJSON(for: plain.pass(applying: data))
        #expect(try JSONValue(jsonData: fromDesigner) == JSONValue(jsonData: fromPlain))
        #expect(designer.files == plain.files)
    }

    @Test("a key written twice in a Designer bundle's pass.json is refused naming it, as in a plain template")
    func designerDuplicateKeysRefused() throws {
        let bundle = try folder("Twice.pkpasstemplate", json: Self.designerJSON, extra: ["tooling.json": Self.tooling])
        let passURL = bundle.appendingPathComponent("pass.json")
        let text = String(decoding: try Data(contentsOf: passURL), as: UTF8.self)
        let first = try #require(text.range(of: "{"))
        try Data(text.replacingCharacters(in: first, with: #"{"description": "first", "#).utf8).write(to: passURL)
        #expect {
            try PassTemplate(directory: bundle)
        } throws: { error in
            "\(error)".contains("pass.json") && "\(error)".contains("\"description\"")
        }
    }

    @Test func toolingJSONMarksAFolderAsDesigners() throws {
        let template = try PassTemplate(
            directory: folder("renamed", json: Self.designerJSON, extra: ["tooling.json": Self.tooling]))
        #expect(template.name == "renamed")
        #expect(template.files["tooling.json"] == nil)
        #expect(!String(decoding: template.passJSON, as: UTF8.self).contains("4F0C2D7E"))
        // A plain folder keeps its pass.json byte for byte.
        let plain = try PassTemplate(directory: folder("plain", json: PassModelAdditionsTests.posterGeneric))
        #expect(plain.passJSON == Fixtures.data(PassModelAdditionsTests.posterGeneric))
    }
}

extension JSONValue {
    /// The tree without any `_id` member, for building the expected plain template.
    func removingDesignerIDsForTest() -> JSONValue {
        switch self {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, value) in members where key != "_id" { result[key] = value.removingDesignerIDsForTest() }
            return .object(result)
        case .array(let elements): return .array(elements.map { $0.removingDesignerIDsForTest() })
        default: return self
        }
    }
}
