import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassStore
import Timestamps

/// A signed pass or order as an HTTP answer: its issuer's media type (`application/vnd.apple.pkpass`,
/// `application/vnd.apple.finance.order`) with `Last-Modified`, 304 for a fresh `If-Modified-Since`, and HEAD
/// answered like GET without the body. An item that cannot be built (its stored data no longer fits its template) is
/// the server's fault: 500 and an error in the log, never a 4xx to Wallet; one whose identity cannot sign now (taken
/// out of the identities file, a key that cannot be reached) is 503 `signingUnavailable`.
enum PassResponse {
    static func make(
        for pass: PassRecord, issuer: some WalletItemIssuer, request: Request, logger: Logger, attachmentName: String? = nil
    ) async throws -> Response {
        if let answer = withoutBuilding(for: pass, issuer: issuer, request: request, attachmentName: attachmentName) {
            return answer
        }
        let bundle: ByteBuffer
        do {
            bundle = try await issuer.bundleBuffer(for: pass)
        } catch let error as IssuerError where error.code == .signingUnavailable {
            // Its identity was taken out of the identities file, or its key cannot sign now: the version is not
            // signed yet and cannot be until it can (503, as the issuer API answers; Wallet asks again later).
            logger.warning("a stored \(issuer is PassIssuer ? "pass" : "order") cannot be signed now", metadata: [
                "passTypeIdentifier": .string(pass.passTypeIdentifier), "error": .string("\(error)"),
            ])
            throw WebServiceError(error)
        } catch {
            logger.error("a stored \(issuer is PassIssuer ? "pass" : "order") could not be built", metadata: [
                "passTypeIdentifier": .string(pass.passTypeIdentifier), "template": .string(pass.template),
                "updateTag": .stringConvertible(pass.updateTag), "error": .string("\(error)"),
            ])
            throw WebServiceError.passNotBuilt
        }
        return ok(bundle, for: pass, issuer: issuer, request: request, attachmentName: attachmentName)
    }

    /// The answer when nothing has to be built: 304 for a fresh `If-Modified-Since`, or the bundle from the issuer's
    /// cache; `nil` when the bundle must be built (``make(for:issuer:request:logger:attachmentName:)``).
    ///
    /// Synchronous, so the device and download routes answer the common cases without an `await`: under
    /// `tessera serve` each awaited call costs a trip through the event loop's task queue even when it does not
    /// suspend.
    static func withoutBuilding<Issuer: WalletItemIssuer>(
        for pass: PassRecord, issuer: Issuer, request: Request, attachmentName: String? = nil
    ) -> Response? {
        if let header = request.headers[.ifModifiedSince], let since = HTTPDate.parse(header),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return Response(status: .notModified, headers: [.lastModified: lastModified(of: pass)])
        }
        guard let bundle = issuer.cachedBundleBuffer(for: pass) else { return nil }
        return ok(bundle, for: pass, issuer: issuer, request: request, attachmentName: attachmentName)
    }

    /// The item's `Last-Modified`, never later than the answer's `Date` (RFC 9110 §8.8.2.1): a burst of changes moves
    /// an item's stamp a second per change, ahead of the clock. A device sending such an earlier date back gets the
    /// item again (its stamp is later) until the clock has caught up, never a 304 for a version it has not seen.
    private static func lastModified(of pass: PassRecord) -> String {
        HTTPDate.format(min(pass.lastModified, Date()))
    }

    private static func ok<Issuer: WalletItemIssuer>(
        _ bundle: ByteBuffer, for pass: PassRecord, issuer: Issuer, request: Request, attachmentName: String?
    ) -> Response {
        var headers: HTTPFields = [
            .contentType: Issuer.contentType, .lastModified: lastModified(of: pass),
            // Private: a shared cache (a CDN, a proxy) never keeps a holder's pass or a buyer's order, which carries
            // their name and address; each fetch is checked again all the same.
            .contentLength: String(bundle.readableBytes), .cacheControl: "private, no-cache",
        ]
        if let attachmentName { headers[.contentDisposition] = "attachment; filename=\"\(attachmentName).\(Issuer.fileExtension)\"" }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bundle))
    }
}
