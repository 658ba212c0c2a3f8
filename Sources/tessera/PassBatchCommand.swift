import ArgumentParser
import Foundation
import PassBundle
import PassModel
import Synchronization

/// `tessera pass batch`: one signed pass per row, on every core.
struct PassBatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Build and sign one .pkpass per row of a CSV or JSON Lines file, on all cores.",
        discussion: """
        CSV columns: serialNumber, barcodeMessage, barcodeAltText, fields.<field key of the template>, and documented \
        pass.json keys. An unknown column stops the batch before any pass is written. A row with more or fewer cells \
        than the header fails alone. Empty cells: an empty value for fields.<key>, no text for barcodeAltText, the key \
        removed for pass.json keys, an error for serialNumber and barcodeMessage.
        JSON Lines: one data document per line, as for `pass create --data`.
        Each pass is written to <out-dir>/<serialNumber>.pkpass, whole or not at all. A bad row is reported with its \
        line number and does not stop the others. Ctrl-C (or SIGTERM) stops taking new rows, finishes the passes being \
        written, prints what was written and exits 130 (143).
        """
    )

    @Option(help: "Template folder.")
    var template: String

    @Option(help: "Rows: a .csv or .jsonl file.")
    var rows: String

    @Option(help: "Folder for the .pkpass files (created if missing).")
    var outDir: String

    @Option(help: ArgumentHelp("Parallel jobs (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var credentials: CredentialOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if BatchRows.Format(path: rows) == nil {
            throw ValidationError("--rows: \(rows) must be a .csv, .jsonl or .ndjson file")
        }
    }

    func run() throws {
        let template = try Loading.template(at: self.template)
        let batch = try BatchRows(path: rows, template: template)
        // An export that came out empty (a header alone, blank lines, rows of empty cells) is a failure to say, not a
        // batch of nothing that exits 0.
        guard !batch.rows.isEmpty else {
            throw CommandFailure(message: "\(rows): no rows to sign (only a header, blank lines or rows of empty cells)")
        }
        let builder = try PassBuilder(template: template, signer: try Loading.signer(credentials))
        let directory = URL(fileURLWithPath: outDir)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "\(outDir): cannot create the folder: \(error.localizedDescription)")
        }
        // One batch per folder: another one's temporaries are not an earlier run's leftovers.
        let folderLock = try FolderLock(directory: directory, displayPath: outDir)
        defer { folderLock.release() }
        let stale = StaleTemporaries.remove(in: directory)
        if stale > 0 { Terminal.warning("removed \(stale) unfinished temporary file(s) left in \(outDir) by an earlier run") }

        let state = BatchState(total: batch.rows.count)
        let interruption = Interruption(state: state, directory: directory)
        let outcome = BatchRunner(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            .run(batch.rows, builder: builder, directory: directory, state: state)
        interruption.stop()
        if state.signalArrived { _ = state.interrupt(by: state.arrivedSignal) }
        // Each pass was renamed into place once written whole, so no process crash leaves a partial one; before the
        // count is reported, the files are also on disk (one flush for the whole batch rather than one per pass, which
        // would cost a disk round trip per pass): a power loss after this line loses none of them.
        sync()
        let name = URL(fileURLWithPath: rows).lastPathComponent
        for warning in outcome.groupedWarnings() {
            Terminal.warning("\(name) \(warning.lines): \(warning.issue.path): \(warning.issue.message)")
        }
        if !outcome.failures.isEmpty {
            Terminal.standardError("\(outcome.failures.count) row(s) failed:")
            for failure in outcome.failures.sorted(by: { $0.line < $1.line }) {
                Terminal.standardError("  \(name) line \(failure.line): \(failure.message)")
            }
        }
        if let signal = state.interruptingSignal {
            let notStarted = batch.rows.count - outcome.succeeded - outcome.failures.count
            print("interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"): \(outcome.succeeded) of \(batch.rows.count) "
                  + "passes written to \(directory.path) before the interruption; \(outcome.failures.count) failed, "
                  + "\(notStarted) not started")
            throw ExitCode(128 + signal)
        }
        print("\(outcome.succeeded) of \(batch.rows.count) passes written to \(directory.path)")
        if !outcome.failures.isEmpty { throw ExitCode(1) }
    }
}

/// Builds passes for rows on `jobs` threads, writes each atomically, and collects failures and warnings by row.
struct BatchRunner: Sendable {
    var jobs: Int

    struct Failure: Sendable {
        var line: Int
        var message: String
    }

    struct Outcome: Sendable {
        var succeeded: Int
        var failures: [Failure]
        /// Warnings of the passes written, with the line of each row.
        var warnings: [(line: Int, issue: ValidationIssue)]

