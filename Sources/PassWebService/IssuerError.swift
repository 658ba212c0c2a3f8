public import HTTPTypes

/// Why the issuer (its API, personalization, a `.pkpasses` download) refused a request: a code, the HTTP status it
/// stands for, and a message naming the field. The HTTP layer writes it as its error envelope.
public struct IssuerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure happened; the names are the ones the HTTP layer's error envelope uses.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidRequest, notFound, conflict, idempotencyConflict, passesBundleLimit, signingUnavailable, internalError
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The data or a body member is wrong (400 or 422).
        public static let invalidRequest = Code(.invalidRequest)
        /// No such pass or order (404).
        public static let notFound = Code(.notFound)
        /// The pass or order already exists (409).
        public static let conflict = Code(.conflict)
        /// The `Idempotency-Key` was used before with another body (409).
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// The passes asked for do not fit in one `.pkpasses` bundle (422).
        public static let passesBundleLimit = Code(.passesBundleLimit)
        /// The pass's signing identity cannot sign new versions now: its certificate expired (503).
        public static let signingUnavailable = Code(.signingUnavailable)
        /// The server's fault: a template that does not load, a bundle that cannot be made (500).
        public static let internalError = Code(.internalError)

        /// The code a status stands for when nothing more precise is known.
        static func standing(for status: HTTPResponse.Status) -> Code {
            switch status.code {
            case 404: .notFound
            case 409: .conflict
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
    /// What is wrong, naming the field, template or pass (the envelope's `message`).
    public let description: String
    /// The JSON path of the field at fault, such as `data.serialNumber`.
    public let field: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure; by default the one `status` stands for.
    ///   - status: The HTTP status.
    ///   - description: What is wrong; a `path: reason` sentence names its field.
    ///   - field: The field at fault; by default the path `description` starts with, if any.
    init(_ code: Code? = nil, status: HTTPResponse.Status, description: String, field: String? = nil) {
        self.code = code ?? .standing(for: status)
        self.status = status
        self.description = description
        self.field = field ?? Self.leadingPath(of: description)
    }

    /// The JSON path a `path: reason` sentence starts with (`data.fields.seat`, `passes[2]`), when it is a path into
    /// the request body; `nil` for other sentences (a library's own `pass.json: ...`).
    static func leadingPath(of sentence: String) -> String? {
        guard let colon = sentence.firstIndex(of: ":") else { return nil }
        let path = sentence[..<colon]
        let root = path.prefix { $0 != "." && $0 != "[" }
        guard requestMembers.contains(String(root)) else { return nil }
        let allowed = path.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._[]-".unicodeScalars.contains($0)
        }
        return allowed ? String(path) : nil
    }

    /// The top-level members of the issuer API's and personalization's request bodies.
    private static let requestMembers: Set<String> = [
        "body", "template", "data", "passes", "personalizationToken", "requiredPersonalizationInfo",
        "select", "republishTemplate", "void", "unvoid", "message", "scheduledAt", "state", "limit", "cursor",
        "barcodeMessage", "passTypeIdentifier", "serialNumber", "place",
    ]

    /// No template of that name (422), also what a key sees of another brand's template.
    public static func unknownTemplate(_ name: String) -> IssuerError {
        IssuerError(status: .unprocessableContent, description: "template: no template named \"\(name)\"")
    }

    static func invalidTemplate(_ name: String, _ reason: String) -> IssuerError {
        IssuerError(status: .internalServerError, description: "template \(name) cannot be loaded: \(reason)", field: nil)
    }

    static func invalidData(_ reason: String) -> IssuerError {
        IssuerError(status: .unprocessableContent, description: reason)
    }

    static func duplicate(_ passTypeIdentifier: String, _ serialNumber: String) -> IssuerError {
        IssuerError(status: .conflict, description: "data.serialNumber: a pass \(passTypeIdentifier) / \(serialNumber) already exists")
    }

    static func passesBundleLimit(_ description: String) -> IssuerError {
        IssuerError(.passesBundleLimit, status: .unprocessableContent, description: description)
    }

    /// A query parameter is malformed (400), named in the message and as the field.
    public static func badQuery(_ name: String, _ reason: String) -> IssuerError {
        IssuerError(status: .badRequest, description: "\(name): \(reason)", field: name)
    }

    /// A request header is malformed (400), named in the message and as the field.
    public static func badHeader(_ name: String, _ reason: String) -> IssuerError {
        IssuerError(status: .badRequest, description: "\(name): \(reason)", field: name)
    }

    static func invalid(_ reason: String, field: String? = nil) -> IssuerError {
        IssuerError(status: .unprocessableContent, description: reason, field: field)
    }

    /// No pass with the identifiers asked for (404).
    public static let notFound = IssuerError(status: .notFound, description: "no such pass")

    /// The same answer for a missing serial number, a pass without rewards enrollment and one already personalized,
    /// so the answer does not tell which serial numbers exist.
    public static let notAwaitingPersonalization = IssuerError(
        status: .notFound, description: "no pass awaiting personalization here")
}
