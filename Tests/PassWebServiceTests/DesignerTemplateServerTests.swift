import Foundation
import PassBundle
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// The server's templates folder takes Pass Designer bundles (`Name.pkpasstemplate`) under their plain name.
@Suite("Pass Designer templates on the server")
struct DesignerTemplateServerTests {
    @Test func designerBundleIssuesPassesWithoutDesignersFiles() async throws {
        let chain = try TestChain()
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
            wwdrPath: chain.path("wwdr.pem")))
        let templates = try TemporaryDirectory.make(prefix: "designer-templates")
        let bundle = templates.appendingPathComponent("Doggy.pkpasstemplate")
        try FileManager.default.copyItem(
            at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/poster-generic"), to: bundle)
        try Data(#"{"designerVersion": "1.0"}"#.utf8).write(to: bundle.appendingPathComponent("tooling.json"))
        var json = try JSONValue(jsonData: Data(contentsOf: bundle.appendingPathComponent("pass.json")))
        if case .object(var root) = json, case .object(var poster)? = root["posterGeneric"],
           case .array(var primary)? = poster["primaryFields"], case .object(var first) = primary[0] {
            first["_id"] = "4F0C2D7E-1B2A-4C3D-9E8F-0A1B2C3D4E5F"
            primary[0] = .object(first)
            poster["primaryFields"] = .array(primary)
            root["posterGeneric"] = .object(poster)
            json = .object(root)
        }
        try json.jsonData().write(to: bundle.appendingPathComponent("pass.json"))

        let issuer = PassIssuer(
            store: MemoryPassStore(), signer: signer,
            configuration: .init(templatesDirectory: templates, publicURL: URL(string: "https://passes.example.com")!))
        let record = try await issuer.createPass(template: "Doggy", data: ["serialNumber": "D-1"])
        let archive = try PassArchive(data: try await issuer.bundle(for: record))
        #expect(archive.files["tooling.json"] == nil)
        #expect(archive.files["artwork@2x.png"] != nil)
        let passJSON = String(decoding: try #require(archive.files["pass.json"]), as: UTF8.self)
        #expect(!passJSON.contains("_id"))
        #expect(passJSON.contains("posterGeneric"))
    }
}
