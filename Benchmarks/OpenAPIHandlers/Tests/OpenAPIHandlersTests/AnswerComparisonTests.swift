import DeviceAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
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

    /// What a client can see of an answer, less the `Date` header.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        init(_ response: TestResponse) {
            status = response.status.code
            var headers: [String: String] = [:]
            for field in response.headers where field.name != .date {
                headers[field.name.canonicalName, default: ""] += field.value
            }
            self.headers = headers
            body = Array(buffer: response.body)
        }

        var description: String { "\(status) \(headers.sorted { $0.key < $1.key }) \(body.count) bytes" }
    }

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
        _ requests: [(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: String?, status: Int?)]
    ) async throws {
        let issuer = try await Self.makeIssuer()
        let logger = Logger(label: "openapi-handlers-test")
        let generated = try DeviceServer.makeApplication(variant: .generated, issuer: issuer, port: 0, logger: logger)
        let handWritten = try DeviceServer.makeApplication(variant: .handWritten, issuer: issuer, port: 0, logger: logger)
        try await generated.test(.live) { generatedClient in
            try await handWritten.test(.live) { handWrittenClient in
                for request in requests {
                    var answers: [Answer] = []
                    let clients: [(String, any TestClientProtocol)] = [("g", generatedClient), ("h", handWrittenClient)]
                    for (variant, client) in clients {
                        let response = try await client.execute(
                            uri: request.uri.replacingOccurrences(of: "{variant}", with: variant), method: request.method, headers: request.headers,
                            body: request.body.map { ByteBuffer(string: $0) })
                        answers.append(Answer(response))
                    }
                    #expect(answers[0] == answers[1], "\(request.method) \(request.uri): generated \(answers[0]), hand-written \(answers[1])")
                    if let status = request.status {
                        #expect(answers[1].status == status, "\(request.method) \(request.uri)")
                    }
                }
            }
        }
    }

    private static func applePass(_ index: Int) -> HTTPFields {
        [.authorization: "ApplePass token-\(index)-0123456789abcdef"]
    }

    @Test func serialNumberListAnswersAlike() async throws {
        let list = "/v1/devices/device-a/registrations/\(Self.passTypeIdentifier)"
        try await compare([
            (list, .get, [:], nil, 200),
            (list + "?passesUpdatedSince=1", .get, [:], nil, nil),
            (list + "?passesUpdatedSince=999999", .get, [:], nil, 204),
            (list + "?passesUpdatedSince=not-a-tag", .get, [:], nil, 200),
            ("/v1/devices/device-unknown/registrations/\(Self.passTypeIdentifier)", .get, [:], nil, 204),
        ])
    }

    @Test func passFetchAnswersAlikeWith200And304And401() async throws {
        let pass = "/v1/passes/\(Self.passTypeIdentifier)/S1"
        var fresh = Self.applePass(1)
        fresh[.ifModifiedSince] = "Sun, 06 Nov 2094 08:49:37 GMT"
        var stale = Self.applePass(1)
        stale[.ifModifiedSince] = "Sun, 06 Nov 1994 08:49:37 GMT"
        try await compare([
            (pass, .get, Self.applePass(1), nil, 200),
            (pass, .get, fresh, nil, 304),
            (pass, .get, stale, nil, 200),
            (pass, .get, Self.applePass(2), nil, 401),
            (pass, .get, [:], nil, 401),
            ("/v1/passes/\(Self.passTypeIdentifier)/S9", .get, Self.applePass(1), nil, 401),
        ])
    }

    @Test func registrationAnswersAlikeWith201And200And401() async throws {
        let json: HTTPFields = [.contentType: "application/json"]
        func registration(_ device: String, _ index: Int) -> String {
            "/v1/devices/\(device)/registrations/\(Self.passTypeIdentifier)/S\(index)"
        }
        var authorized = json
        authorized[.authorization] = "ApplePass token-2-0123456789abcdef"
        let body = #"{"pushToken":"00aa11bb22cc33dd44ee55ff66778899"}"#
        // Each variant registers its own new device (device-g, device-h), so both see a first registration.
        try await compare([
            (registration("device-{variant}", 2), .post, authorized, body, 201),
            (registration("device-{variant}", 2), .post, authorized, body, 200),
            (registration("device-{variant}", 1), .post, authorized, body, 401),
            (registration("device-{variant}", 7), .post, authorized, body, 401),
            (registration("device-{variant}", 2), .post, json, body, 401),
        ])
    }
}
