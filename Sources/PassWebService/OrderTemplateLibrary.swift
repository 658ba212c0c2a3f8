import Foundation
import OrderModel
import PassBundle
import PassModel
import Synchronization

/// The order templates under the server's order templates folder, loaded on first use and kept with their signing
/// builders.
final class OrderTemplateLibrary: Sendable {
    private let directory: URL
    private let signer: OrderSigner
    private let builders = Mutex([String: OrderBuilder]())

    init(directory: URL, signer: OrderSigner) {
        self.directory = directory
        self.signer = signer
    }

    /// The builder of template `name` when it is already loaded, else `nil` (nothing is read).
    func loadedBuilder(named name: String) -> OrderBuilder? {
        builders.withLock { $0[name] }
    }

    /// The builder of template `name`, loading it on first use (reads files: call it off the event loops).
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func builder(named name: String) throws -> OrderBuilder {
        if let builder = loadedBuilder(named: name) { return builder }
        let folder = directory.appendingPathComponent(name, isDirectory: true)
        guard TemplateLibrary.isValidName(name),
              FileManager.default.fileExists(atPath: folder.appendingPathComponent("order.json").path)
        else { throw IssuerError.unknownTemplate(name) }
        let builder: OrderBuilder
        do {
            builder = OrderBuilder(template: try OrderTemplate(directory: folder), signer: signer)
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, error.description)
        }
        builders.withLock { $0[name] = builder }
        return builder
    }
}
