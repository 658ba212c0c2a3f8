import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PassWebService

/// Google Wallet's public paths: the template images Google objects refer to, by content address.
struct GoogleRoutes: Sendable {
    let google: any GoogleWalletLinking

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.get("google/images/:file", use: image)
        group.head("google/images/:file", use: image)
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
