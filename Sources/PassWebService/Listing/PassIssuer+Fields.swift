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
