public import Foundation
import Logging
import NIOPosix
public import PassStore
import PassBundle
import Synchronization

/// What reading the templates folder again found.
public struct TemplateReload: Sendable {
    /// Templates whose content changed: name, the version before and the version now.
    public var changed: [(name: String, from: String, to: String)]
    /// Templates that no longer load (removed, or their files are now invalid), with the reason: passes made from
    /// them keep being served from the version they are pinned to.
    public var failed: [(name: String, reason: String)]
}

extension PassIssuer {
    /// The current content of template `name`, its version kept in the store before any pass is made from it (see
    /// ``VersionedTemplateLibrary/currentEntry(named:store:now:)``).
    func templateEntry(named name: String) async throws -> TemplateLibrary.Entry {
        try await templates.currentEntry(named: name, store: store, now: Date())
    }

    /// The template version a pass is built from: the one it is pinned to (see ``PassStore/PassRecord/templateVersion``),
    /// from the store when it is not the current content; the current content for a pass not pinned yet.
    /// - Throws: ``IssuerError`` when the pass's version is neither current nor in the store.
    func templateEntry(for pass: PassRecord) async throws -> TemplateLibrary.Entry {
        let entry = try await templates.entry(for: pass, kind: "pass", store: store, now: Date())
        // The template's folder may be another identity's now (the pass's own identity taken out of the identities
        // file, another brand's folder holding a template of that name): its certificate would sign the pass as
        // another brand's.
        if let signs = entry.builder.passTypeIdentifier, signs != pass.passTypeIdentifier,
           entry.builder.signer.credentials.identity.passTypeIdentifier != nil
        {
            throw refusal(passTypeIdentifier: pass.passTypeIdentifier)
                ?? IssuerError.noIdentity(pass.passTypeIdentifier, items: "passes")
        }
        return entry
    }

    /// The current content version of template `name` (what a pass made now, or republished now, is built from).
    /// - Throws: ``IssuerError`` when there is no such template or it does not load.
    public func currentTemplateVersion(named name: String) async throws -> String {
        try await templateEntry(named: name).version
    }

    /// Reads the templates folder again (after `SIGHUP`, or when its files changed): templates used so far are read
    /// now and their new versions kept in the store. New passes use the new content; existing passes keep the version
    /// they are pinned to until a campaign republishes them.
    /// - Returns: The templates whose content changed, and those that no longer load.
    @discardableResult
    public func reloadTemplates() async -> TemplateReload {
        await templates.readAgain(store: store, now: Date.init) { templates.versions.forgetCurrent() }
    }
}

extension PassIssuer {
    /// The templates folders and the identities they sign with, in lookup order.
    public var templateSources: [TemplateSource] { templates.versions.currentSources }

    /// Template names in several identities' folders now (copied at run time; start-up refuses them): the folder
    /// passes are made from and the copies ignored.
    public var templateClashes: [(name: String, kept: URL?, ignored: [URL])] { templates.versions.clashes }

    /// Replaces the signing identities (renewed certificates): templates used so far are built again with the new
    /// signers, so new versions and fetches from now on are signed with them; requests already holding a builder
    /// finish with the one they hold.
    /// - Parameter sources: The folders and their new signers.
    /// - Returns: The templates whose content changed meanwhile, and those that no longer load.
    @discardableResult
    public func replaceSources(_ sources: [TemplateSource]) async -> TemplateReload {
        await templates.readAgain(store: store, now: Date.init) {
            templates.versions.replaceSources(sources)
            messageBuilders.withLock { $0.removeAll() }
        }
    }
}

extension PassIssuer {
    /// The Pass Type ID a template's passes get: its identity's certificate's (else the template's own).
    /// - Throws: ``IssuerError`` when there is no such template or it does not load.
    public func signedPassTypeIdentifier(ofTemplate name: String) async throws -> String? {
        try await templateEntry(named: name).builder.passTypeIdentifier
    }
}
