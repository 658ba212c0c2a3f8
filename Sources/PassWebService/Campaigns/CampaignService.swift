public import Foundation
import NIOPosix
import HTTPTypes
import PassBundle
import PassCrypto
public import PassModel
public import PassStore

/// Campaigns: one change to many passes, accepted at once and applied by ``CampaignRunner`` in batches.
///
/// Accepting a campaign checks it against its template once (the data merged into the template's pass, with the
/// message, built and signed as a trial) and stores it; no pass changes and no push is sent inside the request.
public final class CampaignService: Sendable {
    /// A page of campaigns.
    public struct Page: Sendable {
        /// The campaigns, newest first.
        public var campaigns: [CampaignRecord]
        /// The cursor of the next page, when there may be one.
        public var nextCursor: String?
    }

    let issuer: PassIssuer
    let store: any CampaignStore
    private let now: @Sendable () -> Date
    private let wake: @Sendable () -> Void

    /// The most campaigns one listing returns.
    public static let maximumPageSize = 200

    /// Creates the service.
    /// - Parameters:
    ///   - issuer: The pass issuer (templates, signing, the pass store).
    ///   - store: Where campaigns live: the pass store itself.
    ///   - now: The clock.
    ///   - wake: Told when a campaign was accepted, so the runner starts on it at once.
    public init(
        issuer: PassIssuer, store: any CampaignStore, now: @escaping @Sendable () -> Date = Date.init,
        wake: @escaping @Sendable () -> Void = {}
    ) {
        self.issuer = issuer
        self.store = store
        self.now = now
        self.wake = wake
    }

    /// Accepts a campaign.
    /// - Parameters:
    ///   - body: The request body's members.
    ///   - idempotencyKey: The client's `Idempotency-Key`, if any.
    ///   - caller: The calling API key's id (`nil` for the admin token): its `Idempotency-Key`s are its own.
    /// - Returns: The campaign, and whether it was created now (`false`: the same key and body came before).
    /// - Throws: ``IssuerError``: 422 naming the member at fault, 409 for a known key with another body.
    public func create(body: [String: JSONValue], idempotencyKey sentKey: String?, caller: String? = nil) async throws
        -> (campaign: CampaignRecord, created: Bool)
    {
        let hash = Hex.encode(Digest.sha256(try JSONValue.object(body).jsonData(sortedKeys: true, prettyPrinted: false)))
        try IdempotencyKey.check(sentKey)
        let idempotencyKey = IdempotencyKey.stored(sentKey, caller: caller)
        // A retry of a campaign already accepted answers it as it is, before the body is checked again: its
        // `scheduledAt` may have passed since, or its template changed; a 422 would tell the client it was not made.
        if let idempotencyKey, let stored = try await store.campaign(idempotencyKey: idempotencyKey) {
            guard stored.requestHash == hash else {
                throw IdempotencyKey.conflict("Idempotency-Key: already used for campaign \(stored.id) with another body")
            }
            return (stored, false)
        }
        var request = try CampaignRequest(body, now: now())
        try await check(request)
        // A republish to run now moves the passes to the version this process has (the one the operator just read
        // with SIGHUP), whichever process runs it; one scheduled for later, to the content the running process has
        // then (an edit made meanwhile is what it publishes).
        if case .republishTemplate = request.action, case .template(let name, _) = request.selection,
           request.scheduledAt == nil {
            request.templateVersion = try await issuer.currentTemplateVersion(named: name)
        }
        if case .template(let name, _) = request.selection {
            // `nil` for a removed folder (its pinned passes are changed): the passes' own types then.
            request.templatePassType = try? await signedPassTypeIdentifier(ofSelectedTemplate: name)
        }
        let campaign = NewCampaign(
            id: SecretToken.random(length: 24), specification: try request.specification.jsonData(sortedKeys: true, prettyPrinted: false),
            requestHash: hash, idempotencyKey: idempotencyKey, scheduledAt: request.scheduledAt)
        let (stored, inserted) = try await store.insertCampaign(campaign, now: now())
        if !inserted {
            guard stored.requestHash == hash else {
                throw IdempotencyKey.conflict("Idempotency-Key: already used for campaign \(stored.id) with another body")
            }
            return (stored, false)
        }
        wake()
        return (stored, true)
    }

