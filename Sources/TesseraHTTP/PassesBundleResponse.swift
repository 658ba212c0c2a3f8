public import Foundation
public import Hummingbird
import HTTPTypes
import NIOCore

/// A `.pkpasses` archive as an HTTP answer: `application/vnd.apple.pkpasses`, offered as a file to save or open.
public enum PassesBundleResponse {
    /// Apple's media type for a `.pkpasses` bundle.
    public static let mediaType = "application/vnd.apple.pkpasses"

    /// The response for a bundle (the pass web service's `PassIssuer.passesBundle(for:logger:)`).
    /// - Parameters:
    ///   - archive: The `.pkpasses` bytes.
    ///   - attachmentName: The download's file name without `.pkpasses` (letters, digits, `._-` only).
    /// - Returns: A 200 answer, not to be cached (the passes change).
    public static func make(_ archive: Data, attachmentName: String) -> Response {
        let safeName = String(attachmentName.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0))
        }.map(Character.init))
        let headers: HTTPFields = [
            .contentType: mediaType, .contentLength: String(archive.count),
            .contentDisposition: "attachment; filename=\"\(safeName.isEmpty ? "passes" : safeName).pkpasses\"",
            .cacheControl: "no-store",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: archive)))
    }
}
