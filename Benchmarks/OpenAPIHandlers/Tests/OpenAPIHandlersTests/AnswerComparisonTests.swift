import DeviceAPI
import Foundation
import Hummingbird
import Logging
import PassBundle
import PassCrypto
import PassStore
import PassWebService
import SQLiteStore
import Testing

/// The generated and the hand-written handlers, each on its own loopback port over one store and one issuer, give
/// the same statuses, bodies and headers for the three measured operations.
@Suite struct AnswerComparisonTests {
    static let passTypeIdentifier = "pass.dev.tessera.demo"
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A store of three passes (tokens `token-0`...), the device `device-a` registered for the first two.
    private static func makeIssuer() async throws -> PassIssuer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-handlers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
        try await store.migrate()
        let passes = (0..<3).map { index in
            NewPass(
                passTypeIdentifier: passTypeIdentifier, serialNumber: "S\(index)", authenticationToken: "token-\(index)-0123456789abcdef",
                template: "event-ticket", data: Data(#"{"fields":{"seat":"\#(index + 1)"}}"#.utf8), downloadToken: "download-\(index)-0123456789abcdef0123456789")
        }
        let registrations = (0..<2).map { index in
            DeviceRegistration(
                deviceLibraryIdentifier: "device-a", pushToken: "00aa11bb22cc33dd", passTypeIdentifier: passTypeIdentifier,
                serialNumber: "S\(index)")
        }
        try await store.bulkLoad(passes: passes, registrations: registrations, now: Date(timeIntervalSince1970: 1_750_000_000))
        let chain = try DevelopmentChain.generate(passTypeIdentifier: passTypeIdentifier, teamIdentifier: "TESSERA123")
        let signer = try PassSigner(credentials: try PassCredentials(certificate: chain.pass, privateKey: chain.passKey, wwdr: chain.wwdr))
        return PassIssuer(
            store: store, signer: signer,
            configuration: .init(
                templatesDirectory: repository.appendingPathComponent("PassTemplates"),
                publicURL: URL(string: "http://127.0.0.1")!))
    }

    /// Sends each request to both variants (generated first) and checks the answers match and have the status given.
    /// `{variant}` in a path becomes `g` or `h`, for requests that change the store.
    private func compare(
        _ requests: [(path: String, method: String, headers: [String: String], body: String?, status: Int?)]
    ) async throws {
        let issuer = try await Self.makeIssuer()
        var logger = Logger(label: "openapi-handlers-test")
        logger.logLevel = .critical  // cancelling runService at the end logs its stopped child channels as errors
        let (ports, portSink) = AsyncStream<(DeviceServer.Variant, Int)>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for variant in [DeviceServer.Variant.generated, .handWritten] {
                let app = try DeviceServer.makeApplication(
                    variant: variant, issuer: issuer, port: 0, logger: logger,
                    onServerRunning: { portSink.yield((variant, $0)) })
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            }
            var port: [DeviceServer.Variant: Int] = [:]
            for await (variant, bound) in ports {
                port[variant] = bound
                if port.count == 2 { break }
            }
            for request in requests {
                var answers: [LoopbackAnswer] = []
                for (variant, letter) in [(DeviceServer.Variant.generated, "g"), (.handWritten, "h")] {
                    answers.append(try await LoopbackAnswer.fetch(
                        port: port[variant]!, path: request.path.replacingOccurrences(of: "{variant}", with: letter),
                        method: request.method, headers: request.headers, body: request.body))
                }
                #expect(answers[0] == answers[1], "\(request.method) \(request.path): generated \(answers[0]), hand-written \(answers[1])")
                if let status = request.status {
                    #expect(answers[1].status == status, "\(request.method) \(request.path)")
                }
            }
            group.cancelAll()
        }
    }

    private static func applePass(_ index: Int) -> [String: String] {
        ["Authorization": "ApplePass token-\(index)-0123456789abcdef"]
    }

    @Test func serialNumberListAnswersAlike() async throws {
        let list = "/v1/devices/device-a/registrations/\(Self.passTypeIdentifier)"
        try await compare([
            (list, "GET", [:], nil, 200),
            (list + "?passesUpdatedSince=1", "GET", [:], nil, nil),
            (list + "?passesUpdatedSince=999999", "GET", [:], nil, 204),
            (list + "?passesUpdatedSince=not-a-tag", "GET", [:], nil, 200),
            ("/v1/devices/device-unknown/registrations/\(Self.passTypeIdentifier)", "GET", [:], nil, 204),
        ])
    }

    @Test func passFetchAnswersAlikeWith200And304And401() async throws {
        let pass = "/v1/passes/\(Self.passTypeIdentifier)/S1"
        var fresh = Self.applePass(1)
        fresh["If-Modified-Since"] = "Sun, 06 Nov 2094 08:49:37 GMT"
        var stale = Self.applePass(1)
        stale["If-Modified-Since"] = "Sun, 06 Nov 1994 08:49:37 GMT"
        try await compare([
            (pass, "GET", Self.applePass(1), nil, 200),
            (pass, "GET", fresh, nil, 304),
            (pass, "GET", stale, nil, 200),
            (pass, "GET", Self.applePass(2), nil, 401),
            (pass, "GET", [:], nil, 401),
            ("/v1/passes/\(Self.passTypeIdentifier)/S9", "GET", Self.applePass(1), nil, 401),
        ])
    }

    @Test func registrationAnswersAlikeWith201And200And401() async throws {
        let json = ["Content-Type": "application/json"]
        func registration(_ device: String, _ index: Int) -> String {
            "/v1/devices/\(device)/registrations/\(Self.passTypeIdentifier)/S\(index)"
        }
        var authorized = json
        authorized["Authorization"] = "ApplePass token-2-0123456789abcdef"
        let body = #"{"pushToken":"00aa11bb22cc33dd44ee55ff66778899"}"#
        // Each variant registers its own new device (device-g, device-h), so both see a first registration.
        try await compare([
            (registration("device-{variant}", 2), "POST", authorized, body, 201),
            (registration("device-{variant}", 2), "POST", authorized, body, 200),
            (registration("device-{variant}", 1), "POST", authorized, body, 401),
            (registration("device-{variant}", 7), "POST", authorized, body, 401),
            (registration("device-{variant}", 2), "POST", json, body, 401),
        ])
    }
}
