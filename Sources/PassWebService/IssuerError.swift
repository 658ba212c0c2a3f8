public import Hummingbird
import HTTPTypes

/// Why the issuer API refused a request; each maps to an HTTP status and a message naming the field.
public struct IssuerError: Error, Sendable, CustomStringConvertible, HTTPResponseError {
    /// The HTTP status the error is answered with.
    public let status: HTTPResponse.Status
    /// What is wrong, naming the field, template or pass.
    public let description: String

    static func unknownTemplate(_ name: String) -> IssuerError {
        IssuerError(status: .unprocessableContent, description: "template: no template named \"\(name)\"")
    }

    static func invalidTemplate(_ name: String, _ reason: String) -> IssuerError {
        IssuerError(status: .internalServerError, description: "template \(name) cannot be loaded: \(reason)")
    }

    static func invalidData(_ reason: String) -> IssuerError {
        IssuerError(status: .unprocessableContent, description: reason)
    }

    static func duplicate(_ passTypeIdentifier: String, _ serialNumber: String) -> IssuerError {
        IssuerError(status: .conflict, description: "data.serialNumber: a pass \(passTypeIdentifier) / \(serialNumber) already exists")
    }

    static let notFound = IssuerError(status: .notFound, description: "no such pass")

    /// The same answer for a missing serial number, a pass without rewards enrollment and one already personalized,
    /// so the answer does not tell which serial numbers exist.
    public static let notAwaitingPersonalization = IssuerError(
        status: .notFound, description: "no pass awaiting personalization here")

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, message: description).response(from: request, context: context)
    }
}
