import ArgumentParser
import Foundation
import PassBundle
import PassModel

/// `tessera pass batch`: one signed pass per row, on every core.
struct PassBatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Build and sign one .pkpass per row of a CSV or JSON Lines file, on all cores.",
        discussion: """
        CSV columns: serialNumber, barcodeMessage, fields.<field key>, and any other pass.json key (its text replaces the value).
        JSON Lines: one data document per line, as for `pass create --data`.
        Each pass is written to <out-dir>/<serialNumber>.pkpass. A bad row is reported and does not stop the others.
        """
    )

    @Option(help: "Template folder.")
    var template: String

    @Option(help: "Rows: a .csv or .jsonl file.")
    var rows: String

    @Option(help: "Folder for the .pkpass files (created if missing).")
    var outDir: String

    @Option(help: "Parallel jobs (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var credentials: CredentialOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let template = try Loading.template(at: self.template)
        let batch = try BatchRows(path: rows)
        let builder = try PassBuilder(template: template, signer: try Loading.signer(credentials))
        let directory = URL(fileURLWithPath: outDir)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "\(outDir): cannot create the folder: \(error.localizedDescription)")
        }

        let outcome = BatchRunner(jobs: jobs).run(batch.rows, builder: builder, directory: directory)
        print("\(outcome.succeeded) of \(batch.rows.count) passes written to \(directory.path)")
        if !outcome.failures.isEmpty {
            Terminal.standardError("\(outcome.failures.count) row(s) failed:")
            for failure in outcome.failures.sorted(by: { $0.line < $1.line }) {
                Terminal.standardError("  \(URL(fileURLWithPath: rows).lastPathComponent) line \(failure.line): \(failure.message)")
            }
            throw ExitCode(1)
        }
    }
}

/// Builds passes for rows on `jobs` threads, writes each atomically, and collects failures by row.
struct BatchRunner: Sendable {
    var jobs: Int

    struct Failure: Sendable {
        var line: Int
        var message: String
    }

    struct Outcome: Sendable {
        var succeeded: Int
        var failures: [Failure]
    }

    func run(_ rows: [BatchRows.Row], builder: PassBuilder, directory: URL) -> Outcome {
        let prepared = Self.assignSerials(rows)
        let state = BatchState(total: rows.count)
        let workers = min(jobs, max(rows.count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < prepared.count {
                let row = prepared[index]
                state.finish(line: row.line, failure: Self.make(row, builder: builder, directory: directory))
                index += workers
            }
        }
        return state.outcome
    }

    /// Gives rows without a serial number a UUID, and fails later rows whose serial (or file name) an earlier row uses.
    static func assignSerials(_ rows: [BatchRows.Row]) -> [BatchRows.Row] {
        var seen: [String: Int] = [:]
        return rows.map { row in
            guard case .success(var data) = row.data else { return row }
            if data.overrides["serialNumber"] == nil {
                data.overrides["serialNumber"] = .string(UUID().uuidString)
            }
            guard case .string(let serial)? = data.overrides["serialNumber"] else {
                return BatchRows.Row(line: row.line, data: .failure(.init(message: "serialNumber must be a string")))
            }
            let name = FileName.safe(serial)
            if let earlier = seen[name] {
                return BatchRows.Row(line: row.line, data: .failure(.init(
                    message: "serial number \"\(serial)\" is already used by line \(earlier)")))
            }
            seen[name] = row.line
            return BatchRows.Row(line: row.line, data: .success(data))
        }
    }

    private static func make(_ row: BatchRows.Row, builder: PassBuilder, directory: URL) -> String? {
        do {
            let built = try builder.build(data: try row.data.get())
            try PassSigner.writeAtomically(built.bundle, to: directory.appendingPathComponent("\(FileName.safe(built.serialNumber)).pkpass"))
            return nil
        } catch let error as BatchRows.BatchRowError {
            return error.message
        } catch {
            return "\(error)".replacingOccurrences(of: "\n", with: " ")
        }
    }
}

/// Thread-safe progress and results of a batch.
final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var failures: [BatchRunner.Failure] = []
    private let total: Int

    init(total: Int) { self.total = total }

    func finish(line: Int, failure: String?) {
        lock.withLock {
            done += 1
            if let failure { failures.append(.init(line: line, message: failure)) }
            if done == total || done % 16 == 0 { Terminal.progress(done: done, total: total, failed: failures.count) }
        }
    }

    var outcome: BatchRunner.Outcome {
        lock.withLock { .init(succeeded: done - failures.count, failures: failures) }
    }
}

/// File names from serial numbers.
enum FileName {
    /// Keeps letters, digits, `-`, `_` and `.`; anything else becomes `_`.
    static func safe(_ serial: String) -> String {
        let cleaned = String(serial.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
    }
}
