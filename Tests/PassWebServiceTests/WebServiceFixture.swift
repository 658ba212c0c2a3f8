import TesseraHTTP
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PassBundle
import PassModel
import PassStore
import PassWebService
import Synchronization
import TesseraTestSupport
import PassCrypto

/// A pass web service on an in-memory store with a generated certificate chain, served on a loopback port.
struct WebServiceFixture: Sendable {
    static let adminToken = "admin-token-0123456789abcdef"
    static let publicURL = URL(string: "https://passes.example.test/wallet")!

    let chain: TestChain
    let store: MemoryPassStore
    let issuer: PassIssuer
    let service: PassWebService
    let pushes: RecordingPushSender
    let dispatcher: PushDispatcher
    let clock: TestClock
    let trustedProxies: TrustedProxies

    init(adminToken: String? = Self.adminToken, logBurst: Int = 20, personalizationBurst: Int = 20,
         passesBundleMaximumSize: Int = PassesBundle.maximumSize, trustedProxies: TrustedProxies = .none) throws {
        self.trustedProxies = trustedProxies
        chain = try TestChain()
        store = MemoryPassStore()
        clock = TestClock()
        pushes = RecordingPushSender()
        let signer = try PassSigner(
            credentials: try PassCredentials.load(
                certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
                wwdrPath: chain.path("wwdr.pem")))
        let clock = self.clock
        dispatcher = PushDispatcher(
            store: store, sender: pushes, logger: Logger(label: "test.pushes"), now: { clock.now })
        issuer = PassIssuer(
            store: store, signer: signer,
            configuration: .init(
                templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"),
                publicURL: Self.publicURL, passesBundleMaximumSize: passesBundleMaximumSize),
            now: { clock.now })
        service = PassWebService(
            issuer: issuer,
            configuration: .init(
                adminToken: adminToken, logBurst: logBurst, logRequestsPerMinute: 1,
                personalizationBurst: personalizationBurst, personalizationRequestsPerMinute: 1),
            now: { clock.now })
    }

    /// A pass issuer alone on an in-memory store, signing with a new test chain, for tests of the issuer's own
    /// answers (no server).
    static func standaloneIssuer(publicURL: URL = Self.publicURL) throws -> PassIssuer {
        let chain = try TestChain()
        let signer = try PassSigner(
            credentials: try PassCredentials.load(
                certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
                wwdrPath: chain.path("wwdr.pem")))
        return PassIssuer(
            store: MemoryPassStore(), signer: signer,
            configuration: .init(
                templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"), publicURL: publicURL))
    }

    /// Runs `test` against the service on a real loopback socket.
    /// - Parameters:
    ///   - logger: The application's logger (requests log through it), e.g. one writing to ``RecordedLogs``.
    ///   - test: The test, given a client of the running server.
    func withClient<Value: Sendable>(
        logger: Logger? = nil, _ test: @escaping @Sendable (LiveTestClient) async throws -> Value
    ) async throws -> Value {
        let service = self.service
        let proxies = trustedProxies
        // The server and the test on a loop and thread of their own, as the checkout fixture's: on Swift's two shared
        // threads they wait behind the suite's synchronous tests, and the client could time out.
        return try await EventLoopExecutor.run { executor in
            let router = RouteTable()
            if !proxies.isEmpty { router.add(middleware: ClientAddressMiddleware(proxies: proxies)) }
            service.addRoutes(to: router)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                eventLoopGroupProvider: .shared(executor.eventLoopGroup),
                logger: logger ?? Logger(label: "tessera.tests.web"))
            return try await app.testLive { client in try await test(client) }
        }
    }

    /// Creates a pass through the issuer and returns it.
    func createPass(template: String = "event-ticket", serial: String? = nil) async throws -> PassRecord {
        var data: [String: JSONValue] = [:]
        if let serial { data["serialNumber"] = .string(serial) }
        return try await issuer.createPass(template: template, data: data)
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Records pushes and answers from a script (delivered unless told otherwise).
final class RecordingPushSender: PushSender {
    struct Sent: Equatable {
        var pushToken: String
        var passTypeIdentifier: String
    }

    private let state = Mutex((sent: [Sent](), answers: [String: PushOutcome]()))

    var sent: [Sent] { state.withLock { $0.sent } }

    func answer(_ outcome: PushOutcome, for pushToken: String) {
        state.withLock { $0.answers[pushToken] = outcome }
    }

    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        state.withLock {
            $0.sent.append(Sent(pushToken: pushToken, passTypeIdentifier: passTypeIdentifier))
            return $0.answers[pushToken] ?? .delivered
        }
    }
}

extension HTTPFields {
    static func applePass(_ token: String) -> HTTPFields { [.authorization: "ApplePass \(token)"] }
    static func json(_ extra: HTTPFields = [:]) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields.append(contentsOf: extra)
        return fields
    }
    static let admin: HTTPFields = [.authorization: "Bearer \(WebServiceFixture.adminToken)", .contentType: "application/json"]
}

extension ByteBuffer {
    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
    var data: Data { Data(self.readableBytesView) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
}
