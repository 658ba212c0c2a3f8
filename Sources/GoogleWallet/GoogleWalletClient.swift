import AsyncHTTPClient
public import Foundation
public import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import Synchronization
public import PassModel

/// Google Wallet's REST API (`walletobjects/v1`): classes and objects inserted or updated, objects patched, messages
/// added, authenticated with the service account's OAuth 2.0 access token.
public final class GoogleWalletClient: Sendable {
    /// How the client reaches Google.
    public struct Configuration: Sendable {
        /// The API's base URL; `https://walletobjects.googleapis.com` by default.
        public var baseURL: URL
        /// A PEM file of certificate authorities trusted besides the system's (a test stand-in's CA).
        public var caFile: String?
        /// Timeout of one request.
        public var timeout: TimeAmount

        /// The default base URL.
        public static let googleURL = URL(string: "https://walletobjects.googleapis.com")!

        /// Creates a configuration.
        /// - Parameters:
        ///   - baseURL: The API's base URL.
        ///   - caFile: Extra trusted authorities.
        ///   - timeout: Timeout of one request.
        public init(baseURL: URL = googleURL, caFile: String? = nil, timeout: TimeAmount = .seconds(20)) {
            self.baseURL = baseURL
            self.caFile = caFile
            self.timeout = timeout
        }

