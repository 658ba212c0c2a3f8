import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PassModel

/// The HTTP layer's one way of reading and writing bodies, for every service: bodies collected up to a limit (413
/// `payloadTooLarge` past it), JSON decoded by `PassModel`'s one decoding step (`JSONDecodingFailure`, which each API
/// words in its own messages: `path: must be a string` here, `is required` with a `field` in checkout's
/// `CheckoutRequestBody`), and one encoder configuration (sorted keys, unescaped slashes) for every JSON answer, the
/// error envelope's included.
///
/// The readers are inlined into their routes: under `tessera serve` each awaited call costs a trip through the event
/// loop's task queue, and a body read through two helper frames cost four.
enum JSONBody {
    @inline(__always)
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        let buffer = try await collect(request, limit: limit)
        do {
            return try JSONDecodingFailure.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let failure as JSONDecodingFailure {
            throw WebServiceError.invalid(failure.jsonPath, message(failure))
        } catch {
            throw WebServiceError.invalid("body", "request body is not valid JSON")
        }
    }

    /// The body as a JSON value, for bodies checked member by member.
    @inline(__always)
    static func value(from request: Request, limit: Int) async throws -> JSONValue {
        let buffer = try await collect(request, limit: limit)
        do {
            return try JSONDecodingFailure.decode(JSONValue.self, from: Data(buffer.readableBytesView))
        } catch let failure as JSONDecodingFailure {
            throw WebServiceError.invalid(failure.jsonPath, message(failure))
        } catch {
            throw WebServiceError.invalid("body", "request body is not valid JSON")
        }
    }

    /// The whole body, or 413 when it is longer than `limit` bytes.
    @inline(__always)
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        // A declared length over the limit is refused before a byte of the body is read.
        if let declared = request.headers[.contentLength],
           Int(declared).map({ $0 > limit }) ?? declared.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            throw WebServiceError(.payloadTooLarge, status: .contentTooLarge, "request body larger than \(limit) bytes")
        }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw WebServiceError(.payloadTooLarge, status: .contentTooLarge, "request body larger than \(limit) bytes")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A body that does not arrive whole (a malformed chunk, the connection gone) is the request's fault, not
            // its size: it was called 413 "larger than the limit" for three bytes.
            throw WebServiceError.invalid("body", "the request body could not be read whole (malformed chunked encoding, "
                                          + "or the connection ended before its end)")
        }
    }

    /// The failure in this API's words: `<path>: missing`, `<path>: must be a string`, ... (the path's members and
    /// indexes all joined by dots, `logs.[0]`).
    private static func message(_ failure: JSONDecodingFailure) -> String {
        let keys = failure.codingPath
        let path = keys.isEmpty ? "body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        switch failure.kind {
        case .missing: return "\(path): missing"
        case .wrongType(let expected): return "\(path): must be \(expected)"
        case .null(let expected): return "\(path): must be \(expected), found null"
        case .malformed(let detail):
            guard keys.isEmpty else { return "\(path): \(detail)" }
            return "request body is not valid JSON" + (failure.syntaxFault.map { " (\($0))" } ?? "")
        }
    }

    /// A value as a JSON answer.
    /// - Parameters:
    ///   - value: The value.
    ///   - status: The status.
    ///   - noStore: Whether the answer says `Cache-Control: no-store` (checkout's answers and the error envelope).
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, noStore: Bool = false) throws
        -> Response
    {
        response(data: try encoder.encode(value), status: status, noStore: noStore)
    }

    /// JSON bytes as they are, as an answer.
    static func response(data: Data, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if noStore { headers[.cacheControl] = "no-store" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// One encoder for every answer: encoding is thread-safe and its options never change after this.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
