import Foundation
import Testing
import TesseraTestSupport

/// The tests' own way of starting programs (``ChildProcess``), checked against what the tests rely on.
@Suite("Test support: child processes")
struct ChildProcessTests {
    private static func shell(_ script: String, _ configure: (ChildProcess) -> Void = { _ in }) throws -> (ChildProcess, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        configure(process)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, text)
    }

    @Test("the child gets its standard three descriptors only, even with some 1,500 open here without close-on-exec")
    func descriptors() throws {
        // Descriptors opened without FD_CLOEXEC: Foundation's Process listed them all from /proc/self/fd (and with
        // this many could read past its buffer); the child closes them itself.
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        for _ in 0..<1_500 {
            let descriptor = Glibc.open("/dev/null", O_RDONLY)
            try #require(descriptor >= 0)
            open.append(descriptor)
        }
        let (process, text) = try Self.shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; exit 3")
        #expect(process.terminationStatus == 3 && process.terminationReason == .exit)
        // `ls` sees its three and the descriptor it reads the folder with.
        let listed = text.split(separator: " ").compactMap { Int($0) }
        #expect(listed.count <= 4 && listed.prefix(3) == [0, 1, 2], "\(text)")
    }

    @Test("exit status, a signal, the environment and folder given, /dev/null for nil, and a program that is not there")
    func basics() throws {
        let folder = try TemporaryDirectory.make(prefix: "child-process")
        let (done, text) = try Self.shell("printf '%s %s ' \"$GREETING\" \"$(pwd)\"; cat; echo end") {
            $0.environment = ["GREETING": "hello", "PATH": "/usr/bin:/bin"]
            $0.currentDirectoryURL = folder
            $0.standardInput = nil
        }
        #expect(done.terminationStatus == 0 && !done.isRunning)
        #expect(text == "hello \(folder.resolvingSymlinksInPath().path) end\n", "\(text)")

        let sleeper = ChildProcess()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        sleeper.standardOutput = nil
        try sleeper.run()
        #expect(sleeper.isRunning && sleeper.processIdentifier > 0)
        sleeper.terminate()
        sleeper.waitUntilExit()
        #expect(sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGTERM)

        let missing = ChildProcess()
        missing.executableURL = folder.appendingPathComponent("no-such-program")
        #expect(throws: (any Error).self) { try missing.run() }
        #expect(!missing.isRunning)
    }
}