        /// Why `path` cannot be ``caFile`` (no PEM certificate in it), or `nil` when it holds at least one: checked
        /// when the configuration is read, not at the first request.
        /// - Parameter path: The file.
        /// - Returns: The reason, or `nil`.
        public static func problem(withAuthorities path: String) -> String? {
            guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
                return "no PEM certificate in it (-----BEGIN CERTIFICATE-----)"
            }
            return nil
        }
    }

    /// The service account.
    public let account: GoogleServiceAccount
    let configuration: Configuration
    private let connections: Mutex<HTTPClient?>
    private let httpConfiguration: HTTPClient.Configuration
    let tokens: GoogleAccessToken

    /// The HTTP client, made on first use: a client that never sent a request needs no shutdown.
    var http: HTTPClient {
        connections.withLock { client in
            if let client { return client }
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
            client = made
            return made
        }
    }

    /// Creates a client (shut it down with ``shutdown()``).
    /// - Parameters:
    ///   - account: The service account.
    ///   - configuration: Where Google is.
    public init(account: GoogleServiceAccount, configuration: Configuration = Configuration()) {
        self.account = account
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.caFile {
            tls.trustRoots = .default
            tls.additionalTrustRoots = [.file(caFile)]
        }
        var http = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        http.timeout = .init(connect: .seconds(10), read: configuration.timeout)
        httpConfiguration = http
        connections = Mutex(nil)
        tokens = GoogleAccessToken(account: account)
    }

    /// Closes the client's connections.
    public func shutdown() async throws {
        if let client = connections.withLock({ client in defer { client = nil }; return client }) {
            try await client.shutdown()
        }
    }

    /// Inserts a class, or updates it when it exists (409 on insert, then `PUT`).
    /// - Parameter pass: The pass whose class it is.
    /// - Throws: ``GoogleAPIError``.
    public func upsertClass(of pass: GoogleWalletPass) async throws(GoogleAPIError) {
        try await upsert(pass.classJSON, resource: pass.vertical.classResource, id: pass.classId)
    }

    /// Inserts an object, or patches it when it exists (409): a patch, not a whole update, so the messages Google
    /// holds on it stay (a whole update without them would drop them, and sending them again would notify again).
    /// - Parameter pass: The pass.
    /// - Returns: The object as Google answered it (with the messages it holds), when it answered one.
    /// - Throws: ``GoogleAPIError``.
    @discardableResult
    public func upsertObject(of pass: GoogleWalletPass) async throws(GoogleAPIError) -> JSONValue? {
        do {
            return try await send(.POST, path: "walletobjects/v1/\(pass.vertical.objectResource)", body: pass.objectJSON)
        } catch where error.status == 409 {
            return try await send(.PATCH, path: "walletobjects/v1/\(pass.vertical.objectResource)/\(Self.escape(pass.objectId))",
                                  body: Self.patchBody(pass.objectJSON, vertical: pass.vertical))
        }
    }

    /// Inserts a pass's class unless Google has it (409 leaves Google's as it is).
    /// - Parameter pass: The pass.
    /// - Throws: ``GoogleAPIError``.
    public func insertClassIfAbsent(of pass: GoogleWalletPass) async throws(GoogleAPIError) {
        do {
            _ = try await send(.POST, path: "walletobjects/v1/\(pass.vertical.classResource)", body: pass.classJSON)
        } catch where error.status == 409 {}
    }

    /// Inserts a pass's object unless Google has it (409 leaves Google's as it is).
    /// - Parameter pass: The pass.
    /// - Throws: ``GoogleAPIError``.
    public func insertObjectIfAbsent(of pass: GoogleWalletPass) async throws(GoogleAPIError) {
        do {
            _ = try await send(.POST, path: "walletobjects/v1/\(pass.vertical.objectResource)", body: pass.objectJSON)
        } catch where error.status == 409 {}
    }

    /// Patches an object with the pass's current content; inserts it when Google does not have it (404), and patches
    /// it after all when it appeared meanwhile (the insert's 409: a holder's save link, or another process, inserted
    /// it with an earlier state).
    /// - Parameter pass: The pass.
    /// - Returns: The object as Google answered it (with the messages it holds), when it answered one.
    /// - Throws: ``GoogleAPIError``.
    @discardableResult
    public func patchObject(of pass: GoogleWalletPass) async throws(GoogleAPIError) -> JSONValue? {
        let path = "walletobjects/v1/\(pass.vertical.objectResource)/\(Self.escape(pass.objectId))"
        let patch = Self.patchBody(pass.objectJSON, vertical: pass.vertical)
        do {
            return try await send(.PATCH, path: path, body: patch)
        } catch where error.status == 404 {
            do {
                return try await send(.POST, path: "walletobjects/v1/\(pass.vertical.objectResource)", body: pass.objectJSON)
            } catch where error.status == 409 {
                return try await send(.PATCH, path: path, body: patch)
            }
        }
    }

    /// The ids of the messages an object holds, as Google answered the object.
    /// - Parameter object: An object resource.
    /// - Returns: Its `messages[].id`.
    public static func messageIds(of object: JSONValue?) -> Set<String> {
        Set(object?["messages"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
    }

    /// The members a pass's object may carry from its pass (``GooglePassMapper``), which a patch clears when the pass
    /// no longer gives them: a patch leaves the members it does not name as they were, so a barcode, an image or
    /// the back fields taken out of the pass would otherwise stay on the holder's card.
    static let mappedObjectMembers: Set<String> = [
        "accountId", "accountName", "barcode", "boardingAndSeatingInfo", "cardTitle", "genericType", "header", "heroImage",
        "hexBackgroundColor", "locations", "logo", "loyaltyPoints", "passengerName", "passengerNames", "passengerType",
        "reservationInfo", "seatInfo", "subheader", "textModulesData", "ticketHolderName", "ticketLeg", "ticketNumber",
        "ticketType", "tripType", "validTimeInterval",
    ]

    /// A patch of an object: its members, and a null (Google's patch semantics: delete the field) for each member
    /// the mapping may give that this object's kind has and this pass does not give now.
    static func patchBody(_ object: JSONValue, vertical: GoogleVertical) -> JSONValue {
        guard case .object(var members) = object,
              let properties = WalletObjectsSchema.schemas[vertical.objectSchema]?.properties
        else { return object }
        for name in mappedObjectMembers where members[name] == nil && properties[name] != nil {
            members[name] = .null
        }
        return .object(members)
    }

    /// Adds a message to an object (`addMessage`), shown to its holders and notified.
    /// - Parameters:
    ///   - message: The text.
    ///   - id: The message's id. Google does not refuse an id it already holds (it shows the message twice, and
    ///     notifies again): callers check ``messageIds(of:)`` first.
    ///   - header: Its header.
    ///   - pass: The pass.
    /// - Throws: ``GoogleAPIError``.
    public func addMessage(_ message: String, id: String, header: String, to pass: GoogleWalletPass) async throws(GoogleAPIError) {
        let path = "walletobjects/v1/\(pass.vertical.objectResource)/\(Self.escape(pass.objectId))/addMessage"
        let body = JSONValue.object(["message": .object([
            "id": .string(id), "header": .string(header), "body": .string(message), "messageType": .string("TEXT_AND_NOTIFY"),
        ])])
        _ = try await send(.POST, path: path, body: body)
    }

    /// Fetches a public document without credentials (Google's callback signing keys).
    /// - Parameter url: Where.
    /// - Returns: The body of a 200 answer.
    /// - Throws: ``GoogleAPIError``.
    public func fetchPublic(_ url: URL) async throws(GoogleAPIError) -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        let (status, body) = try await Self.perform(request, on: http, timeout: configuration.timeout)
        guard status == 200 else {
            throw GoogleAPIError(status: status, reason: "GET \(url.absoluteString): \(status)", retryable: status == 429 || status >= 500)
        }
        return body
    }

    @discardableResult
    private func upsert(_ json: JSONValue, resource: String, id: String) async throws(GoogleAPIError) -> JSONValue? {
        do {
            return try await send(.POST, path: "walletobjects/v1/\(resource)", body: json)
        } catch where error.status == 409 {
            return try await send(.PUT, path: "walletobjects/v1/\(resource)/\(Self.escape(id))", body: json)
        }
    }

    /// Sends one request with a bearer token, refreshing the token once on a 401.
    func send(_ method: HTTPMethod, path: String, body: JSONValue) async throws(GoogleAPIError) -> JSONValue? {
        let url = configuration.baseURL.appendingPathComponent(path).absoluteString
        let bytes: Data
        do {
            bytes = try body.jsonData(sortedKeys: true, prettyPrinted: false)
        } catch {
            throw GoogleAPIError(status: nil, reason: "cannot encode the request body: \(error)", retryable: false)
        }
        var attempt = 0
        while true {
            attempt += 1
            let token = try await tokens.token(using: http)
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers.add(name: "authorization", value: "Bearer \(token)")
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: bytes))
            let (status, answer) = try await Self.perform(request, on: http, timeout: configuration.timeout)
            if status == 401, attempt == 1 {
                await tokens.invalidate()
                continue
            }
            guard (200..<300).contains(status) else {
                throw GoogleAPIError(status: status, reason: "\(method) \(path): \(status) \(Self.message(in: answer))",
                                     retryable: status == 429 || status >= 500)
            }
            return try? JSONValue(jsonData: answer)
        }
    }

    static func perform(_ request: HTTPClientRequest, on http: HTTPClient, timeout: TimeAmount) async throws(GoogleAPIError) -> (Int, Data) {
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 4 << 20)
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            throw GoogleAPIError(status: nil, reason: "\(request.method) \(request.url): \(error)", retryable: true)
        }
    }

    /// Google's error message (`{"error": {"message": ...}}`), or the start of the body.
    static func message(in body: Data) -> String {
        if let json = try? JSONValue(jsonData: body), let message = json["error"]?["message"]?.stringValue { return message }
        return String(decoding: body.prefix(200), as: UTF8.self)
    }

    static func escape(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id
    }
}

/// A failed call to Google: the HTTP status (none for a connection failure) and whether to try again later.
public struct GoogleAPIError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status, or `nil` when there was no answer.
    public var status: Int?
    /// What happened.
    public var reason: String
    /// Whether the same request may succeed later (429, 5xx, timeouts, connection failures).
    public var retryable: Bool

    /// The reason.
    public var description: String { reason }
}
