public import Foundation
import TestChildProcess

/// The outcome of running a program.
public struct ProcessResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var stdout: String
    /// Standard error.
    public var stderr: String
}

/// Runs programs for tests: the built `tessera` CLI and independent tools such as `openssl`.
public enum Subprocess {
    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`.
    /// - Parameters:
    ///   - executable: Program path or name.
    ///   - arguments: Its arguments.
    ///   - environment: Extra environment variables.
    ///   - directory: Working directory.
    /// - Returns: Status and output.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           in directory: URL? = nil) throws -> ProcessResult {
        ExecutorWatchdog.start()
        let process = ChildProcess()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["TESSERA_KEY_PASSWORD"] = nil
        env["TESSERA_P12_PASSWORD"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        // The output goes to files, read once the child has exited. A pipe read to its end would wait for every
        // process holding its write end: a process another test starts at the same moment (a stand-in server that
        // lives for its whole test) can inherit it, and the read then waited until that process ended, or forever.
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        let outURL = files.appendingPathComponent("stdout"), errURL = files.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: files.path])
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? out.close()
            try? err.close()
            throw error
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The built `tessera` executable, next to the test bundle in the build folder.
    public static var tesseraPath: String {
        if let override = ProcessInfo.processInfo.environment["TESSERA_BIN"] { return override }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("tessera")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("tessera")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
                directory = directory.deletingLastPathComponent()
            }
        }
        return "tessera"
    }

    /// Runs the built `tessera` CLI.
    /// - Parameters:
    ///   - arguments: Its arguments.
    ///   - environment: Extra environment variables.
    ///   - directory: Working directory.
    /// - Returns: Status and output.
    public static func tessera(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> ProcessResult {
        try run(tesseraPath, arguments, environment: environment, in: directory)
    }

    /// A new temporary folder with `tessera certs dev` run into its `certs/` subfolder, as the CLI suites start.
    /// - Parameters:
    ///   - prefix: The folder's name prefix.
    ///   - arguments: Extra `certs dev` arguments (`--pass-type-id`, `--order-type-id`, ...).
    /// - Returns: The folder and its `certs/` subfolder.
    /// - Throws: When the folder cannot be made or the command fails.
    public static func folderWithDevelopmentCertificates(prefix: String, arguments: [String] = []) throws
        -> (work: URL, certs: URL)
    {
        let (work, certs) = try developmentCertificatesFolder(prefix: prefix)
        try developmentCertificatesMade(try tessera(["certs", "dev", "--out", certs.path] + arguments))
        return (work, certs)
    }

    /// A new folder and the path of its `certs/` subfolder, for `tessera certs dev --out`.
    static func developmentCertificatesFolder(prefix: String) throws -> (work: URL, certs: URL) {
        let work = try TemporaryDirectory.make(prefix: prefix)
        return (work, work.appendingPathComponent("certs"))
    }

    /// Throws with `tessera certs dev`'s error output when it failed.
    static func developmentCertificatesMade(_ result: ProcessResult) throws {
        guard result.status == 0 else { throw SubprocessError("tessera certs dev failed: \(result.stderr)") }
    }

    /// The repository root (for PassTemplates/ and docs/).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// Runs blocking work (a long subprocess, blocking socket reads) on a thread of its own and awaits its result, so
/// Swift's cooperative threads (as many as cores) stay free for the other tests running at the same time.
/// - Parameter body: The blocking work.
/// - Returns: What `body` returns.
public func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

extension Subprocess {
    /// Checks a detached CMS signature with `openssl cms -verify`, independently of Tessera's own verifier: the
    /// signature (DER) over `content`, its chain up to the root in `caFile`.
    /// - Parameters:
    ///   - signature: The signature file.
    ///   - content: The signed bytes' file (a bundle's `manifest.json`).
    ///   - caFile: The trusted root (PEM).
    /// - Returns: openssl's outcome: status 0 and "Verification successful" on standard error when the signature holds.
    public static func opensslVerifyDetached(signature: URL, content: URL, caFile: String) throws -> ProcessResult {
        try run("openssl", [
            "cms", "-verify", "-binary", "-inform", "DER", "-in", signature.path, "-content", content.path,
            "-CAfile", caFile, "-purpose", "any", "-out", "/dev/null",
        ])
    }
}

extension Subprocess {
    // The async forms below wait on a thread of their own (`offCooperativePool`): a test that waits seconds for a child
    // process must not hold one of Swift's cooperative threads (as many as cores), which every other test running
    // at the same time needs. Async tests pick these overloads; the blocking forms stay for code on its own thread.

    /// Runs `executable` with `arguments`, waiting on a thread of its own.
    /// - Parameters:
    ///   - executable: Program path or name.
    ///   - arguments: Its arguments.
    ///   - environment: Extra environment variables.
    ///   - directory: Working directory.
    /// - Returns: Status and output.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           in directory: URL? = nil) async throws -> ProcessResult {
        await SubprocessSlots.shared.acquire()
        do {
            let result = try await offCooperativePool {
                try run(executable, arguments, environment: environment, in: directory) as ProcessResult
            }
            await SubprocessSlots.shared.release()
            return result
        } catch {
            await SubprocessSlots.shared.release()
            throw error
        }
    }

    /// Runs the built `tessera` CLI, waiting on a thread of its own.
    /// - Parameters:
    ///   - arguments: Its arguments.
    ///   - environment: Extra environment variables.
    ///   - directory: Working directory.
    /// - Returns: Status and output.
    public static func tessera(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil)
        async throws -> ProcessResult
    {
        try await run(tesseraPath, arguments, environment: environment, in: directory)
    }

    /// ``folderWithDevelopmentCertificates(prefix:arguments:)``, waiting on a thread of its own.
    /// - Parameters:
    ///   - prefix: The folder's name prefix.
    ///   - arguments: Extra `certs dev` arguments.
    /// - Returns: The folder and its `certs/` subfolder.
    public static func folderWithDevelopmentCertificates(prefix: String, arguments: [String] = []) async throws
        -> (work: URL, certs: URL)
    {
        let (work, certs) = try developmentCertificatesFolder(prefix: prefix)
        try developmentCertificatesMade(try await tessera(["certs", "dev", "--out", certs.path] + arguments))
        return (work, certs)
    }

    /// ``opensslVerifyDetached(signature:content:caFile:)``, waiting on a thread of its own.
    /// - Parameters:
    ///   - signature: The signature file.
    ///   - content: The signed bytes' file.
    ///   - caFile: The trusted root (PEM).
    /// - Returns: openssl's outcome.
    public static func opensslVerifyDetached(signature: URL, content: URL, caFile: String) async throws -> ProcessResult {
        try await run("openssl", [
            "cms", "-verify", "-binary", "-inform", "DER", "-in", signature.path, "-content", content.path,
            "-CAfile", caFile, "-purpose", "any", "-out", "/dev/null",
        ])
    }
}

/// How many child processes the async ``Subprocess`` forms run at once: twice the cores by default
/// (`TESSERA_TEST_SUBPROCESSES` sets another number). Waiting off the cooperative threads lets every test that runs a
/// program start it at once; unbounded, dozens of `tessera` and `openssl` children on a 2-core machine slow every
/// test's own work (and its time bounds) far more than queueing them does. A test waits for a slot without holding a
/// thread.
actor SubprocessSlots {
    static let shared = SubprocessSlots(
        limit: ProcessInfo.processInfo.environment["TESSERA_TEST_SUBPROCESSES"].flatMap { Int($0) }.map { max(1, $0) }
            ?? 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Headless browsers (``WebDriver`` sessions) open at once: as many as the cores by default
    /// (`TESSERA_TEST_BROWSERS` sets another number). A Chromium is some ten processes; the browser suites start
    /// theirs together, and a dozen of them beside the rest of the suite left every test's server and client a
    /// fraction of a core for a minute.
    static let browsers = SubprocessSlots(
        limit: ProcessInfo.processInfo.environment["TESSERA_TEST_BROWSERS"].flatMap { Int($0) }.map { max(1, $0) }
            ?? max(1, ProcessInfo.processInfo.activeProcessorCount))

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { available = limit }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// A subprocess a test relies on failed.
public struct SubprocessError: Error, CustomStringConvertible {
    /// What failed and what it printed.
    public let description: String

    /// Creates an error.
    /// - Parameter description: What failed.
    public init(_ description: String) { self.description = description }
}
