public import TesseraHTTP
public import Hummingbird
public import HTTPTypes

/// Why the issuer API (or personalization) refused a request; each maps to an HTTP status, a code and a message
/// naming the field, answered with the ``ErrorEnvelope``.
public struct IssuerError: Error, Sendable, CustomStringConvertible, HTTPResponseError {
    /// What kind of failure happened.
    public let code: WebServiceError.Code
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
    init(_ code: WebServiceError.Code? = nil, status: HTTPResponse.Status, description: String, field: String? = nil) {
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
    ]

    static func unknownTemplate(_ name: String) -> IssuerError {
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

    static let notFound = IssuerError(status: .notFound, description: "no such pass")

    /// The same answer for a missing serial number, a pass without rewards enrollment and one already personalized,
    /// so the answer does not tell which serial numbers exist.
    public static let notAwaitingPersonalization = IssuerError(
        status: .notFound, description: "no pass awaiting personalization here")

    /// The envelope.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    /// - Returns: The response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        ErrorEnvelope(code: code.description, message: description, field: field).response(status: status)
    }
}
