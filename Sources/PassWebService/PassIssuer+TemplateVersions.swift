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
    /// The current content of template `name`. A first use (and the first use after ``reloadTemplates()``) reads
    /// and hashes its files off the event loops and keeps the version in the store before any pass can be made
    /// from it, so every server process can build the passes pinned to it.
    func templateEntry(named name: String) async throws -> TemplateLibrary.Entry {
        if let entry = templates.loadedEntry(named: name) { return entry }
        let templates = self.templates
        let (entry, content) = try await NIOThreadPool.singleton.runIfActive { try templates.read(named: name) }
        if let versions = store as? any TemplateVersionStore {
            _ = try await versions.saveTemplateVersion(name: name, version: entry.version, content: content, now: Date())
        }
        templates.keepCurrent(entry, named: name)
        return entry
    }

    /// The template version a pass is built from: the one it is pinned to (see ``PassStore/PassRecord/templateVersion``),
    /// from the store when it is not the current content; the current content for a pass not pinned yet.
    /// - Throws: ``IssuerError`` when the pass's version is neither current nor in the store.
    func templateEntry(for pass: PassRecord) async throws -> TemplateLibrary.Entry {
        let entry = try await anyTemplateEntry(for: pass)
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

    private func anyTemplateEntry(for pass: PassRecord) async throws -> TemplateLibrary.Entry {
        guard let version = pass.templateVersion else { return try await templateEntry(named: pass.template) }
        if let entry = templates.loadedEntry(named: pass.template, version: version) { return entry }
        // Not read yet in this process: the current files may be that version (the common case after a start).
        if templates.loadedEntry(named: pass.template) == nil,
           let entry = try? await templateEntry(named: pass.template), entry.version == version
        {
            return entry
        }
        guard let versions = store as? any TemplateVersionStore,
              let content = try await versions.templateVersionContent(name: pass.template, version: version)
        else {
            throw IssuerError.invalidTemplate(
                pass.template, "version \(version), which pass \(pass.serialNumber) is built from, is not in the store")
        }
        let templates = self.templates
        let name = pass.template
        let passTypeIdentifier = pass.passTypeIdentifier
        return try await NIOThreadPool.singleton.runIfActive {
            try templates.earlierEntry(
                named: name, version: version, content: content, passTypeIdentifier: passTypeIdentifier)
        }
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
        await readAgain { templates.forgetCurrent() }
    }

    /// Notes the versions of the templates used so far, runs `forget` (which drops the library's entries), then
    /// reads those templates again and says which changed and which no longer load.
    private func readAgain(after forget: () -> Void) async -> TemplateReload {
        let before = Dictionary(templates.loadedNames.compactMap { name in
            templates.loadedEntry(named: name).map { (name, $0.version) }
        }, uniquingKeysWith: { first, _ in first })
        forget()
        var reload = TemplateReload(changed: [], failed: [])
        for (name, old) in before.sorted(by: { $0.key < $1.key }) {
            do {
                let entry = try await templateEntry(named: name)
                if entry.version != old { reload.changed.append((name, old, entry.version)) }
            } catch {
                reload.failed.append((name, "\(error)"))
            }
        }
        return reload
    }
}

extension PassIssuer {
    /// The templates folders and the identities they sign with, in lookup order.
    public var templateSources: [TemplateSource] { templates.currentSources }

    /// Replaces the signing identities (renewed certificates): templates used so far are built again with the new
    /// signers, so new versions and fetches from now on are signed with them; requests already holding a builder
    /// finish with the one they hold.
    /// - Parameter sources: The folders and their new signers.
    /// - Returns: The templates whose content changed meanwhile, and those that no longer load.
    @discardableResult
    public func replaceSources(_ sources: [TemplateSource]) async -> TemplateReload {
        await readAgain {
            templates.replaceSources(sources)
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
