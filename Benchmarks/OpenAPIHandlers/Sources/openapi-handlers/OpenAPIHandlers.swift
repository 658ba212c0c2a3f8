import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `openapi-handlers`: the device endpoints answered by generated or hand-written handlers, for the benchmark.
@main
struct OpenAPIHandlers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi-handlers",
        abstract: "Serve the device endpoints with handlers generated from the OpenAPI document or hand-written.",
        subcommands: [ServeCommand.self]
    )

    static func main() async {
        do {
            var command = try parseAsRoot()
            if command is ServeCommand {
                // As `tessera serve` does: request handlers run on the event loop that owns their connection.
                NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
