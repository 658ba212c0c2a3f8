import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat
import PassWebService

/// Google Wallet's public paths: the template images Google objects refer to, by content address.
struct GoogleRoutes: Sendable {
    let google: any GoogleWalletLinking

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.get("google/images/:file", use: image)
        group.head("google/images/:file", use: image)
        group.post("google/v1/callbacks", use: callback)
    }

    /// `POST /google/v1/callbacks`: Google's save and delete callbacks. 200 when verified (also for a repeated
    /// nonce, counted once), 400 when forged, stale, another issuer's or malformed, 404 for an object of no pass here,
    /// 503 when the keys or the store cannot be reached (Google retries).
    @Sendable func callback(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 64 << 10)
        } catch is NIOTooManyBytesError {
            return Self.text(.contentTooLarge, "a callback is at most 64 KiB\n")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A malformed chunk, the connection gone before the end: the request's fault, not its size.
            return Self.text(.badRequest, "the callback's body could not be read whole\n")
        }
        switch await google.receiveCallback(Data(buffer: body)) {
        case .accepted, .repeated:
            return Self.text(.ok, "ok\n")
        case .refused(let reason):
            return Self.text(.badRequest, "callback refused: \(reason)\n")
        case .unknownPass:
            return Self.text(.notFound, "no pass has this object\n")
        case .unavailable(let reason):
            context.logger.error("google: callback not recorded", metadata: ["reason": "\(reason)"])
            return Self.text(.serviceUnavailable, "try again later\n")
        }
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `GET /google/images/<sha256>.png`: a template image, cached for a year (its address changes with its bytes).
    @Sendable func image(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        let digest = file.hasSuffix(".png") ? String(file.dropLast(4)) : ""
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
              let data = await google.image(sha256: digest) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "no such image\n")))
        }
        var headers: HTTPFields = [.contentType: "image/png", .cacheControl: "public, max-age=31536000, immutable"]
        headers[.contentLength] = String(data.count)
        headers[.eTag] = "\"\(digest)\""
        if request.headers[.ifNoneMatch] == "\"\(digest)\"" {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers,
                        body: request.method == .head ? .init() : .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
