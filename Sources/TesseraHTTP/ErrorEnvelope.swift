import Foundation
public import HTTPTypes
public import Hummingbird
public import Logging
import PassWebService

/// The one error body of Tessera's JSON routes (`/v1`, `/api/v1`, `/download`, `/checkout/v1`):
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`, sent with the failure's HTTP status.
///
/// `code` is a stable name for the kind of failure (``WebServiceError/Code``, `CheckoutError.Code`), `message` a
/// sentence for people, `field` the JSON path of the member at fault when there is one (`items[1].quantity`).
/// Where Apple's protocols fix the answer the envelope is not used: the device endpoints' bare 401, 204 and 304, and
/// the authorization result of `POST /checkout/v1/sessions/{id}/authorize`.
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    /// The failure.
    public struct Detail: Codable, Sendable, Equatable {
        /// What kind of failure, such as `invalidRequest`.
        public var code: String
        /// A sentence naming what is wrong.
        public var message: String
        /// The JSON path of the field at fault, when one is.
        public var field: String?
    }

    /// The failure.
    public var error: Detail

    /// Creates an envelope.
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - message: A sentence naming what is wrong.
    ///   - field: The JSON path of the field at fault.
    public init(code: String, message: String, field: String? = nil) {
        error = Detail(code: code, message: message, field: field)
    }

    /// The envelope as an HTTP answer: JSON, never cached.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: Headers the failure adds (`Retry-After`, `WWW-Authenticate`, `Allow`).
    /// - Returns: The response.
    public func response(status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        fields.append(contentsOf: headers)
        // Three strings always encode; the fallback only keeps this function total.
        let data = (try? JSONBody.encoder.encode(self)) ?? Data(#"{"error":{"code":"internalError","message":""}}"#.utf8)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Any error as one that answers with the envelope: errors that already answer with it (or that a protocol
    /// fixes) pass through; Hummingbird's own ``HTTPError`` (the router's not-found, a missing path parameter) gets the
    /// code its status stands for; anything else is logged and becomes 500 `internalError`.
    /// - Parameters:
    ///   - error: The error a route threw.
    ///   - request: The request, for the log.
    ///   - logger: Where an unexpected failure is written.
    /// - Returns: The error to throw.
    public static func answering(_ error: any Error, request: Request, logger: Logger) -> any Error {
        switch error {
        case let error as HTTPError:
            return WebServiceError(httpError: error)
        case let error as IssuerError:
            return WebServiceError(error)
        case is any HTTPResponseError, is CancellationError:
            return error
        default:
            logger.error("request failed", metadata: ["path": "\(LogRedactor.requestPath(request.uri.path))", "error": "\(error)"])
            return WebServiceError.unexpected
        }
    }
}

/// Answers every failure of the routes it wraps with the ``ErrorEnvelope`` (``ErrorEnvelope/answering(_:request:logger:)``).
/// For route groups off the device endpoints' hot path; those catch in their handlers instead, which costs nothing
/// until something fails.
package struct ErrorEnvelopeMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }
}
