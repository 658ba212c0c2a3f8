import TesseraHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassStore
import Timestamps

/// A signed pass as an HTTP answer: `application/vnd.apple.pkpass` with `Last-Modified`, 304 for a fresh
/// `If-Modified-Since`, and HEAD answered like GET without the body. A pass that cannot be built (its stored data
/// no longer fits its template) is the server's fault: 500 and an error in the log, never a 4xx to Wallet.
enum PassResponse {
    static let contentType = "application/vnd.apple.pkpass"

    static func make(
        for pass: PassRecord, issuer: PassIssuer, request: Request, logger: Logger, attachmentName: String? = nil
    ) async throws -> Response {
        if let answer = withoutBuilding(for: pass, issuer: issuer, request: request, attachmentName: attachmentName) {
            return answer
        }
        let bundle: ByteBuffer
        do {
            bundle = try await issuer.bundleBuffer(for: pass)
        } catch {
            logger.error("a stored pass could not be built", metadata: [
                "passTypeIdentifier": .string(pass.passTypeIdentifier), "template": .string(pass.template),
                "updateTag": .stringConvertible(pass.updateTag), "error": .string("\(error)"),
            ])
            throw WebServiceError.passNotBuilt
        }
        return ok(bundle, for: pass, request: request, attachmentName: attachmentName)
    }

    /// The answer when nothing has to be built: 304 for a fresh `If-Modified-Since`, or the bundle from the issuer's
    /// cache; `nil` when the bundle must be built (``make(for:issuer:request:logger:attachmentName:)``).
    ///
    /// Synchronous, so the device and download routes answer the common cases without an `await`: under
    /// `tessera serve` each awaited call costs a trip through the event loop's task queue even when it does not
    /// suspend.
    static func withoutBuilding(
        for pass: PassRecord, issuer: PassIssuer, request: Request, attachmentName: String? = nil
    ) -> Response? {
        if let header = request.headers[.ifModifiedSince], let since = HTTPDate.parse(header),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return Response(status: .notModified, headers: [.lastModified: HTTPDate.format(pass.lastModified)])
        }
        guard let bundle = issuer.cachedBundleBuffer(for: pass) else { return nil }
        return ok(bundle, for: pass, request: request, attachmentName: attachmentName)
    }

    private static func ok(_ bundle: ByteBuffer, for pass: PassRecord, request: Request, attachmentName: String?) -> Response {
        var headers: HTTPFields = [
            .contentType: contentType, .lastModified: HTTPDate.format(pass.lastModified),
            .contentLength: String(bundle.readableBytes), .cacheControl: "no-cache",
        ]
        if let attachmentName { headers[.contentDisposition] = "attachment; filename=\"\(attachmentName).pkpass\"" }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bundle))
    }
}
