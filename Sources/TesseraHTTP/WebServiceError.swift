public import HTTPTypes
public import Hummingbird

/// Why a request to the pass web service, the download links or the issuer API was refused at the HTTP level (body,
/// path, credentials, rate, method), answered with the ``ErrorEnvelope``.
public struct WebServiceError: Error, Sendable, CustomStringConvertible, HTTPResponseError {
    /// What kind of failure happened; the names are shared with `CheckoutError.Code` where the meaning is the same.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidRequest, unauthorized, forbidden, notFound, methodNotAllowed, conflict, idempotencyConflict
            case payloadTooLarge, rateLimited
            case passesBundleLimit, signingUnavailable, internalError
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The body, a query or a path parameter is wrong (400), or the data does not fit the template (422).
        public static let invalidRequest = Code(.invalidRequest)
        /// The credential is missing or wrong (401).
        public static let unauthorized = Code(.unauthorized)
        /// The credential is valid but may not do this: an API key without the permission, or a key managing keys (403).
        public static let forbidden = Code(.forbidden)
        /// No such pass, link or route (404).
        public static let notFound = Code(.notFound)
        /// A method the server never serves (405).
        public static let methodNotAllowed = Code(.methodNotAllowed)
        /// The pass already exists (409).
        public static let conflict = Code(.conflict)
        /// The `Idempotency-Key` was used before with another body (409), as checkout's sessions answer it.
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// The body is larger than the configured limit (413).
        public static let payloadTooLarge = Code(.payloadTooLarge)
        /// Too many requests from this address; `Retry-After` says when to try again (429).
        public static let rateLimited = Code(.rateLimited)
        /// The passes asked for do not fit in one `.pkpasses` bundle: Wallet takes 1 to 10 passes and 150 MB (422).
        public static let passesBundleLimit = Code(.passesBundleLimit)
        /// The signing identity of the pass cannot sign new versions now: its certificate expired (503).
        public static let signingUnavailable = Code(.signingUnavailable)
        /// An unexpected failure, logged on the server (500).
        public static let internalError = Code(.internalError)

        /// The code a status stands for when nothing more precise is known.
        /// - Parameter status: An error status.
        /// - Returns: Its code.
        public static func standing(for status: HTTPResponse.Status) -> Code {
            switch status.code {
            case 401: .unauthorized
            case 403: .forbidden
            case 404, 410: .notFound
            case 405: .methodNotAllowed
            case 409: .conflict
            case 413: .payloadTooLarge
            case 429: .rateLimited
            case 500...: .internalError
            default: .invalidRequest
            }
        }

        /// The code's name, such as `invalidRequest`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// The HTTP status the error is answered with.
    public let status: HTTPResponse.Status
    /// A sentence naming what is wrong (the envelope's `message`).
    public let message: String
    /// The JSON path of the field at fault.
    public let field: String?
    /// Headers the answer carries (`Retry-After`, `WWW-Authenticate`, `Allow`).
    public let headers: HTTPFields
    /// Answered with the status alone, as Apple's device protocol fixes it.
    private let bare: Bool

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - status: The HTTP status.
    ///   - message: A sentence naming what is wrong.
    ///   - field: The field at fault.
    ///   - headers: Headers the answer carries.
    public init(
        _ code: Code, status: HTTPResponse.Status, _ message: String, field: String? = nil, headers: HTTPFields = [:]
    ) {
        self.init(code, status: status, message, field: field, headers: headers, bare: false)
    }

    private init(
        _ code: Code, status: HTTPResponse.Status, _ message: String, field: String?, headers: HTTPFields, bare: Bool
    ) {
        self.code = code
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers
        self.bare = bare
    }

    /// Hummingbird's error in the envelope: its message (or the status's reason phrase) and the code its status
    /// stands for.
    /// - Parameter httpError: The error.
    public init(httpError: HTTPError) {
        self.init(
            .standing(for: httpError.status), status: httpError.status,
            httpError.body ?? httpError.status.reasonPhrase.lowercased(), headers: httpError.headers)
    }

    /// The message, as the log shows it.
    public var description: String { "\(code): \(message)" }

    /// The device endpoints' 401 (Apple's protocol): no body, and the same for a wrong token and a missing pass;
    /// `WWW-Authenticate` names the scheme the endpoint takes (`ApplePass`, `AppleOrder`), as RFC 9110 asks of a 401.
    package static func deviceUnauthorized(scheme: String) -> WebServiceError {
        WebServiceError(
            .unauthorized, status: .unauthorized, "unauthorized", field: nil, headers: [.wwwAuthenticate: scheme],
            bare: true)
    }

    /// The answer to an unexpected failure, which has been logged.
    package static let unexpected = WebServiceError(
        .internalError, status: .internalServerError, "the server could not complete the request; it has been logged")

    /// A stored pass that cannot be built (its data no longer fits its template), on a device fetch, a download link
    /// or the issuer API: the server's fault, logged where it happened. A device fetch gets this too, not the 422 the
    /// issuer API gives data that does not fit when it is sent: the device asked for nothing wrong, and Apple's
    /// protocol has no 4xx for "the pass you hold cannot be made"; Wallet keeps the version it has and asks again later.
    package static let passNotBuilt = WebServiceError(.internalError, status: .internalServerError, "the pass could not be built")

    /// A download link whose token matches no pass.
    package static let noPassAtLink = WebServiceError(.notFound, status: .notFound, "no pass at this link")

    /// The router's answer for a path no route serves.
    package static let noRoute = WebServiceError(.notFound, status: .notFound, "no such resource")

    /// A 400 naming the field.
    package static func invalid(_ field: String?, _ message: String) -> WebServiceError {
        WebServiceError(.invalidRequest, status: .badRequest, message, field: field)
    }

    /// A 429 with `Retry-After`: the whole seconds until the client may try again.
    package static func rateLimited(_ message: String, retryAfter seconds: Int) -> WebServiceError {
        WebServiceError(.rateLimited, status: .tooManyRequests, message, headers: [.retryAfter: String(seconds)])
    }

    /// The envelope (or the bare status of Apple's device protocol).
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    /// - Returns: The response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        if bare { return Response(status: status, headers: headers) }
        return ErrorEnvelope(code: code.description, message: message, field: field).response(status: status, headers: headers)
    }
}
