import APNs
import ArgumentParser
import Foundation
import Glibc
import Logging

/// The APNs client's own ceiling: pass-update pushes per second to a host (a loopback stand-in), with a given number
/// in flight, and the process's CPU time per push. The push dispatcher cannot go faster than this.
struct APNsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns",
        abstract: "Pass-update pushes per second through the APNs client to a stand-in host, and CPU time per push."
    )

    @Option(help: "The APNs host (a loopback stand-in).")
    var host = "localhost"

    @Option(help: "The port.")
    var port = 18443

    @Option(help: "A PEM file of the CA the stand-in's certificate chains to.")
    var caFile: String

    @Option(help: "An ES256 token key (.p8).")
    var p8: String

    @Option(help: "Pushes to send.")
    var pushes = 50_000

    @Option(help: "Pushes in flight at once.")
    var concurrency = 100

    @Option(help: "HTTP/2 connections the client keeps to the host.")
    var connections = 1

    @Option(help: "The topic.")
    var topic = "pass.dev.tessera.demo"

    @Option(help: "Pushes per send: above 1, the client's batch send (one hop to the connection per group), as the push dispatcher uses it.")
    var perSend = 1

    func run() throws {
        // Synchronous at the top like the other benchmarks: `openssl speed`, which `sign` runs, stops on SIGALRM,
        // which an async main's threads would hand down blocked.
        let (host, port, caFile, p8, pushes, concurrency, topic) = (host, port, caFile, p8, pushes, concurrency, topic)
        let connections = connections
        let perSend = max(1, perSend)
        try runBlocking {
            try await Self.measure(host: host, port: port, caFile: caFile, p8: p8, pushes: pushes,
                                   concurrency: concurrency, topic: topic, perSend: perSend, connections: connections)
        }
    }

    static func measure(host: String, port: Int, caFile: String, p8: String, pushes: Int, concurrency: Int,
                        topic: String, perSend: Int, connections: Int) async throws {
        let client = try APNsClient(
            configuration: .init(host: host, port: port, authentication: .token(p8Path: p8, keyID: "BENCHKEY01", teamID: "TESSERA123"),
                                 trustRoots: .only(pemPath: caFile), connections: connections),
            logger: Logger(label: "apns-bench"))
        let token = String(repeating: "ab", count: 32)
        // Warm-up: the connection and the provider token.
        let first = try await client.send(pushToken: token, topic: topic)
        guard case .delivered = first else {
            try await client.shutdown()
            throw ValidationError("the first push to \(host):\(port) was not accepted: \(first)")
        }
        let cpuBefore = Self.cpuSeconds()
        let start = ContinuousClock.now
        // Each task sends `perSend` pushes (one by one, or together through the batch send); `concurrency` in flight.
        let sends = (pushes + perSend - 1) / perSend
        let delivered = try await withThrowingTaskGroup(of: Int.self) { group in
            var inFlight = 0
            var delivered = 0
            for index in 0..<sends {
                if inFlight == max(1, concurrency / perSend), let ok = try await group.next() {
                    inFlight -= 1
                    delivered += ok
                }
                let count = min(perSend, pushes - index * perSend)
                group.addTask {
                    if perSend == 1 {
                        if case .delivered = try await client.send(pushToken: token, topic: topic) { return 1 }
                        return 0
                    }
                    let results = try await client.send(pushTokens: Array(repeating: token, count: count), topic: topic)
                    return results.filter { if case .delivered = $0 { true } else { false } }.count
                }
                inFlight += 1
            }
            for try await ok in group { delivered += ok }
            return delivered
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpu = Self.cpuSeconds() - cpuBefore
        try await client.shutdown()
        let over = connections > 1 ? " over \(connections) connections" : ""
        print("| APNs client, \(concurrency) in flight\(over)\(perSend > 1 ? ", \(perSend) per send" : ""), \(pushes) pushes | \(Int(Double(pushes) / seconds))/s "
              + "(\(delivered) delivered, \(String(format: "%.0f", cpu / Double(pushes) * 1e6)) µs CPU per push) |")
    }

    /// CPU time of this process, every thread.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
