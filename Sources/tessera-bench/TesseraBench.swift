import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(CoreFoundation)
import CoreFoundation  // on Linux, timespec resolves through CoreFoundation's module map
#endif
import OrderModel
import PassBundle
import PassCrypto
import PassModel
import Synchronization

/// `tessera-bench`: throughput figures for docs/benchmarks.md.
@main
struct TesseraBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Benchmarks for Tessera (run with -c release).",
        subcommands: [
            SignBenchmark.self, BarcodeBenchmark.self, PayBenchmark.self, PreviewBenchmark.self, TokenBenchmark.self, SeedCommand.self,
            HelloServerCommand.self, StoreBenchmark.self, RegistrationFloorBenchmark.self, APNsBenchmark.self,
        ]
    )
}

/// Signed passes per second, one core and all cores, next to `openssl speed rsa2048` in the same run.
struct SignBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Signed event-ticket passes per second on one core and on all cores, next to openssl speed rsa2048."
    )

    @Option(help: "Template folder.")
    var template = "PassTemplates/event-ticket"

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 5

    @Option(help: "Rounds of (openssl speed, then passes) back to back; the report gives each round and the median, so a drifting machine speed hits both sides alike.")
    var rounds = 1

    @Option(help: "Only build this many passes (orders, with --order-template) on one thread and print the time (for profilers such as callgrind).")
    var profileCount: Int?

    @Flag(help: "Print the CPU time of each stage of building a pass (apply, validate, encode, sign, zip).")
    var breakdown = false

    @Option(help: "Worker threads for the all-cores run (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Also sign Wallet orders from this order template folder in each round (such as OrderTemplates/shop-order), with a development Order Type ID certificate.")
    var orderTemplate: String?

    @OptionGroup var pkcs11: PKCS11SignOptions

    func run() throws {
        let passTemplate = try PassTemplate(directory: URL(fileURLWithPath: template))
        let chain = try DevelopmentChain.generate(passTypeIdentifier: passTemplate.pass.passTypeIdentifier ?? "pass.dev.tessera.demo",
                                                  teamIdentifier: passTemplate.pass.teamIdentifier ?? "TESSERA123")
        let credentials = try PassCredentials(certificate: chain.pass, privateKey: chain.passKey, wwdr: chain.wwdr)
        let builder = try PassBuilder(template: passTemplate, signer: try PassSigner(credentials: credentials))
        _ = try builder.build(data: Self.data(0))  // warm up
        let hsm = try pkcs11.builder(template: passTemplate)
        _ = try hsm?.build(data: Self.data(0))
        let orders = try orderTemplate.map { try Self.orderBuilder(template: $0) }
        _ = try orders.map { try $0.build(data: Self.orderData(0)) }
        if breakdown {
            try Breakdown.run(template: passTemplate, credentials: credentials, data: Self.data(7), count: 2000)
            if let orders { try Breakdown.run(orders: orders, data: Self.orderData(7), count: 2000) }
            return
        }
        if let profileCount {
            let start = DispatchTime.now().uptimeNanoseconds
            if let orders {
                for index in 0..<profileCount { _ = try orders.build(data: Self.orderData(index)) }
            } else {
                for index in 0..<profileCount { _ = try builder.build(data: Self.data(index)) }
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("\(profileCount) \(orders == nil ? "passes" : "orders") in \(String(format: "%.3f", elapsed)) s")
            return
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("machine: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")
        var ratios: [Double] = []
        var orderRatios: [Double] = []
        var scalings: [Double] = []
        for round in 1...max(rounds, 1) {
            // The one-thread runs sit between two openssl runs and are compared with their mean, so a machine whose
            // speed drifts during the round moves the baseline with them.
            let openSSLBefore = try OpenSSLSpeed.rsa2048SignsPerSecond(processes: 1, seconds: Int(seconds.rounded(.up)))
            let single = measure(workers: 1) { _ = try builder.build(data: Self.data($0)) }
            let orderOne = orders.map { orders in measure(workers: 1) { _ = try orders.build(data: Self.orderData($0)) } }
            let openSSLAfter = try OpenSSLSpeed.rsa2048SignsPerSecond(processes: 1, seconds: Int(seconds.rounded(.up)))
            let openSSLOne = (openSSLBefore + openSSLAfter) / 2
            let all = measure(workers: jobs) { _ = try builder.build(data: Self.data($0)) }
            var orderRates: (one: (wall: Double, cpu: Double), many: (wall: Double, cpu: Double))?
            if let orders, let orderOne {
                orderRates = (orderOne, measure(workers: jobs) { _ = try orders.build(data: Self.orderData($0)) })
            }
            let hsmRates = hsm.map { hsm in
                (one: measure(workers: 1) { _ = try hsm.build(data: Self.data($0)) },
                 many: measure(workers: jobs) { _ = try hsm.build(data: Self.data($0)) })
            }
            let openSSLAll = try OpenSSLSpeed.rsa2048SignsPerSecond(processes: jobs, seconds: Int(seconds.rounded(.up)))
            ratios.append(single.cpu / openSSLOne)
            scalings.append(all.wall / single.wall)
            if rounds > 1 { print("round \(round):") }
            print("| measurement | per second |")
            print("| --- | ---: |")
            print("| openssl speed rsa2048 sign, 1 process (CPU time), mean of the runs before and after the 1-thread runs | \(format(openSSLOne)) |")
            print("| (openssl before, after) | \(format(openSSLBefore)), \(format(openSSLAfter)) |")
            print("| signed \(URL(fileURLWithPath: template).lastPathComponent) passes, 1 thread (per CPU second) | \(format(single.cpu)) |")
            print("| signed passes, 1 thread (wall clock) | \(format(single.wall)) |")
            print("| openssl speed rsa2048 sign, \(jobs) processes (wall clock, -multi) | \(format(openSSLAll)) |")
            print("| signed passes, \(jobs) threads (wall clock) | \(format(all.wall)) |")
            if let hsmRates {
                print("| signed passes, key in the PKCS#11 module, 1 thread (per CPU second) | \(format(hsmRates.one.cpu)) |")
                print("| signed passes, key in the PKCS#11 module, 1 thread (wall clock) | \(format(hsmRates.one.wall)) |")
                print("| signed passes, key in the PKCS#11 module, \(jobs) threads (wall clock) | \(format(hsmRates.many.wall)) |")
            }
            if let (one, many) = orderRates {
                print("| signed \(URL(fileURLWithPath: orderTemplate ?? "").lastPathComponent) orders, 1 thread (per CPU second) | \(format(one.cpu)) |")
                print("| signed orders, 1 thread (wall clock) | \(format(one.wall)) |")
                print("| signed orders, \(jobs) threads (wall clock) | \(format(many.wall)) |")
            }
            print("")
            print("per-core pass rate vs raw RSA-2048 sign rate: \(String(format: "%.1f", ratios.last! * 100))%")
            if let (one, _) = orderRates {
                orderRatios.append(one.cpu / openSSLOne)
                print("per-core order rate vs raw RSA-2048 sign rate: \(String(format: "%.1f", orderRatios.last! * 100))%")
            }
            print("scaling 1 -> \(jobs) threads (wall clock): \(String(format: "%.2f", scalings.last!))x"
                  + " (openssl: \(String(format: "%.2f", openSSLAll / openSSLOne))x)")
            print("")
        }
        if rounds > 1 {
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            print("median of \(rounds) rounds: per-core rate \(String(format: "%.1f", median(ratios) * 100))% of RSA-2048 sign/s"
                  + " (range \(String(format: "%.1f", ratios.min()! * 100))-\(String(format: "%.1f", ratios.max()! * 100))%),"
                  + " scaling \(String(format: "%.2f", median(scalings)))x")
            if !orderRatios.isEmpty {
                print("median of \(rounds) rounds: per-core order rate \(String(format: "%.1f", median(orderRatios) * 100))% of RSA-2048"
                      + " sign/s (range \(String(format: "%.1f", orderRatios.min()! * 100))-\(String(format: "%.1f", orderRatios.max()! * 100))%)")
            }
        }
        print("mean bundle size: \(try builder.build(data: Self.data(1)).bundle.count) bytes")
    }

    static func data(_ index: Int) -> PassData {
        PassData(overrides: ["serialNumber": .string("BENCH-\(index)"), "barcodeMessage": .string("TICKET-\(index)-QR")],
                 fields: [:])
    }

    /// Things made per second by `workers` threads over `seconds` of wall-clock time, and per second of the threads'
    /// own CPU time (what `openssl speed` reports by default, so other load on the machine does not skew it).
    /// `make` builds the thing numbered by its argument.
    func measure(workers: Int, make: @escaping @Sendable (Int) throws -> Void) -> (wall: Double, cpu: Double) {
        let counter = Counter()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var made = 0
            var index = worker * 1_000_000
            let cpuStart = Self.threadCPUTime()
            while DispatchTime.now().uptimeNanoseconds < deadline {
                if (try? make(index)) != nil { made += 1 }
                index += 1
            }
            counter.add(made, cpuSeconds: Self.threadCPUTime() - cpuStart)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (Double(counter.value) / elapsed, Double(counter.value) / counter.cpuSeconds * Double(workers))
    }

    /// A builder for the order template, signing with a development Order Type ID certificate for its identifier.
    static func orderBuilder(template folder: String) throws -> OrderBuilder {
        let template = try OrderTemplate(directory: URL(fileURLWithPath: folder))
        let identifier = (try? JSONValue(jsonData: template.orderJSON(applying: nil, source: "template")))?["orderTypeIdentifier"]?
            .stringValue ?? "order.dev.tessera.shop"
        let chain = try DevelopmentChain.generate(passTypeIdentifier: "pass.dev.tessera.demo", teamIdentifier: "TESSERA123")
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: identifier, teamIdentifier: "TESSERA123")
        let credentials = try PassCredentials(certificate: order.certificate, privateKey: order.key, wwdr: chain.wwdr)
        return OrderBuilder(template: template, signer: try OrderSigner(credentials: credentials))
    }

    /// Each order its own identifier and number.
    static func orderData(_ index: Int) -> Data {
        Data(#"{"orderIdentifier": "BENCH-\#(index)", "orderNumber": "\#(index)"}"#.utf8)
    }

    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func format(_ value: Double) -> String { String(format: "%.0f", value) }
}

final class Counter: Sendable {
    private let state = Mutex<(total: Int, cpu: Double)>((0, 0))
    func add(_ amount: Int, cpuSeconds: Double) { state.withLock { $0.total += amount; $0.cpu += cpuSeconds } }
    var value: Int { state.withLock { $0.total } }
    var cpuSeconds: Double { state.withLock { $0.cpu } }
}

/// Runs `openssl speed rsa2048` and reads its sign/s.
///
/// One process runs without `-multi`, because only then does `openssl speed` divide by its user CPU time: with
/// `-multi` (even `-multi 1`) each child divides by the seconds of wall clock it ran, so on a machine that other work
/// keeps busy the "CPU time" baseline fell to half of what OpenSSL signs per CPU second.
enum OpenSSLSpeed {
    static func rsa2048SignsPerSecond(processes: Int, seconds: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "speed", "-seconds", "\(seconds)"] + (processes > 1 ? ["-multi", "\(processes)"] : [])
            + ["rsa2048"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "rsa 2048 bits 0.000654s 0.000019s   1529.1  52631.6"  (sign/s is the third number)
        for line in output.split(separator: "\n") where line.hasPrefix("rsa 2048 bits") || line.hasPrefix("rsa  2048 bits") {
            let numbers = line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "s"))) }
            if numbers.count >= 4 { return numbers[3] }
        }
        throw ValidationError("could not read `openssl speed` output:\n\(output)")
    }
}
