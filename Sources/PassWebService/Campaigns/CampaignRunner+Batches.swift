public import Foundation
public import PassModel
public import PassStore
import HTTPTypes
import PassBundle

/// Reading a campaign's next batch of passes and computing each one's new version (``CampaignRunner/run(_:)``
/// writes them).
extension CampaignRunner {
    /// Reads the passes after the campaign's cursor and computes their changes.
    func nextBatch(of campaign: CampaignRecord, request: CampaignRequest, fits: TemplateVersionFits)
        async throws -> CampaignBatch
    {
        let limit = configuration.batchSize
        var passes: [PassRecord]
        var missing: [String] = []
        let nextCursor: String?
        let finishes: Bool
        var passType: String
        var templateFields: [String: JSONValue] = [:]
        var templateVersion: String?
        var wantedFields: [String: JSONValue] = [:]
        switch request.selection {
        case .template(let name, let fields):
            passes = try await store.campaignPasses(.template(name), after: campaign.cursor, limit: limit)
            finishes = passes.count < limit
            nextCursor = passes.last?.serialNumber ?? campaign.cursor
            // The passes of the type the campaign was accepted for (another brand's passes once made from the name
            // are not its own); the first of them gives a removed folder's version.
            let ownType = request.templatePassType
            let first = passes.first { ownType == nil || $0.passTypeIdentifier == ownType }
            let entry: TemplateLibrary.Entry?
            do {
                entry = try await issuer.templateEntry(named: name)
            } catch let error as IssuerError
                        where error.status == .unprocessableContent || error.status == .internalServerError {
                // Republishing moves the passes to the version fixed when it was accepted: from the store when this
                // process cannot read the folder (not yet copied to this host, half-saved since).
                if let version = request.templateVersion {
                    if let first {
                        entry = try await issuer.templateEntry(for: Self.pinned(first, to: version))
                    } else {
                        entry = nil
                    }
                } else if request.action == .republishTemplate {
                    // A campaign accepted before versions were fixed needs the current content: a folder missing here
                    // is waited for as a folder that does not load is, and the campaign fails after the patience.
                    guard error.status == .unprocessableContent else { throw error }
                    throw IssuerError(status: .serviceUnavailable,
                                      description: "select.template: no template named \"\(name)\" on this server to republish")
                } else if let first {
                    // The folder is gone or no longer loads (an edit broke it): the passes are changed from the
                    // versions they are pinned to, and the batch's first pass's version gives the pass type and the
                    // fields' defaults.
                    entry = try await issuer.templateEntry(for: first)
                } else {
                    entry = nil
                }
            }
            passType = entry?.builder.passTypeIdentifier ?? ""
            if let ownType, !passType.isEmpty, passType != ownType {
                // The name is signed as another pass type now (its folder moved to another brand's identity): this
                // campaign's passes are not that brand's to change.
                throw IssuerError(status: .conflict, description: """
                    select.template: "\(name)" is signed as \(passType) now; the campaign was accepted for the passes \
                    of \(ownType)
                    """)
            }
            templateVersion = entry?.version
            if !fields.isEmpty {
                wantedFields = fields
                for field in entry.map({ Self.fieldValues(of: $0.builder.template.pass) }) ?? [] {
                    templateFields[field.key] = field.value
                }
            }
        case .serialNumbers(let type, let serials):
            passType = type
            let start = campaign.cursor.map { cursor in serials.partitioningIndex { $0 > cursor } } ?? 0
            let chunk = Array(serials[start..<min(serials.count, start + limit)])
            passes = chunk.isEmpty ? [] : try await store.campaignPasses(.serialNumbers(passTypeIdentifier: type, chunk), after: nil, limit: chunk.count)
            let found = Set(passes.map(\.serialNumber))
            missing = chunk.filter { !found.contains($0) }
            finishes = start + chunk.count >= serials.count
            nextCursor = chunk.last ?? campaign.cursor
        }
        passes = passes.filter { $0.passTypeIdentifier == passType }
        // No identity signs the passes' type now (its certificate expired, its entry taken out of the identities
        // file): not the passes' fault, and the same for all of them. The campaign waits for a renewal as for a
        // template that does not load, then fails with this one reason, its passes unchanged.
        if !passes.isEmpty, let refusal = issuer.refusal(passTypeIdentifier: passType) { throw refusal }
        var changes: [CampaignPassChange] = []
        var failures = missing.map { CampaignFailure(serialNumber: $0, reason: "no such pass") }
        var matched = missing.count
        var defaultsByVersion: [String: [String: JSONValue]] = [:]
        for pass in passes {
            switch request.action {
            case .unvoid: guard pass.voided else { continue }
            default: guard request.includeVoided || !pass.voided else { continue }
            }
            if !wantedFields.isEmpty {
                guard let document = try? PassIssuer.document(pass.data) else { continue }
                let own = document["fields"]?.objectValue ?? [:]
                // A field the pass does not set shows its template's value, as the version the pass is pinned to has
                // it (what the holder sees, and what a search of the passes compares).
                var defaults = templateFields
                if let version = pass.templateVersion, version != templateVersion {
                    if let known = defaultsByVersion[version] {
                        defaults = known
                    } else if let pinned = try? await issuer.templateEntry(for: pass) {
                        defaults = Dictionary(Self.fieldValues(of: pinned.builder.template.pass).map { ($0.key, $0.value) },
                                              uniquingKeysWith: { _, last in last })
                        defaultsByVersion[version] = defaults
                    }
                }
                let matches = wantedFields.allSatisfy { key, wanted in
                    Self.sameValue(own[key] ?? defaults[key], wanted)
                }
                guard matches else { continue }
            }
            matched += 1
            do {
                var republishedVersion: String?
                if case .republishTemplate = request.action {
                    if let version = request.templateVersion {
                        republishedVersion = version
                    } else {
                        republishedVersion = try await issuer.currentTemplateVersion(named: pass.template)
                    }
                }
                // A pass its new version would not build for is left as it is and reported: never a version that
                // devices and links could not fetch.
                if let reason = try await misfit(pass, request: request, fits: fits) {
                    failures.append(CampaignFailure(serialNumber: pass.serialNumber, reason: reason))
                    continue
                }
                let changed = try change(pass, request: request, templateVersion: republishedVersion)
                // Nothing to change (voided already, the data as it is, on the current content already): selected,
                // but no new version and no push.
                if changed.data == nil, changed.voided.map({ $0 == pass.voided }) ?? true,
                   changed.templateVersion.map({ $0 == pass.templateVersion }) ?? true {
                    continue
                }
                changes.append(changed)
            } catch let error as PassStoreError {
                // The store failing (a lost connection, a pool timeout) is not the pass's fault: the batch is given
                // up and read again, rather than the pass reported failed and never tried again.
                throw error
            } catch where Task.isCancelled {
                throw CancellationError()
            } catch {
                failures.append(CampaignFailure(serialNumber: pass.serialNumber, reason: "\(error)"))
            }
        }
        return CampaignBatch(
            campaignID: campaign.id, expectedCursor: campaign.cursor, cursor: nextCursor, passTypeIdentifier: passType,
            changes: changes, matched: matched, failures: failures, finishes: finishes)
    }