        /// Each distinct warning once, with the lines it was found on ("line 3", "lines 2-4, 9", "all 1000 rows").
        func groupedWarnings() -> [(issue: ValidationIssue, lines: String)] {
            var order: [ValidationIssue] = []
            var lines: [String: [Int]] = [:]
            for (line, issue) in warnings {
                if lines[issue.description] == nil { order.append(issue) }
                lines[issue.description, default: []].append(line)
            }
            return order.map { issue in
                let found = lines[issue.description]!.sorted()
                if found.count == succeeded && found.count > 1 { return (issue, "all \(found.count) rows") }
                let shown = found.prefix(5).map(String.init).joined(separator: ", ")
                let more = found.count > 5 ? " and \(found.count - 5) more" : ""
                return (issue, (found.count == 1 ? "line " : "lines ") + shown + more)
            }
        }
    }

    func run(_ rows: [BatchRows.Row], builder: PassBuilder, directory: URL, state: BatchState) -> Outcome {
        let prepared = Self.assignSerials(rows, foldsCase: Self.foldsCase(directory))
        let workers = min(jobs, max(rows.count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < prepared.count, !state.isInterrupted, !state.signalArrived {
                let row = prepared[index]
                let (failure, warnings) = Self.make(row, builder: builder, directory: directory)
                state.finish(line: row.line, failure: failure, warnings: warnings)
                index += workers
            }
        }
        return state.outcome
    }

    /// Whether a folder's disk takes names that differ only in case for one file (a macOS or Windows volume): then
    /// `AB-1.pkpass` would replace `ab-1.pkpass`, two passes Wallet keeps apart. Probed with a file of its own.
    static func foldsCase(_ directory: URL) -> Bool {
        let probe = "tessera-case-probe-\(UUID().uuidString.lowercased())"
        let lower = directory.appendingPathComponent(probe)
        guard FileManager.default.createFile(atPath: lower.path, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(at: lower) }
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent(probe.uppercased()).path)
    }

    /// Gives rows without a serial number a UUID, and fails later rows whose serial (or file name) an earlier row uses.
    /// - Parameter foldsCase: Whether the output folder's disk takes names differing only in case for one file; then
    ///   file names are compared without case too.
    static func assignSerials(_ rows: [BatchRows.Row], foldsCase: Bool = false) -> [BatchRows.Row] {
        var seen: [String: (line: Int, serial: String)] = [:]
        return rows.map { row in
            guard case .success(var data) = row.data else { return row }
            if data.overrides["serialNumber"] == nil {
                data.overrides["serialNumber"] = .string(UUID().uuidString)
            }
            guard case .string(let serial)? = data.overrides["serialNumber"] else {
                return BatchRows.Row(line: row.line, data: .failure(.init(message: "serialNumber must be a string")))
            }
            let name = FileName.safe(serial)
            let key = foldsCase ? name.lowercased() : name
            if let earlier = seen[key] {
                let message = if earlier.serial == serial {
                    "serial number \"\(serial)\" is already used by line \(earlier.line)"
                } else if FileName.safe(earlier.serial) != name {
                    "serial number \"\(serial)\" would replace line \(earlier.line)'s \"\(earlier.serial)\": the output "
                        + "folder's disk does not tell upper from lower case in file names"
                } else {
                    "serial number \"\(serial)\" would be written to \(name).pkpass, as line \(earlier.line)'s "
                        + "\"\(earlier.serial)\" is (a file name keeps letters, digits, -, _ and .; anything else becomes _)"
                }
                return BatchRows.Row(line: row.line, data: .failure(.init(message: message)))
            }
            seen[key] = (row.line, serial)
            return BatchRows.Row(line: row.line, data: .success(data))
        }
    }

    private static func make(_ row: BatchRows.Row, builder: PassBuilder, directory: URL) -> (String?, [ValidationIssue]) {
        do {
            let built = try builder.build(data: try row.data.get())
            try PassSigner.writeAtomically(built.bundle, to: directory.appendingPathComponent("\(FileName.safe(built.serialNumber)).pkpass"))
            return (nil, built.warnings)
        } catch let error as BatchRows.BatchRowError {
            return (error.message, [])
        } catch let error as PassBundleError where !error.issues.isEmpty {
            let errors = error.issues.filter { $0.severity == .error }.map { "\($0.path): \($0.message)" }
            return (errors.joined(separator: "; "), [])
        } catch {
            return ("\(error)".replacingOccurrences(of: "\n", with: " "), [])
        }
    }
}

/// Thread-safe progress, results and interruption of a batch.
final class BatchState: Sendable {
    private struct Progress {
        var done = 0
        var failures: [BatchRunner.Failure] = []
        var warnings: [(line: Int, issue: ValidationIssue)] = []
        var signal: Int32?
    }

    private let state = Mutex(Progress())
    private let total: Int

    init(total: Int) { self.total = total }

    func finish(line: Int, failure: String?, warnings rowWarnings: [ValidationIssue]) {
        state.withLock { state in
            state.done += 1
            if let failure {
                state.failures.append(.init(line: line, message: failure))
            } else {
                state.warnings += rowWarnings.map { (line, $0) }
            }
            if state.done == total || state.done % 16 == 0 {
                Terminal.progress(done: state.done, total: total, failed: state.failures.count)
            }
        }
    }

