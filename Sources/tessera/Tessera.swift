import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix
import TesseraServer

/// The `tessera` command: exit 0 on success, 1 for invalid input or a pass that fails, 2 for usage errors.
@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Build, sign, verify and serve Apple Wallet passes; check Apple Pay requests and tokens.",
        version: TesseraVersion.current,
        subcommands: [
            CertsCommand.self, PassCommand.self, OrderCommand.self, BarcodeCommand.self, PayCommand.self, ServeCommand.self,
            CampaignCommand.self, KeysCommand.self,
        ]
    )

    static func main() async {
        // The same lines as swift-log's default handler, without rebuilding their metadata's text on every request.
        LoggingSystem.bootstrap { label in DeferredMetadataLogHandler(label: label) }
        do {
            var command = try parseAsRoot()
            if let serve = command as? ServeCommand, let threads = try serve.requestedEventLoopThreads() {
                // Read once, when the shared event loop group is first used: it must be set before anything runs.
                NIOSingletons.groupLoopCountSuggestion = threads
            }
            if let serve = command as? ServeCommand, serve.runsTasksOnEventLoops {
                // The server's request handlers then run on the event loop that owns their connection instead of
                // hopping to Swift Concurrency's default thread pool and back for every request.
                NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let failure as CommandFailure {
            Terminal.error(failure.message)
            Foundation.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            if code == .validationFailure {
                // `error: <reason>` as every other failure is written (the parser's own text says `Error: `).
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst(7) }
                Terminal.standardError(message)
                Foundation.exit(2)
            }
            Terminal.error("\(error)")
            Foundation.exit(1)
        }
    }
}

/// A failure already explained to the user, with its exit code.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32 = 1
}
