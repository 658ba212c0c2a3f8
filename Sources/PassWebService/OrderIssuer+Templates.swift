public import Foundation
import NIOPosix
import OrderModel
import PassBundle
public import PassStore

extension OrderIssuer {
    /// The builder an existing order is signed with: the version of its template it is pinned to (see
    /// ``PassStore/PassRecord/templateVersion``), from the store when it is not the current content, so an edited
    /// template never changes a version a device already has; the current content for an order not pinned yet. Its
    /// identity must be the order's own Order Type ID: an identity taken out of the identities file leaves its orders
    /// refused (503), never signed with another identity's certificate (another brand's, which Wallet refuses at the
    /// order's own URL).
    /// - Throws: ``IssuerError`` `signingUnavailable`, or when the version cannot be loaded.
    func templateBuilder(for order: PassRecord) async throws -> OrderBuilder {
        let signed = templateSources.map(\.signer.identity.orderTypeIdentifier)
        if signed.isEmpty || (signed.contains { $0 != nil } && !signed.contains(order.passTypeIdentifier)) {
            throw IssuerError.noIdentity(order.passTypeIdentifier, items: "orders")
        }
        let builder = try await templateEntry(for: order).builder
        if let signs = builder.signer.identity.orderTypeIdentifier, signs != order.passTypeIdentifier {
            throw IssuerError.noIdentity(order.passTypeIdentifier, items: "orders")
        }
        return builder
    }

    /// The builder of template `name`'s current content (what an order made now is built from).
    func templateBuilder(named name: String) async throws -> OrderBuilder {
        try await templateEntry(named: name).builder
    }

    /// The current content of template `name`. A first use (and the first use after ``reloadTemplates()``) reads
    /// and hashes its files off the event loops and keeps the version in the store before any order is made from
    /// it, so every server process can build the orders pinned to it.
    func templateEntry(named name: String) async throws -> OrderTemplateLibrary.Entry {
        if let entry = templates.loadedEntry(named: name) { return entry }
        let templates = self.templates
        let (entry, content) = try await NIOThreadPool.singleton.runIfActive { try templates.read(named: name) }
        if let versions = store as? any TemplateVersionStore {
            _ = try await versions.saveTemplateVersion(name: name, version: entry.version, content: content, now: now())
        }
        templates.keepCurrent(entry, named: name)
        return entry
    }

    private func templateEntry(for order: PassRecord) async throws -> OrderTemplateLibrary.Entry {
        guard let version = order.templateVersion else { return try await templateEntry(named: order.template) }
        if let entry = templates.loadedEntry(named: order.template, version: version) { return entry }
        // Not read yet in this process: the current files may be that version (the common case after a start).
        if templates.loadedEntry(named: order.template) == nil,
           let entry = try? await templateEntry(named: order.template), entry.version == version
        {
            return entry
        }
        guard let versions = store as? any TemplateVersionStore,
              let content = try await versions.templateVersionContent(name: order.template, version: version)
        else {
            throw IssuerError.invalidTemplate(
                order.template, "version \(version), which order \(order.serialNumber) is built from, is not in the store")
        }
        let templates = self.templates
        let (name, type) = (order.template, order.passTypeIdentifier)
        return try await NIOThreadPool.singleton.runIfActive {
            try templates.earlierEntry(named: name, version: version, content: content, orderTypeIdentifier: type)
        }
    }

    /// Reads the order templates folders again (after `SIGHUP`, or when their files changed): templates used so far
    /// are read now and their new versions kept in the store. New orders use the new content; existing orders keep
    /// the version they were made from, through every later change.
    /// - Returns: The templates whose content changed, and those that no longer load.
    @discardableResult
    public func reloadTemplates() async -> TemplateReload {
        let before = Dictionary(templates.loadedNames.compactMap { name in
            templates.loadedEntry(named: name).map { (name, $0.version) }
        }, uniquingKeysWith: { first, _ in first })
        templates.forgetCurrent()
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