    /// Records the first interrupting signal; returns whether this was the first.
    func interrupt(by signal: Int32) -> Bool {
        state.withLock { state in
            guard state.signal == nil else { return false }
            state.signal = signal
            return true
        }
    }

    var isInterrupted: Bool { state.withLock { $0.signal != nil } }
    var interruptingSignal: Int32? { state.withLock { $0.signal } }

    var outcome: BatchRunner.Outcome {
        state.withLock { .init(succeeded: $0.done - $0.failures.count, failures: $0.failures, warnings: $0.warnings) }
    }
}

/// The signal that interrupted the batch (0: none yet), and how many interrupting signals arrived. Written only by the
/// signal handler, which may do nothing but this.
private let batchSignal = Atomic<Int32>(0)
private let batchSignalCount = Atomic<Int32>(0)

/// SIGINT and SIGTERM during a batch: the first stops new rows (the passes being written are finished, so no
/// temporary file is left); a second one removes the unfinished temporaries and exits at once.
///
/// A plain signal handler records the signal in an atomic; a watcher thread does the rest. Both signals are unblocked
/// first, since a batch may be started by a program that blocked them.
final class Interruption: @unchecked Sendable {
    private let finished = Atomic<Bool>(false)

    init(state: BatchState, directory: URL) {
        let handler: @convention(c) (Int32) -> Void = { signalNumber in
            _ = batchSignal.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
            batchSignalCount.add(1, ordering: .sequentiallyConsistent)
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGINT, SIGTERM] {
            sigaddset(&unblock, signalNumber)
            signal(signalNumber, handler)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let watcher = Thread { [self] in
            var announced = false
            while !self.finished.load(ordering: .sequentiallyConsistent) {
                let count = batchSignalCount.load(ordering: .sequentiallyConsistent)
                if count >= 1, !announced {
                    announced = true
                    _ = state.interrupt(by: batchSignal.load(ordering: .sequentiallyConsistent))
                    Terminal.standardError("\ninterrupted: finishing the passes being written (interrupt again to stop at once)")
                }
                if count >= 2 {
                    _ = StaleTemporaries.remove(in: directory)
                    Terminal.standardError("stopped: \(state.outcome.succeeded) passes written to \(directory.path)")
                    exit(128 + batchSignal.load(ordering: .sequentiallyConsistent))
                }
                usleep(20_000)
            }
        }
        watcher.start()
    }

    /// Restores the default handling of both signals and ends the watcher.
    func stop() {
        finished.store(true, ordering: .sequentiallyConsistent)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// Whether the batch was interrupted, read by the workers before each row (cheaper than the watcher's poll interval).
extension BatchState {
    var signalArrived: Bool { batchSignal.load(ordering: .relaxed) != 0 }
    var arrivedSignal: Int32 { batchSignal.load(ordering: .relaxed) }
}

/// An exclusive `flock` on the output folder itself while a batch writes into it: a second batch into the same folder
/// would take the first one's temporaries for a killed run's and remove them under it. The kernel releases the lock
/// when the process ends, however it ends, so a killed batch leaves none behind.
final class FolderLock {
    private var descriptor: Int32

    /// Takes the lock of `directory`.
    /// - Throws: ``CommandFailure`` (exit 1) when another process holds it.
    init(directory: URL, displayPath: String) throws {
        descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "\(displayPath): cannot open the folder: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CommandFailure(message: "\(displayPath): another tessera pass batch is writing into this folder; wait for "
                                 + "it to end, or give another --out-dir")
        }
    }

    /// Releases the lock.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}

/// The temporary files ``PassSigner/writeAtomically(_:to:)`` writes beside a `.pkpass` before renaming it:
/// `.<name>.pkpass.<UUID>.tmp`.
enum StaleTemporaries {
    /// Removes this naming's temporaries in `directory`.
    /// - Returns: How many were removed.
    static func remove(in directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where isTemporary(name) {
            if (try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))) != nil { removed += 1 }
        }
        return removed
    }

    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let body = name.dropFirst().dropLast(4)
        guard let dot = body.lastIndex(of: ".") else { return false }
        return body[..<dot].hasSuffix(".pkpass") && UUID(uuidString: String(body[body.index(after: dot)...])) != nil
    }
}

/// File names from serial numbers.
enum FileName {
    /// Keeps letters, digits, `-`, `_` and `.`; anything else becomes `_`. A character is judged by every code point
    /// in it, not its first alone: a letter that joins with the character after it (U+0D4E before a `/`) would
    /// otherwise carry a path separator into the name.
    static func safe(_ serial: String) -> String {
        let cleaned = String(serial.map { character in
            let kept = character.isLetter || character.isNumber || "-_.".contains(character)
            return kept && !character.unicodeScalars.contains(where: Self.unsafe) ? character : "_"
        })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
    }

    /// A path separator, NUL or another control character.
    private static func unsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
    }
}
