public import ArgumentParser
public import DeviceAPI
import Foundation
import Hummingbird
import Logging
import PassBundle
import PassWebService
import SQLiteStore

extension DeviceServer.Variant: EnumerableFlag {
    public static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .generated: "Handlers generated from openapi.json, through swift-openapi-hummingbird."
        case .handWritten: "PassWebService's own routes, as tessera serve mounts them (the default)."
        }
    }
}

/// `openapi-handlers serve`: one SQLite store, one variant of the device handlers, on a loopback port.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer the serial-number list, pass fetch and registration from an SQLite store."
    )

    @Option(help: "SQLite file of the store (as `tessera-bench seed --sqlite` writes it).")
    var sqlite: String

    @Option(help: "Port to listen on at 127.0.0.1.")
    var port: Int

    @Flag(help: "Which handlers answer.")
    var variant: DeviceServer.Variant = .handWritten

    @Option(help: "Folder of pass templates.")
    var templates = "PassTemplates"

    @Option(help: "Pass Type ID certificate (PEM).")
    var cert: String

    @Option(help: "Its private key (PEM).")
    var key: String

    @Option(help: "Apple WWDR intermediate certificate (PEM).")
    var wwdr: String

    func validate() throws {
        guard FileManager.default.fileExists(atPath: sqlite) else {
            throw ValidationError("--sqlite: \(sqlite) does not exist (seed it with `tessera-bench seed --sqlite`)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port: \(port) is not a port number") }
        guard FileManager.default.fileExists(atPath: templates) else {
            throw ValidationError("--templates: folder \(templates) does not exist")
        }
    }

    func run() async throws {
        var logger = Logger(label: "openapi-handlers")
        logger.logLevel = .warning
        let store = try SQLiteStore(path: sqlite)
        try await store.migrate()
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: cert, keyPath: key, keyPassword: nil, wwdrPath: wwdr))
        let issuer = PassIssuer(
            store: store, signer: signer,
            configuration: .init(
                templatesDirectory: URL(fileURLWithPath: templates),
                publicURL: URL(string: "http://127.0.0.1:\(port)")!))
        let app = try DeviceServer.makeApplication(variant: variant, issuer: issuer, port: port, logger: logger)
        try await app.runService()
    }
}
