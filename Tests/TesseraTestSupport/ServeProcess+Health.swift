public import Foundation
import TestChildProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServeProcess {
    /// Waits until `GET /health` on `port` answers 200, on a thread of its own so that tests blocking Swift's
    /// cooperative threads meanwhile cannot use the bound up.
    ///
    /// A probe that connects waits for its answer as long as a loaded machine may need (``TestTime``), rather than
    /// giving up after a fixed moment and asking again on a new connection: the server that accepted it answers it
    /// once it gets the CPU.
    /// - Parameters:
    ///   - port: The server's loopback port.
    ///   - process: The server process (the wait ends early when it exits).
    ///   - seconds: The bound: start-up migrates a fresh database on a machine that may be busy with other tests
    ///     (by default 50 s for a quiet machine, scaled by ``TestTime``).
    ///   - output: What the server wrote so far (standard output and error), for the failure.
    /// - Throws: ``ServeStartFailure`` saying whether the process exited (how) or never answered (what the last
    ///   probe saw), with its output.
    public static func waitUntilHealthy(
        port: Int, process: ChildProcess, seconds: Double = TestTime.seconds(50), output: @escaping @Sendable () -> String
    ) async throws {
        let answerWait = TestTime.seconds(5)
        let reason = try await offCooperativePool { () -> String? in
            let started = Date()
            let deadline = started.addingTimeInterval(seconds)
            var lastProbe = "none"
            while Date() < deadline {
                do {
                    let connection = try RawHTTPConnection(port: port, timeout: 1)
                    try connection.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    let answerDeadline = min(deadline, Date().addingTimeInterval(answerWait))
                    switch connection.readResponse(deadline: answerDeadline) {
                    case .some(let response) where response.status == 200: return nil
                    case .some(let response): lastProbe = "answered \(response.status)"
                    case .none where Date() >= answerDeadline:
                        lastProbe = "connected, no answer within \(Int(answerDeadline.timeIntervalSince(started))) s"
                    case .none: lastProbe = "connected, closed without an answer"
                    }
                } catch {
                    lastProbe = "\(error)"
                }
                guard process.isRunning else {
                    let how = process.terminationReason == .uncaughtSignal
                        ? "was killed by signal \(process.terminationStatus)"
                        : "exited with status \(process.terminationStatus)"
                    return "\(how) after \(Int(Date().timeIntervalSince(started))) s (last probe: \(lastProbe))"
                }
                usleep(100_000)
            }
            return "did not answer within \(Int(seconds)) s (TESSERA_TEST_TIME_FACTOR \(TestTime.factor)); "
                + "last probe: \(lastProbe)"
        }
        if let reason {
            throw ServeStartFailure(
                description: "tessera serve on port \(port) (pid \(process.processIdentifier)) \(reason); "
                    + "its output:\n\(output())")
        }
    }
}

/// A `tessera serve` child did not start: how it ended or what it last answered, and what it wrote.
public struct ServeStartFailure: Error, CustomStringConvertible {
    /// What happened, and the server's output.
    public let description: String
}
