import Foundation
import HTTPTypes
import Hummingbird
import PassStore
import PassWebService

/// A pass's version as an HTTP entity tag: `ETag: "<updateTag>"` on the issuer API's answers about one pass, and the
/// `If-Match` a change may carry to be made only over the version its client read.
enum EntityTag {
    /// `response` with the pass's `ETag`.
    static func tagged(_ response: Response, _ pass: PassRecord) -> Response {
        var response = response
        response.headers[.eTag] = "\"\(pass.updateTag)\""
        return response
    }

    /// The versions an `If-Match` header allows: `nil` without one, or with `*` (any version of a pass that exists).
    /// Strong comparison (RFC 9110 §13.1.1): a weak tag (`W/"…"`) matches no version.
    /// - Throws: ``IssuerError`` 400 naming `If-Match` when it is not a list of quoted entity tags.
    static func updateTags(ifMatch header: String?) throws -> Set<Int64>? {
        guard let header else { return nil }
        guard header.utf8.count <= 1024 else {
            throw IssuerError.badHeader("If-Match", "at most 1024 bytes (a pass's ETag, or a few)")
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return nil }
        var tags: Set<Int64> = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            let weak = item.hasPrefix("W/")
            let quoted = weak ? String(item.dropFirst(2)) : item
            guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\""),
                  !quoted.dropFirst().dropLast().contains("\"")
            else {
                throw IssuerError.badHeader("If-Match", "must be * or quoted entity tags such as \"42\" (a pass's ETag)")
            }
            if !weak, let tag = Int64(quoted.dropFirst().dropLast()) { tags.insert(tag) }
        }
        return tags
    }
}
