public import Foundation
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

    /// The current content of template `name`, its version kept in the store before any order is made from it (see
    /// ``VersionedTemplateLibrary/currentEntry(named:store:now:)``).
    func templateEntry(named name: String) async throws -> OrderTemplateLibrary.Entry {
        try await templates.currentEntry(named: name, store: store, now: now())
    }

    private func templateEntry(for order: PassRecord) async throws -> OrderTemplateLibrary.Entry {
        try await templates.entry(for: order, kind: "order", store: store, now: now())
    }

    /// Reads the order templates folders again (after `SIGHUP`, or when their files changed): templates used so far
    /// are read now and their new versions kept in the store. New orders use the new content; existing orders keep
    /// the version they were made from, through every later change.
    /// - Returns: The templates whose content changed, and those that no longer load.
    @discardableResult
    public func reloadTemplates() async -> TemplateReload {
        await templates.readAgain(store: store, now: now) { templates.versions.forgetCurrent() }
    }

    /// The names of the order templates in `directory` (sub-folders holding `order.json`).
    public static func templateNames(in directory: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter {
            !$0.hasPrefix(".") && TemplateLibrary.isValidName($0)
                && FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).appendingPathComponent("order.json").path)
        }
    }

    /// Order template names in several identities' folders now (copied at run time; start-up refuses them): the
    /// folder orders are made from and the copies ignored.
    public var templateClashes: [(name: String, kept: URL?, ignored: [URL])] { templates.versions.clashes }
}
