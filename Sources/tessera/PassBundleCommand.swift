import ArgumentParser
import Foundation
import PassBundle
import Validation

/// `tessera pass bundle`: several signed passes as one `.pkpasses` download.
struct PassBundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Put signed .pkpass files into one .pkpasses file (at most 10 passes, 150 MB), which Wallet adds together."
    )

    @Argument(help: "The .pkpass files, in the order Wallet shows them.")
    var passes: [String]

    @Option(help: "Where to write the .pkpasses (written whole or not at all).")
    var output: String

    func validate() throws {
        guard !passes.isEmpty else { throw ValidationError("give at least one .pkpass file") }
        guard output.hasSuffix(".pkpasses") else { throw ValidationError("--output must end in .pkpasses") }
    }

    func run() throws {
        try Loading.checkOutputFile(output, example: "passes.pkpasses")
        var entries: [(name: String, data: Data)] = []
        var missing: [String] = []
        for path in passes {
            guard let data = FileManager.default.contents(atPath: path) else {
                missing.append("\(path): \(FileReading.problem(at: path))")
                continue
            }
            entries.append((URL(fileURLWithPath: path).lastPathComponent, data))
        }
        do {
            // Every problem at once: the files that cannot be read, and what the bundle's checks find in the others.
            guard missing.isEmpty else {
                var problems = missing
                do {
                    _ = try PassesBundle(passes: entries)
                } catch let error as PassBundleError {
                    problems += error.description.split(separator: "\n").map(String.init)
                        .filter { !$0.hasPrefix("Wallet takes at most") && !$0.hasPrefix("a .pkpasses bundle needs") }
                }
                throw CommandFailure(message: "\(output) not written:\n  " + problems.joined(separator: "\n  "))
            }
            let bundle = try PassesBundle(passes: entries)
            let bytes = try bundle.archive()
            try PassSigner.writeAtomically(bytes, to: URL(fileURLWithPath: output))
            print("\(output): \(bundle.passes.count) passes (\(bytes.count) bytes, \(PassesBundle.mediaType))")
        } catch let error as PassBundleError {
            throw CommandFailure(message: "\(output) not written: \(error.description)")
        }
    }
}
