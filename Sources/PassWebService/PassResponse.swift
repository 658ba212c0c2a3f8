import Foundation
import HTTPTypes
import Hummingbird
import PassStore

/// A signed pass as an HTTP answer: `application/vnd.apple.pkpass` with `Last-Modified`, 304 for a fresh
/// `If-Modified-Since`, and HEAD answered like GET without the body.
enum PassResponse {
    static let contentType = "application/vnd.apple.pkpass"

    static func make(
        for pass: PassRecord, issuer: PassIssuer, request: Request, attachmentName: String? = nil
    ) throws -> Response {
        let lastModified = HTTPDate.format(pass.lastModified)
        if let header = request.headers[.ifModifiedSince], let since = HTTPDate.parse(header),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return Response(status: .notModified, headers: [.lastModified: lastModified])
        }
        let bundle = try issuer.bundleBuffer(for: pass)
        var headers: HTTPFields = [
            .contentType: contentType, .lastModified: lastModified, .contentLength: String(bundle.readableBytes),
            .cacheControl: "no-cache",
        ]
        if let attachmentName { headers[.contentDisposition] = "attachment; filename=\"\(attachmentName).pkpass\"" }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bundle))
    }
}
