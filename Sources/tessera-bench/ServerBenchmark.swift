import ArgumentParser
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PassStore
import SQLiteStore

/// Names shared by the seeded data and the load scripts in `scripts/bench-server.sh` (and its PostgreSQL seeding
/// SQL): pass `i` has serial `B%07d`, token `benchtoken%022d`; device `d` is `dev%08d` with push token `%064x`.
enum BenchData {
    static let passTypeIdentifier = "pass.dev.tessera.demo"
    static func serial(_ index: Int) -> String { "B" + padded(index, 7) }
    static func token(_ index: Int) -> String { "benchtoken" + padded(index, 22) }
    static func downloadToken(_ index: Int) -> String { "dl" + padded(index, 38) }
    static func device(_ index: Int) -> String { "dev" + padded(index, 8) }
    static func pushToken(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// `tessera-bench seed`: fills an SQLite store with passes and registrations for the load benchmark.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill an SQLite store with N passes (template event-ticket) and devices registered for them."
    )

    @Option(help: "SQLite file to create.")
    var sqlite: String

    @Option(help: "Passes to create.")
    var passes = 100_000

    @Option(help: "Devices; each registers for --per-device passes.")
    var devices = 250_000

    @Option(help: "Passes each device registers for (registrations = devices x this).")
    var perDevice = 4

    @Option(help: "Template folder name stored with each pass.")
    var template = "event-ticket"

    func run() throws {
        try runBlocking { try await seed() }
    }

    private func seed() async throws {
        let store = try SQLiteStore(path: sqlite)
        try await store.migrate()
        let now = Date()
        let start = Date()
        let chunk = 20_000
        for first in stride(from: 0, to: passes, by: chunk) {
            let batch = (first..<min(passes, first + chunk)).map { index in
                NewPass(
                    passTypeIdentifier: BenchData.passTypeIdentifier, serialNumber: BenchData.serial(index),
                    authenticationToken: BenchData.token(index), template: template,
                    data: Data(#"{"fields":{"seat":"\#(index % 40 + 1)"}}"#.utf8),
                    downloadToken: BenchData.downloadToken(index))
            }
            try await store.bulkLoad(passes: batch, registrations: [], now: now)
        }
        let devicesPerChunk = chunk / perDevice
        for first in stride(from: 0, to: devices, by: devicesPerChunk) {
            var registrations: [DeviceRegistration] = []
            for device in first..<min(devices, first + devicesPerChunk) {
                for slot in 0..<perDevice {
                    registrations.append(DeviceRegistration(
                        deviceLibraryIdentifier: BenchData.device(device), pushToken: BenchData.pushToken(device),
                        passTypeIdentifier: BenchData.passTypeIdentifier,
                        serialNumber: BenchData.serial((device * perDevice + slot) % passes)))
                }
            }
            try await store.bulkLoad(passes: [], registrations: registrations, now: now)
        }
        print("seeded \(passes) passes, \(devices * perDevice) registrations in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        // The seeding recorded an event per pass and registration, as the server does. A server that had recorded
        // them would have folded them into its analytics long since; without this, the first minute of every
        // benchmark on the seed would measure the server catching up on a backlog of a million events.
        let foldStart = Date()
        var folded = 0
        while case let count = try await store.foldAnalytics(limit: 10_000), count > 0 { folded += count }
        print("folded \(folded) events into the analytics rollups in \(String(format: "%.1f", Date().timeIntervalSince(foldStart))) s")
    }
}

/// `tessera-bench hello`: the minimal Hummingbird route the server's figures are compared with.
struct HelloServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hello",
        abstract: "Serve GET /hello (\"Hello, world!\") with Hummingbird: the load benchmark's baseline.",
        discussion: """
            Also serves POST /v1/devices/{device}/registrations/{passTypeIdentifier}/{serialNumber}: a registration's \
            request as HTTP alone costs it (the route's parameters, the Authorization header, the JSON body decoded), \
            answered 201 with nothing stored. With the same load as the server's registration, the difference is \
            what the store and the event log cost.
            """
    )

    @Option(help: "Port.")
    var port = 8090

    @Flag(help: "Run the handler on the event loops (NIO's event loop group as Swift Concurrency's global executor), as tessera serve does.")
    var eventLoopExecutor = false

    func run() throws {
        if eventLoopExecutor { NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() }
        try runBlocking { try await serve() }
    }

    @Option(help: "Also serve GET /bytes: this many bytes from memory, as application/octet-stream (a ceiling for the pass download).")
    var bytes = 0

    private func serve() async throws {
        let router = Router()
        router.get("hello") { _, _ in "Hello, world!" }
        let body = ByteBuffer(repeating: 0x5A, count: bytes)
        router.get("bytes") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: body))
        }
        router.post("v1/devices/:device/registrations/:passTypeIdentifier/:serialNumber") { request, context in
            guard let device = context.parameters.get("device"), !device.isEmpty,
                  context.parameters.get("passTypeIdentifier") != nil, context.parameters.get("serialNumber") != nil,
                  request.headers[.authorization]?.hasPrefix("ApplePass ") == true
            else { throw HTTPError(.unauthorized) }
            let body = try await request.body.collect(upTo: 64 << 10)
            let registration = try JSONDecoder().decode(RegistrationBody.self, from: Data(body.readableBytesView))
            guard !registration.pushToken.isEmpty else { throw HTTPError(.badRequest) }
            return Response(status: .created)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    private struct RegistrationBody: Decodable {
        var pushToken: String
    }
}

/// Runs async work from a synchronous command (the benchmark's root command is synchronous because Foundation's
/// `Process`, which runs `openssl speed`, must not wait inside an async main on Linux).
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let semaphore = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task {
        do { try await body() } catch { outcome.error = error }
        semaphore.signal()
    }
    semaphore.wait()
    if let error = outcome.error { throw error }
}

private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}
