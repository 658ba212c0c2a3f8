public import Foundation
import TestChildProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `tessera serve` child process on a free loopback port with a fresh SQLite file and a generated certificate
/// chain, for tests over real sockets against the real command.
public final class ServeProcess: @unchecked Sendable {
    /// The issuer API's bearer token.
    public static let adminToken = "serve-test-admin-token-0123456789"

    /// The port it listens on.
    public let port: Int
    /// Its working folder (database, log).
    public let folder: URL
    /// The child process.
    public let process: ChildProcess
    /// Its signing certificates.
    public let chain: TestChain
    /// The extra `serve` flags it was started with (to start it again the same way).
    public let arguments: [String]
    /// The extra environment variables it was started with.
    public let environment: [String: String]
    private let logFile: URL

    /// Starts `tessera serve` and waits until `/health` answers.
    /// - Parameters:
    ///   - arguments: Extra `serve` flags.
    ///   - environment: Extra environment variables.
    ///   - descriptorLimit: When set, the child runs with `RLIMIT_NOFILE` lowered to this (through the shell's
    ///     `ulimit -n`).
    ///   - reusing: Another (stopped) server whose folder, database and certificates this one takes over.
    ///   - singleIdentity: Whether to pass `--templates` and the generated chain's `--cert`, `--key` and `--wwdr`
    ///     (without them, the arguments name the signing identities, as `--identities` does).
    /// - Throws: When it does not start.
    public init(
        arguments: [String] = [], environment: [String: String] = [:], descriptorLimit: Int? = nil,
        reusing previous: ServeProcess? = nil, singleIdentity: Bool = true
    ) async throws {
        let chain = try previous?.chain ?? TestChain()
        self.chain = chain
        self.arguments = arguments
        self.environment = environment
        folder = try previous?.folder ?? TemporaryDirectory.make(prefix: "serve")
        let tokenFile = folder.appendingPathComponent("admin.token")
        // Saved as on Windows (CRLF): the token is the file without its line ending.
        try Data((Self.adminToken + "\r\n").utf8).write(to: tokenFile)
        port = ServeProcess.unusedPort()
        var serve = [
            Subprocess.tesseraPath, "serve", "--port", "\(port)",
            "--database", "sqlite:\(folder.path)/data/tessera.sqlite",
            "--admin-token-file", tokenFile.path, "--log-level", "info",
        ] + (singleIdentity ? [
            "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
        ] : []) + arguments
        process = ChildProcess()
        if let descriptorLimit {
            serve = ["/bin/sh", "-c", "ulimit -n \(descriptorLimit) && exec \"$@\"", "sh"] + serve
        }
        process.executableURL = URL(fileURLWithPath: serve[0])
        process.arguments = Array(serve.dropFirst())
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        logFile = folder.appendingPathComponent("serve-\(port).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Start-up migrates a fresh database (a new PostgreSQL schema, too) on a machine that may be busy with other
        // tests: the bound (two and a half minutes by default) is for a server that never starts.
        do {
            try await Self.waitUntilHealthy(port: port, process: process) { [logFile] in
                String(decoding: (try? Data(contentsOf: logFile)) ?? Data(), as: UTF8.self)
            }
        } catch {
            if process.isRunning { process.terminate() }
            throw error
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything it logged so far.
    public var log: String { String(decoding: (try? Data(contentsOf: logFile)) ?? Data(), as: UTF8.self) }

    /// One request on a new connection: method, path, extra header lines, a JSON body; `nil` when no answer came.
    public func send(_ method: String, _ path: String, headers: [String] = [], body: String? = nil, timeout: TimeInterval = 30)
        async throws -> (status: Int, head: String, body: Data)?
    {
        // `Host: x` unless the caller names one.
        let host = headers.contains { $0.lowercased().hasPrefix("host:") } ? "" : "Host: x\r\n"
        var text = "\(method) \(path) HTTP/1.1\r\n\(host)"
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "Connection: close\r\n\r\n" + (body ?? "")
        return try await request(text, timeout: timeout)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Sends SIGTERM and waits up to `timeout` for the exit.
    /// - Returns: The exit status, or `nil` when it was still running (it is then killed).
    @discardableResult
    public func terminate(timeout: TimeInterval = 15) async throws -> Int32? {
        let name = "tessera serve pid \(process.processIdentifier)"
        TestProgress.say(name, "SIGTERM")
        process.terminate()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            TestProgress.say(name, "still running after \(Int(timeout)) s: SIGKILL")
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        TestProgress.say(name, "exited with \(process.terminationStatus)")
        return process.terminationStatus
    }

    /// One request on a new connection; the whole response. The socket is read on a thread of its own, so a test
    /// waiting for the server never holds one of Swift's cooperative threads (as many as cores) that the server's
    /// other clients in the same test process need.
    /// - Returns: Status, head and body, or `nil` when the connection closed without an answer.
    public func request(_ text: String, timeout: TimeInterval = 10) async throws -> (status: Int, head: String, body: Data)? {
        let port = port
        return try await offCooperativePool { try Self.request(port: port, text, timeout: timeout) }
    }

    /// ``request(_:timeout:)`` for code already on a thread of its own.
    public func requestBlocking(_ text: String, timeout: TimeInterval = 10) throws -> (status: Int, head: String, body: Data)? {
        try Self.request(port: port, text, timeout: timeout)
    }

    private static func request(port: Int, _ text: String, timeout: TimeInterval) throws -> (status: Int, head: String, body: Data)? {
        let connection = try RawHTTPConnection(port: port, timeout: 1)
        try connection.send(text)
        return connection.readResponse(deadline: Date().addingTimeInterval(timeout))
    }
}