    /// `pass` as pinned to `version` of its template (what building it after a republish reads).
    static func pinned(_ pass: PassRecord, to version: String) -> PassRecord {
        var pinned = pass
        pinned.templateVersion = version
        return pinned
    }

    /// One pass's new version.
    /// - Parameters:
    ///   - pass: The pass as read.
    ///   - request: The campaign.
    ///   - templateVersion: For `republishTemplate`, its template's current version: the pass is built from it from now on.
    func change(_ pass: PassRecord, request: CampaignRequest, templateVersion: String?) throws -> CampaignPassChange {
        var document = try PassIssuer.document(pass.data)
        var voided: Bool?
        switch request.action {
        case .data(let patch): document = PassIssuer.merging(patch, into: document)
        case .republishTemplate: break
        case .void: voided = true
        case .unvoid: voided = false
        }
        if let message = request.message { document[PassIssuer.messageKey] = .string(message) }
        let data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
        if data != pass.data { try PassIssuer.checkDataSize(data, was: pass.data) }
        return CampaignPassChange(
            serialNumber: pass.serialNumber, updateTag: pass.updateTag, data: data == pass.data ? nil : data, voided: voided,
            templateVersion: templateVersion, previous: pass)
    }

    static func fieldValues(of pass: Pass) -> [(key: String, value: JSONValue)] {
        PassIssuer.fields(of: pass).compactMap { field in
            guard let key = field.key, let value = field.value else { return nil }
            switch value {
            case .string(let text): return (key, .string(text))
            case .integer(let number): return (key, .integer(number))
            case .number(let number): return (key, .number(number))
            }
        }
    }

    /// Field values compare as text, or as numbers when both are numbers.
    static func sameValue(_ value: JSONValue?, _ wanted: JSONValue) -> Bool {
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .integer(let whole)?: Double(whole)
            case .number(let number)?: number
            default: nil
            }
        }
        // As the pass search compares them: text as text, and text against a number by its numeric value, so a value
        // given as text ("120", as the command line sends it) selects the passes whose field holds the number 120.
        if case .string(let expected) = wanted { return PassIssuer.sameValue(value, expected) }
        if case .string(let text)? = value, let b = number(wanted) { return Double(text) == b }
        guard let a = number(value), let b = number(wanted) else { return false }
        return a == b
    }
}

extension Array where Element: Comparable {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the sorted array.
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
