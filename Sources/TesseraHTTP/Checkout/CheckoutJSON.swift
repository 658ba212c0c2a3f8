import Checkout
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PassModel

/// Size-limited checkout request bodies, JSON ones decoded with errors naming the field.
enum CheckoutRequestBody {
    /// Collects a body of at most `limit` bytes.
    /// - Throws: 413 `payloadTooLarge` past the limit (``JSONBody/collect(_:limit:)``).
    static func collect(_ request: Request, limit: Int) async throws -> Data {
        Data(try await JSONBody.collect(request, limit: limit).readableBytesView)
    }

    /// Collects and decodes a body.
    /// - Returns: The value and the raw bytes (hashed for idempotency).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> (T, Data) {
        let data = try await collect(request, limit: limit)
        return (try decode(type, from: data), data)
    }

    /// Decodes JSON bytes.
    /// - Throws: ``CheckoutError`` `invalidRequest` naming the member at fault, or the body.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecodingFailure.decode(T.self, from: data)
        } catch let failure as JSONDecodingFailure {
            throw CheckoutError.invalid(failure)
        } catch let error as CheckoutError {
            throw error
        } catch {
            throw CheckoutError.invalid(nil, "request body is not valid JSON")
        }
    }
}

/// Checkout's answers: JSON (``JSONBody``'s encoder) and HTML pages; never cached.
enum CheckoutResponse {
    /// A value as JSON.
    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        try JSONBody.response(value, status: status, noStore: true)
    }

    /// JSON bytes as they are (Apple's merchant session).
    static func raw(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        JSONBody.response(data: data, status: status, noStore: true)
    }

    /// A checkout page: 200, or 404 for a page that says what was not found.
    static func html(_ page: CheckoutPage) -> Response {
        Response(
            status: page.found ? .ok : .notFound,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                      .contentSecurityPolicy: page.contentSecurityPolicy,
                      HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
    }
}
