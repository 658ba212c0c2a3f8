import Foundation
import Hummingbird
import NIOCore
import HTTPTypes
import PassModel

/// Size-limited JSON request bodies whose decoding errors name the field, and JSON responses.
enum JSONRequest {
    /// Collects and decodes a body.
    /// - Returns: The value and the raw bytes (hashed for idempotency).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> (T, Data) {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw CheckoutError.invalid(nil, "request body larger than \(limit) bytes", status: .contentTooLarge)
        }
        let data = Data(buffer.readableBytesView)
        return (try decode(type, from: data), data)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecodingFailure.decode(T.self, from: data)
        } catch let failure as JSONDecodingFailure {
            let (path, reason) = describe(failure)
            throw CheckoutError.invalid(path, reason)
        } catch let error as CheckoutError {
            throw error
        } catch {
            throw CheckoutError.invalid(nil, "request body is not valid JSON")
        }
    }

    /// The JSON path (`lineItems[0].amount`, or `body`) and a sentence for a decoding failure.
    static func describe(_ failure: JSONDecodingFailure) -> (String, String) {
        switch failure.kind {
        case .missing: (failure.jsonPath, "is required")
        case .wrongType(let expected): (failure.jsonPath, "must be \(expected)")
        case .null(let expected): (failure.jsonPath, "must be \(expected), found null")
        case .malformed(let detail):
            failure.codingPath.isEmpty ? ("body", "is not valid JSON") : (failure.jsonPath, detail)
        }
    }
}

/// JSON responses with sorted keys and unescaped slashes.
enum JSONResponse {
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return raw(try encoder.encode(value), status: status)
    }

    static func raw(_ data: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8")
        -> Response
    {
        Response(status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
