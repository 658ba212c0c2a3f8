public import HTTPTypes
public import Hummingbird
public import HummingbirdTesting
public import NIOCore
import Synchronization

/// A client of a Hummingbird application on a loopback port, as HummingbirdTesting's `.live` setup gives, whose read
/// timeout is scaled (``TestTime``) and long enough for a loaded machine. That setup's own client gives up after a
/// fixed 20 s without a byte, which a request at the busiest moment of the suite beside a CPU hog can exceed.
public struct LiveTestClient: Sendable {
    /// A response: its head and whole body.
    public struct Response: Sendable {
        public let head: HTTPResponse
        public let body: ByteBuffer
        public var status: HTTPResponse.Status { head.status }
        public var headers: HTTPFields { head.headerFields }
    }

    /// How long a response may go without a byte: 60 s, scaled.
    public static var readTimeout: Duration { .seconds(TestTime.seconds(60)) }

    let client: TestClient
    /// The application's port.
    public let port: Int?

    /// Sends a request (on the client's one keep-alive connection) and returns the response.
    @discardableResult
    public func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil)
        async throws -> Response
    {
        try await execute(uri: uri, method: method, headers: headers, body: body) { $0 }
    }

    /// Sends a request and returns what `testCallback` makes of the response.
    @discardableResult
    public func execute<Value>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback: (Response) async throws -> Value
    ) async throws -> Value {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        let response = try await client.execute(request)
        return try await testCallback(Response(head: response.head, body: response.body ?? ByteBuffer()))
    }
}

extension ApplicationProtocol {
    /// Runs the application on its configured (loopback) address, as `test(.live)` does, and `test` with a
    /// ``LiveTestClient`` of it; stops both afterwards.
    ///
    /// The client connects from an event loop thread of its own: on the suite's shared event loops, busy with other
    /// tests' servers at the most crowded moment, a connect could miss its fixed 5 s. For the same reason the
    /// `.live` setup's own client, which the test never uses, may fail to connect; its failure, reported when the
    /// setup shuts it down after the test, is not the test's.
    public func testLive<Value: Sendable>(_ test: @escaping @Sendable (LiveTestClient) async throws -> Value)
        async throws -> Value
    {
        let outcome = Mutex<Value?>(nil)
        do {
            return try await self.test(.live) { framework in
                guard let port = framework.port else { throw LiveTestClientError.noPort }
                let client = TestClient(
                    host: "localhost", port: port, configuration: .init(timeout: LiveTestClient.readTimeout),
                    eventLoopGroupProvider: .createNew)
                client.connect()
                do {
                    let value = try await test(LiveTestClient(client: client, port: port))
                    outcome.withLock { $0 = value }
                    try await client.shutdown()
                    return value
                } catch {
                    try? await client.shutdown()
                    throw error
                }
            }
        } catch let error as ChannelError {
            guard case .connectTimeout = error, let value = outcome.withLock({ $0 }) else { throw error }
            return value
        }
    }
}

/// The live test setup gave no port.
public enum LiveTestClientError: Error {
    case noPort
}
