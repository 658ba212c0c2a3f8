import Foundation
import Hummingbird
import NIOCore
import HTTPTypes

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
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            let (path, reason) = describe(error)
            throw CheckoutError.invalid(path, reason)
        } catch let error as CheckoutError {
            throw error
        } catch {
            throw CheckoutError.invalid(nil, "request body is not valid JSON")
        }
    }

    /// The JSON path and a sentence for a decoding error.
    static func describe(_ error: DecodingError) -> (String, String) {
        switch error {
        case .keyNotFound(let key, let context): (path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context): (path(context.codingPath), "must be \(describe(type))")
        case .valueNotFound(let type, let context): (path(context.codingPath), "must be \(describe(type)), found null")
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? ("body", "is not valid JSON") : (path(context.codingPath), context.debugDescription)
        @unknown default: ("body", "is not valid JSON")
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue { result += "[\(index)]" } else { result += (result.isEmpty ? "" : ".") + key.stringValue }
        }
        return result.isEmpty ? "body" : result
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
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
