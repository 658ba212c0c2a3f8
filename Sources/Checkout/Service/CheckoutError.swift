import Foundation
public import HTTPTypes
package import PassModel

/// Why a checkout request, a configuration or a payment was refused: a code, the HTTP status it is answered with, a
/// sentence for people and, when one field is at fault, the field's JSON path.
///
/// The HTTP module writes it as the shared error envelope: `{"error": {"code": "...", "message": "...", "field": "..."}}`.
public struct CheckoutError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidConfiguration, invalidRequest, notFound, idempotencyConflict, sessionNotPending, sessionExpired
            case merchantValidationRefused, merchantValidationFailed, paymentRefused, storageFailed, internalError
            case unauthorized, apiKeyRequired, passesBundleLimit, payloadTooLarge, methodNotAllowed, rateLimited
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The merchant configuration is unreadable or inconsistent.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The request body, a header or a path parameter is wrong (400 or 422).
        public static let invalidRequest = Code(.invalidRequest)
        /// No such session or order (404).
        public static let notFound = Code(.notFound)
        /// The `Idempotency-Key` was used with a different body (409).
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// The session is already authorized (409).
        public static let sessionNotPending = Code(.sessionNotPending)
        /// The session is past its lifetime: it takes no more updates or payments (410).
        public static let sessionExpired = Code(.sessionExpired)
        /// The merchant-validation URL is not one of Apple's hosts (400); no request was made.
        public static let merchantValidationRefused = Code(.merchantValidationRefused)
        /// Apple's payment-session endpoint failed or could not be reached (502).
        public static let merchantValidationFailed = Code(.merchantValidationFailed)
        /// The payment was refused (the body is an authorization result).
        public static let paymentRefused = Code(.paymentRefused)
        /// The checkout store failed.
        public static let storageFailed = Code(.storageFailed)
        /// Neither the merchant's API key nor the session's client secret was given, or a wrong one (401).
        public static let unauthorized = Code(.unauthorized)
        /// Free-form items or a summary need the merchant's API key: anonymous carts come from the catalogue (401).
        public static let apiKeyRequired = Code(.apiKeyRequired)
        /// An order's passes do not fit in one `.pkpasses` download: Wallet takes at most 10 passes and 150 MB (422).
        public static let passesBundleLimit = Code(.passesBundleLimit)
        /// The body is larger than the configured limit (413).
        public static let payloadTooLarge = Code(.payloadTooLarge)
        /// A method the server never serves (405).
        public static let methodNotAllowed = Code(.methodNotAllowed)
        /// Too many requests (429).
        public static let rateLimited = Code(.rateLimited)
        /// An unexpected failure, logged on the server (500).
        public static let internalError = Code(.internalError)

        /// The code's name, such as `invalidRequest`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// The HTTP status the error is answered with.
    public let status: HTTPResponse.Status
    /// A sentence naming what is wrong.
    public let reason: String
    /// The JSON path of the field at fault, such as `items[1].quantity`.
    public let field: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - status: The HTTP status.
    ///   - reason: A sentence naming what is wrong.
    ///   - field: The field at fault.
    public init(_ code: Code, status: HTTPResponse.Status, _ reason: String, field: String? = nil) {
        self.code = code
        self.status = status
        self.reason = reason
        self.field = field
    }

    /// `field: reason`, or the reason alone.
    public var description: String { field.map { "\($0): \(reason)" } ?? reason }

    /// A 400 (or `status`) naming the field at fault.
    /// - Parameters:
    ///   - field: The JSON path (or header) at fault, if one is.
    ///   - reason: A sentence naming what is wrong.
    ///   - status: The HTTP status (400 unless given).
    /// - Returns: An `invalidRequest` error.
    public static func invalid(_ field: String?, _ reason: String, status: HTTPResponse.Status = .badRequest)
        -> CheckoutError
    {
        CheckoutError(.invalidRequest, status: status, reason, field: field)
    }

    /// A 400 naming the member a JSON body could not be decoded at, such as `items[0].quantity: must be a number`.
    /// - Parameter failure: Why decoding failed.
    /// - Returns: An `invalidRequest` error.
    package static func invalid(_ failure: JSONDecodingFailure) -> CheckoutError {
        let (path, reason) = describe(failure)
        return invalid(path, reason)
    }

    /// A configuration problem naming the configuration key.
    static func configuration(_ field: String, _ reason: String) -> CheckoutError {
        CheckoutError(.invalidConfiguration, status: .internalServerError, reason, field: field)
    }

    /// A 404.
    /// - Parameter what: What was not found (`session`, `order`).
    /// - Returns: A `notFound` error.
    public static func notFound(_ what: String) -> CheckoutError {
        CheckoutError(.notFound, status: .notFound, "no such \(what)")
    }

    /// The JSON path (`lineItems[0].amount`, or `body`) and a sentence for a decoding failure.
    static func describe(_ failure: JSONDecodingFailure) -> (String, String) {
        switch failure.kind {
        case .missing: (failure.jsonPath, "is required")
        case .wrongType(let expected): (failure.jsonPath, "must be \(expected)")
        case .null(let expected): (failure.jsonPath, "must be \(expected), found null")
        case .malformed(let detail):
            failure.codingPath.isEmpty
                ? ("body", "is not valid JSON" + (failure.syntaxFault.map { " (\($0))" } ?? "")) : (failure.jsonPath, detail)
        }
    }
}
