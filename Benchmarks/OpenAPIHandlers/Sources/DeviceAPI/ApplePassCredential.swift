import HTTPTypes
import OpenAPIRuntime

/// The `ApplePass` token of the request being handled. The generator leaves security schemes to the application,
/// and an `Authorization` header parameter is not given to operations, so this middleware reads it for them.
enum ApplePassCredential {
    @TaskLocal static var token: Substring?

    /// The token of an `Authorization: ApplePass <token>` header (scheme in any case, one or more spaces), or `nil`:
    /// the same reading as the hand-written routes.
    static func token(in header: String?) -> Substring? {
        let scheme = "ApplePass"
        guard let header, header.utf8.count > scheme.utf8.count else { return nil }
        let given = header.utf8.prefix(scheme.utf8.count)
        guard given.elementsEqual(scheme.utf8, by: { lowercase($0) == lowercase($1) }) else { return nil }
        let rest = header.dropFirst(scheme.count)
        guard rest.first == " " else { return nil }
        let token = rest.drop { $0 == " " }
        return token.isEmpty ? nil : token
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}

/// Puts the request's `ApplePass` token into ``ApplePassCredential/token`` for the operation handler.
struct ApplePassCredentialMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await ApplePassCredential.$token.withValue(ApplePassCredential.token(in: request.headerFields[.authorization])) {
            try await next(request, body, metadata)
        }
    }
}
