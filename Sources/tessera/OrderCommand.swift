import ArgumentParser
import Foundation
import OrderModel
import PassBundle
import PassModel
import Validation

/// `tessera order`: make, check and look inside Wallet order packages.
struct OrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Create, verify, inspect and preview Wallet order packages (.order).",
        subcommands: [OrderCreateCommand.self, OrderVerifyCommand.self, OrderInspectCommand.self, OrderPreviewCommand.self]
    )
}

/// `tessera order create`: one signed order from a template and an optional data document.
struct OrderCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Build and sign one .order from a template folder and a data document.",
        discussion: """
        The template folder holds order.json, the images it names and optional xx.lproj/order.strings. The data \
        document is a JSON object merged into order.json: its objects key by key, its arrays and other values replace \
        the template's, null removes a key. The order gets the certificate's Order Type ID. Every problem is printed at \
        once and nothing is written unless the order is valid.
        """
    )

    @Option(help: "Template folder (order.json, images, xx.lproj/order.strings).")
    var template: String

    @Option(help: "JSON data document merged into order.json.")
    var data: String?

    @OptionGroup var credentials: CredentialOptions

    @Option(help: "Where to write the .order (written whole or not at all).")
    var output: String

    func run() throws {
        try Loading.checkOutputFile(output, example: "order.order")
        let template: OrderTemplate
        do {
            template = try OrderTemplate(directory: URL(fileURLWithPath: self.template))
        } catch let error as PassModelError {
            throw CommandFailure(message: error.description)
        }
        var document: Data?
        if let data {
            guard let bytes = FileManager.default.contents(atPath: data) else {
                throw CommandFailure(message: "\(data): \(FileReading.problem(at: data, what: "data file"))")
            }
            document = bytes
        }
        do {
            let signer = try OrderSigner(credentials: try credentials.load())
            let built = try OrderBuilder(template: template, signer: signer).build(data: document, source: data ?? "data")
            for warning in built.warnings { Terminal.warning("\(warning.path): \(warning.message)") }
            try PassSigner.writeAtomically(built.bundle, to: URL(fileURLWithPath: output))
            print("\(output): signed order \(built.orderIdentifier) (\(built.bundle.count) bytes, \(OrderSigner.mediaType))")
        } catch let error as PassBundleError {
            throw Loading.failure(error, output: output)
        }
    }
}

/// `tessera order verify`: every reason an `.order` would not open.
struct OrderVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a .order: archive layout, SHA-256 manifest, signature, Order Type ID certificate and order.json. Exit 0 only when the order would open."
    )

    @Argument(help: "The .order file.")
    var file: String

    @Option(help: "The WWDR intermediate the signer must be issued by (default: the one inside the signature).")
    var wwdr: String?

    @Option(help: "A trusted root the chain must lead to (for Apple orders: Apple Root CA; for development: root.pem).")
    var root: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        try BundleVerification.run(file: file, wwdr: wwdr, root: root, json: json) { wwdr, root in
            OrderVerifier(wwdr: wwdr, root: root).verify(contentsOf: file)
        }
    }
}

/// `tessera order inspect`: what an `.order` holds.
struct OrderInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a .order holds: merchant, items, payment, fulfillments, files and signer."
    )

    @Argument(help: "The .order file.")
    var file: String

    @Flag(help: "Print as JSON: the order.json object, the files with sizes and SHA-256, and the signer.")
    var json = false

    struct Inspection: Encodable {
        var order: JSONValue?
        var files: [BundleInspection.FileEntry]
        var signer: String?
        var signerIssuer: String?
        var signingTime: String?
    }

    func run() throws {
        let bundle = try BundleInspection(file: file, format: .order)
        if json {
            print(try ReportJSON.encode(Inspection(order: bundle.main, files: bundle.files, signer: bundle.signerSubject,
                                                   signerIssuer: bundle.signerIssuer, signingTime: bundle.signingTime)))
            if let problem = bundle.mainProblem(.order) { throw CommandFailure(message: "\(file): \(problem)") }
            return
        }
        guard let orderJSON = bundle.archive.files["order.json"] else {
            throw CommandFailure(message: "\(file): no order.json at the archive root")
        }
        let order: Order
        do {
            order = try Order(jsonData: orderJSON)
        } catch {
            throw CommandFailure(message: "\(file): \(error)")
        }
        print(OrderSummary(order: order).text)
        bundle.printFilesAndSigner(command: "tessera order verify")
    }
}
