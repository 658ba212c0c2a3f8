import HTTPTypes
import OpenAPIRuntime
import TesseraHTTP

/// The `ApplePass` token of the request being handled. The generator leaves security schemes to the application,
/// and an `Authorization` header parameter is not given to operations, so this middleware reads it for them, as the
/// hand-written routes do (`Secrets.credential`).
enum ApplePassCredential {
    @TaskLocal static var token: Substring?
}

/// Puts the request's `ApplePass` token into ``ApplePassCredential/token`` for the operation handler.
struct ApplePassCredentialMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await ApplePassCredential.$token.withValue(Secrets.credential(scheme: "ApplePass", in: request.headerFields[.authorization])) {
            try await next(request, body, metadata)
        }
    }
}