    /// A campaign by its identifier.
    /// - Throws: ``IssuerError`` 404 when there is none.
    public func campaign(id: String) async throws -> CampaignRecord {
        guard Self.isValidID(id), let record = try await store.campaign(id: id) else { throw Self.notFound }
        return record
    }

    /// Campaigns, newest first.
    /// - Parameters:
    ///   - state: `?state=`, if given.
    ///   - limit: `?limit=` (1-200, 50 by default).
    ///   - cursor: `?cursor=` from the previous page.
    /// - Throws: ``IssuerError`` 400 naming the parameter, as every list's query.
    public func campaigns(state: String?, limit: String?, cursor: String?) async throws -> Page {
        var wanted: CampaignState?
        if let state {
            guard let known = CampaignState(rawValue: state) else {
                throw IssuerError.badQuery("state", "one of \(CampaignState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            wanted = known
        }
        var count = 50
        if let limit {
            guard let value = Int(limit), (1...Self.maximumPageSize).contains(value) else {
                throw IssuerError.badQuery("limit", "a whole number from 1 to \(Self.maximumPageSize)")
            }
            count = value
        }
        var before: Int64?
        if let cursor {
            guard let value = Int64(cursor), value > 0 else { throw IssuerError.badQuery("cursor", "not a cursor this server gave") }
            before = value
        }
        let found = try await store.campaigns(state: wanted, limit: count + 1, beforeSequence: before)
        let page = Array(found.prefix(count))
        return Page(campaigns: page, nextCursor: found.count > count ? page.last.map { String($0.sequence) } : nil)
    }

    /// Cancels a scheduled or running campaign; what changed stays changed.
    /// - Returns: The campaign as it is now (its `changed` says how many passes changed before).
    /// - Throws: ``IssuerError`` 404 when there is none, 409 when it had already finished.
    public func cancel(id: String) async throws -> CampaignRecord {
        guard Self.isValidID(id), let existing = try await store.campaign(id: id) else { throw Self.notFound }
        guard !existing.state.isFinal, let record = try await store.cancelCampaign(id: id, now: now()),
              record.state == .cancelled
        else {
            let record = try await store.campaign(id: id) ?? existing
            throw IssuerError(status: .conflict, description: "campaign \(id) is \(record.state.rawValue): only a scheduled or running campaign can be cancelled")
        }
        return record
    }

    /// Checks a campaign against what it selects, once: the template and its field keys, and the data with the
    /// message merged into the template's pass (or the first selected pass, for a selection by serial numbers),
    /// built and signed as a trial.
    func check(_ request: CampaignRequest) async throws {
        if case .data(let patch) = request.action {
            try PassIssuer.checkData(patch, path: "data")
            for key in ["serialNumber", "authenticationToken", "webServiceURL", "passTypeIdentifier", "teamIdentifier", "voided"]
            where patch[key] != nil {
                throw IssuerError.invalid("data.\(key): cannot be changed by a campaign (\(key == "voided" ? "use void or unvoid" : "fixed when a pass was created"))")
            }
        }
        let trial: PassRecord
        switch request.selection {
        case .template(let name, let fields):
            let (entry, firstPass) = try await selectedTemplate(named: name, republishing: request.action == .republishTemplate)
            let keys = Set(PassIssuer.fieldKeys(of: entry.builder.template.pass))
            for key in fields.keys.sorted() where !keys.contains(key) {
                throw IssuerError.invalid("select.fields.\(key): template \"\(name)\" has no field with this key")
            }
            trial = firstPass ?? PassRecord(
                passTypeIdentifier: entry.builder.passTypeIdentifier ?? "", serialNumber: "campaign-check",
                authenticationToken: String(repeating: "0", count: 32), template: name, data: Data("{}".utf8),
                downloadToken: "campaign-check", updateTag: 0, lastModified: now(), createdAt: now())
        case .serialNumbers(let passType, let serials):
            guard let first = try await store.campaignPasses(.serialNumbers(passTypeIdentifier: passType, serials), after: nil, limit: 1).first
            else { return }  // nothing to change: every serial number is reported as missing
            trial = first
        }
        var record = trial
        var document = try PassIssuer.document(trial.data)
        if case .data(let patch) = request.action { document = PassIssuer.merging(patch, into: document) }
        if let message = request.message { document[PassIssuer.messageKey] = .string(message) }
        record.data = try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
        // Checked against what the passes will be built from: the template's current content when republishing it,
        // else the version the pass is pinned to.
        let entry: TemplateLibrary.Entry
        if case .republishTemplate = request.action {
            entry = try await issuer.templateEntry(named: record.template)
        } else {
            entry = try await issuer.templateEntry(for: record)
        }
        let issuer = self.issuer
        let candidate = record
        do {
            _ = try await NIOThreadPool.singleton.runIfActive { try issuer.buildNow(candidate, entry: entry) }
        } catch let error as IssuerError where error.status == .unprocessableContent && error.field == nil {
            // The validator's report names the pass's own paths (fields.seat): they are under the request's data.
            throw IssuerError.invalid("data: \(error.description)", field: "data")
        }
    }

    /// The template a selection by template is checked against, and the pass to try the change on when it is not the
    /// template's current content: passes already made are served and changed from the version they are pinned to,
    /// so when the template's folder is gone (a season's folder removed) or no longer loads (an edit broke it) a void,
    /// an unvoid or a data change is checked against the version of the first pass it selects. Republishing needs the
    /// current content.
    /// - Parameters:
    ///   - name: The template's name.
    ///   - republishing: Whether the campaign republishes the template's current content.
    /// - Returns: The entry, and the selected pass it comes from (`nil` for the current content).
    /// - Throws: ``IssuerError`` 422 naming `select.template` for no such template (no folder and no pass made from
    ///   one, or a republish of a folder that is gone); the load's own error when the current content does not load
    ///   and the campaign republishes it or selects no pass.
    func selectedTemplate(named name: String, republishing: Bool = false) async throws
        -> (entry: TemplateLibrary.Entry, pass: PassRecord?)
    {
        do {
            return (try await issuer.templateEntry(named: name), nil)
        } catch let error as IssuerError
                    where error.status == .unprocessableContent || error.status == .internalServerError {
            let unknown = error.status == .unprocessableContent
            guard !republishing,
                  let first = try await store.campaignPasses(.template(name), after: nil, limit: 1).first
            else { throw unknown ? Self.unknownTemplate(name) : error }
            return (try await issuer.templateEntry(for: first), first)
        }
    }

    /// The Pass Type ID a selection by template signs with (what an API key's scope is checked against), from the
    /// template's current content or, when that does not load, its first pass's version (``selectedTemplate(named:republishing:)``).
    public func signedPassTypeIdentifier(ofSelectedTemplate name: String) async throws -> String? {
        try await selectedTemplate(named: name).entry.builder.passTypeIdentifier
    }

    /// The server's public base URL, for the `Location` of a campaign.
    public var webServiceURL: String { issuer.webServiceURL }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.utf8.allSatisfy { $0.isLetterOrDigitASCII || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// No campaign with that id (404); also what an API key sees of another brand's campaign.
    public static let notFound = IssuerError(status: .notFound, description: "no such campaign")

    /// What a campaign whose `select.template` names no template is refused with (422).
    public static func unknownTemplate(_ name: String) -> IssuerError {
        IssuerError.invalid("select.template: no template named \"\(name)\"")
    }
}
