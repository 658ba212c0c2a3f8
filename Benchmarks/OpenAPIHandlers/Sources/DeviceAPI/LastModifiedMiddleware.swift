import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Undoes the percent-encoding OpenAPIRuntime applies to the `Last-Modified` header (it serializes header parameters
/// as URI components, `Wed%2C%2025%20Nov...`), so Wallet receives the HTTP-date the hand-written routes send. The
/// generator's maintainers name such a middleware as the way out (apple/swift-openapi-generator issues 529 and 857).
struct LastModifiedMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        if let value = response.headerFields[.lastModified], value.utf8.contains(UInt8(ascii: "%")) {
            response.headerFields[.lastModified] = value.removingPercentEncoding ?? value
        }
        return (response, responseBody)
    }
}
