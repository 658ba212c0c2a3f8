public import Foundation

/// The content of every template version passes were built from, kept in the store so that any server process can
/// build a pass from the version it is pinned to, after the template's files changed and after a restart.
///
/// A version is named by its content (see `TemplateSummary.contentVersion`), so saving one twice, from two processes
/// or two starts, stores it once.
public protocol TemplateVersionStore: Sendable {
    /// Keeps a template version's content (once per name and version) and pins the template's passes that have no
    /// version yet (passes stored before versions were kept) to it, in one transaction.
    /// - Parameters:
    ///   - name: The template's name.
    ///   - version: Its content version.
    ///   - content: Its files, as the issuer serializes them.
    ///   - now: When this version was first seen.
    /// - Returns: How many passes were pinned now.
    func saveTemplateVersion(name: String, version: String, content: Data, now: Date) async throws -> Int

    /// A template version's content.
    /// - Parameters:
    ///   - name: The template's name.
    ///   - version: Its content version.
    /// - Returns: The content saved with ``saveTemplateVersion(name:version:content:now:)``, or `nil`.
    func templateVersionContent(name: String, version: String) async throws -> Data?
}

/// How many passes of a template carry each of its versions: what an edited template leaves behind until a campaign
/// republishes it.
public protocol TemplateVersionCounting: Sendable {
    /// The passes of `template` by the version they are pinned to (`nil`: not pinned yet), in no order.
    /// - Parameters:
    ///   - template: The template's name.
    ///   - passTypeIdentifier: Only the passes of this type (`nil`: every type: a name once another brand's, or a
    ///     template moved to another identity, has passes of another type).
    func passCountsByTemplateVersion(template: String, passTypeIdentifier: String?) async throws
        -> [(version: String?, passes: Int)]
}

extension TemplateVersionCounting {
    /// The passes of `template`, of every pass type, by the version they are pinned to.
    public func passCountsByTemplateVersion(template: String) async throws -> [(version: String?, passes: Int)] {
        try await passCountsByTemplateVersion(template: template, passTypeIdentifier: nil)
    }
}
