public import Foundation
import PassBundle
public import PassModel
public import PassStore

extension PassIssuer {
    public func currentFieldValues(of item: PassRecord) async throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        if let entry = try? await templateEntry(for: item) {
            for (key, value) in CampaignRunner.fieldValues(of: entry.builder.template.pass) { values[key] = value }
        }
        for (key, value) in (try Self.document(item.data))["fields"]?.objectValue ?? [:] { values[key] = value }
        return values
    }

    public func fieldKeys(ofTemplate name: String) async throws -> [String] {
        Self.fieldKeys(of: try await templateEntry(named: name).builder.template.pass)
    }

    /// The keys of template `name`'s fields that hold numbers (see ``numericFieldKeys(of:)``): a value given for one
    /// is a JSON number, for Wallet to format.
    public func numericFieldKeys(ofTemplate name: String) async throws -> [String] {
        Self.numericFieldKeys(of: try await templateEntry(named: name).builder.template.pass)
    }

    /// The field keys of template `name`'s current content, then those only earlier versions have that passes are
    /// still pinned to (a field renamed by an edit: its old passes show the old key until a campaign republishes
    /// them), so a search or an export by template covers every pass made from it. Reads the store's count of the
    /// template's passes by version.
    public func fieldKeysOfEveryVersion(ofTemplate name: String) async throws -> [String] {
        let current = try await templateEntry(named: name)
        var keys = Self.fieldKeys(of: current.builder.template.pass)
        guard let counting = store as? any TemplateVersionCounting else { return keys }
        var known = Set(keys)
        let type = current.builder.passTypeIdentifier ?? ""
        for case (let version?, _) in try await counting.passCountsByTemplateVersion(template: name)
        where version != current.version {
            // A version that cannot be read (no longer in the store) adds nothing: its passes are named in their own
            // errors when fetched.
            guard let entry = try? await templates.entry(
                named: name, version: version, signing: type, for: "its passes", store: store, now: now())
            else { continue }
            for key in Self.fieldKeys(of: entry.builder.template.pass) where known.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    public func countFetch(of item: PassRecord) {
        usage.countFetch(passTypeIdentifier: item.passTypeIdentifier, template: item.template, at: now())
    }
}

extension OrderIssuer {
    /// Orders have no fields to search.
    public func currentFieldValues(of item: PassRecord) async throws -> [String: JSONValue] { [:] }

    /// Orders have no fields to export.
    public func fieldKeys(ofTemplate name: String) async throws -> [String] { [] }

    /// Order fetches are not counted (analytics covers passes).
    public func countFetch(of item: PassRecord) {}
}
