import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import PassModel
import PassStore
import Timestamps

/// The campaign API under `/api/v1/campaigns`: one change to many passes, applied in the background. Bearer-token
/// protected like the rest of the issuer API.
struct CampaignRoutes: Sendable {
    let campaigns: CampaignService
    let issuer: PassIssuer
    let access: IssuerAccess
    /// The limit of a campaign's body, whose data may carry images and whose selection up to 100,000 serial numbers.
    let maximumBodySize: Int

    static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let routes = group.group("campaigns").add(middleware: access.middleware(typeParameter: nil))
        routes.post(use: create)
        routes.get(use: list)
        routes.get(":id", use: read)
        routes.delete(":id", use: cancel)
    }

    /// A campaign as the API shows it.
    struct View: Encodable {
        struct Failure: Encodable {
            var serialNumber: String
            var reason: String
        }

        var id: String
        var state: String
        var select: JSONValue?
        var action: String?
        var message: String?
        var matched: Int
        var changed: Int
        var failed: Int
        var errors: [Failure]
        var pushesQueued: Int
        var pushesSent: Int
        var createdAt: String
        var scheduledAt: String?
        var startedAt: String?
        var finishedAt: String?

        /// - Parameter listing: As a page of the list shows it: a selection by serial numbers gives their count
        ///   (`serialNumberCount`) instead of the list, which may hold 100,000 of them (`GET …/campaigns/{id}` gives it).
        init(_ record: CampaignRecord, listing: Bool = false) {
            id = record.id
            state = record.state.rawValue
            if case .object(let specification)? = try? JSONValue(jsonData: record.specification) {
                select = specification["select"]
                if listing, case .object(var members)? = select, case .array(let serials)? = members["serialNumbers"] {
                    members["serialNumbers"] = nil
                    members["serialNumberCount"] = .integer(serials.count)
                    select = .object(members)
                }
                action = ["data", "republishTemplate", "void", "unvoid"].first { specification[$0] != nil }
                message = specification["message"]?.stringValue
            }
            matched = record.matched
            changed = record.changed
            failed = record.failed
            errors = record.errors.map { Failure(serialNumber: $0.serialNumber, reason: $0.reason) }
            pushesQueued = record.pushesQueued
            pushesSent = record.pushesSent
            createdAt = Self.time(record.createdAt)
            scheduledAt = record.scheduledAt.map(Self.time)
            startedAt = record.startedAt.map(Self.time)
            finishedAt = record.finishedAt.map(Self.time)
        }

        static func time(_ date: Date) -> String { RFC3339.format(date) }
    }

    struct Page: Encodable {
        var campaigns: [View]
        var nextCursor: String?
    }

    @Sendable func create(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let key = request.headers[Self.idempotencyKeyHeader]
        let body = try await JSONBody.value(from: request, limit: maximumBodySize)
        guard case .object(let members) = body else {
            throw WebServiceError.invalid("body", "body: must be a JSON object, found \(body.kindName)")
        }
        if !context.principal.isAdmin, case .object(let select)? = members["select"] {
            if let name = select["template"]?.stringValue {
                guard let type = try? await campaigns.signedPassTypeIdentifier(ofSelectedTemplate: name), context.principal.covers(type)
                else { throw CampaignService.unknownTemplate(name) }
            }
            if let type = select["passTypeIdentifier"]?.stringValue, !context.principal.covers(type) {
                throw WebServiceError.invalid(
                    "select.passTypeIdentifier", "select.passTypeIdentifier: \(type) is not an identifier this API key covers")
            }
        }
        let (campaign, _) = try await campaigns.create(body: members, idempotencyKey: key, caller: context.principal.keyID)
        var response = try JSONBody.response(View(campaign), status: .accepted)
        response.headers[.location] = "\(campaigns.webServiceURL)/api/v1/campaigns/\(campaign.id)"
        return response
    }

    @Sendable func read(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let campaign = try await campaigns.campaign(id: context.parameters.get("id") ?? "")
        guard await visible(campaign, to: context.principal) else { throw CampaignService.notFound }
        return try JSONBody.response(View(campaign))
    }

    /// Whether the caller sees a campaign: the pass type it selects (by identifier, or its template's) is in scope.
    private func visible(_ campaign: CampaignRecord, to principal: IssuerPrincipal) async -> Bool {
        guard !principal.isAdmin else { return true }
        guard case .object(let specification)? = try? JSONValue(jsonData: campaign.specification),
              case .object(let select)? = specification["select"]
        else { return false }
        if let type = select["passTypeIdentifier"]?.stringValue { return principal.covers(type) }
        // The type its template was signed as when it was accepted: a name later another brand's leaves it its maker's.
        if let type = specification["templatePassType"]?.stringValue { return principal.covers(type) }
        guard let name = select["template"]?.stringValue,
              let type = try? await campaigns.signedPassTypeIdentifier(ofSelectedTemplate: name)
        else { return false }
        return principal.covers(type)
    }

    @Sendable func list(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let query = request.uri.formQueryParameters
        let state = query["state"].map(String.init), limit = query["limit"].map(String.init)
        var page = try await campaigns.campaigns(state: state, limit: limit, cursor: query["cursor"].map(String.init))
        var shown: [CampaignRecord] = []
        for campaign in page.campaigns where await visible(campaign, to: context.principal) { shown.append(campaign) }
        // A key sees its brands' campaigns among everyone's: pages of other brands' campaigns are read past (a few at
        // most, then the cursor says where to go on), so a busy brand does not leave another's first page empty.
        let wanted = page.campaigns.count
        var reads = 1
        while !context.principal.isAdmin, shown.count < wanted, let cursor = page.nextCursor, reads < 20 {
            reads += 1
            page = try await campaigns.campaigns(state: state, limit: String(wanted - shown.count), cursor: cursor)
            for campaign in page.campaigns where await visible(campaign, to: context.principal) { shown.append(campaign) }
        }
        return try JSONBody.response(Page(campaigns: shown.map { View($0, listing: true) }, nextCursor: page.nextCursor))
    }

    @Sendable func cancel(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        if !context.principal.isAdmin {
            guard await visible(try await campaigns.campaign(id: id), to: context.principal) else { throw CampaignService.notFound }
        }
        return try JSONBody.response(View(try await campaigns.cancel(id: id)))
    }
}
