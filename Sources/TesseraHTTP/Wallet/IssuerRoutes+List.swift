import Foundation
import HTTPTypes
import Hummingbird
import PassModel
import PassStore
import PassWebService
import Timestamps

extension IssuerRoutes {
    /// `GET /api/v1/passes?template=&passTypeIdentifier=&voided=&redeemed=&field.<key>=&updatedSince=&limit=&cursor=`:
    /// a page of pass states in (pass type, serial number) order, or with `Accept: text/csv` or
    /// `application/x-ndjson` every matching pass streamed.
    @Sendable func list(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let format = try ItemListResponse.format(of: request)
        let parameters = try access.cursorSeal.opening(ItemListResponse.parameters(request), for: context.principal)
        var search = try ItemListRequest(parameters: parameters, kind: .pass)
        search.restrict(to: context.principal)
        try await checkFieldKeys(search, principal: context.principal)
        guard format == .json else { return try await export(format, search, principal: context.principal) }
        let page = try await issuer.listItems(search)
        var states: [PassState] = []
        for listing in page.items { states.append(try state(listing)) }
        return try JSONBody.response(ItemPage(
            name: "passes", items: states, nextCursor: access.cursorSeal.cursor(page.nextCursor, for: context.principal)))
    }

    /// With a template named, a `field.<key>` filter must be one of its fields (a typo would otherwise find nothing,
    /// silently). A template the server does not have (its passes may outlive it) or that the caller cannot see is
    /// not checked.
    private func checkFieldKeys(_ search: ItemListRequest, principal: IssuerPrincipal) async throws {
        guard !search.fields.isEmpty, let template = search.query.template,
              var keys = await visibleFieldKeys(ofTemplate: template, principal: principal)
        else { return }
        // A key only an earlier version has (renamed since) still finds the passes pinned to that version.
        if search.fields.contains(where: { !keys.contains($0.key) }),
           let every = try? await issuer.fieldKeysOfEveryVersion(ofTemplate: template)
        {
            keys = every
        }
        for field in search.fields where !keys.contains(field.key) {
            throw IssuerError.badQuery(
                "field.\(field.key)",
                "template \"\(template)\" has no field with this key (its fields: \(keys.joined(separator: ", ")))")
        }
    }

    /// The field keys of a template the caller may see: `nil` for a template the server does not have, or another
    /// brand's (to an API key, as one that does not exist).
    private func visibleFieldKeys(ofTemplate template: String, principal: IssuerPrincipal) async -> [String]? {
        guard let keys = try? await issuer.fieldKeys(ofTemplate: template) else { return nil }
        if !principal.isAdmin {
            guard let type = try? await issuer.signedPassTypeIdentifier(ofTemplate: template), principal.covers(type)
            else { return nil }
        }
        return keys
    }

    /// A listed pass's state, as `GET /api/v1/passes/{type}/{serial}` answers it.
    private func state(_ listing: PassListing) throws -> PassState {
        let pass = listing.record
        return PassState(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
            authenticationToken: pass.authenticationToken, downloadURL: issuer.downloadURL(for: pass),
            template: pass.template, data: try JSONValue(jsonData: pass.data), voided: pass.voided,
            personalized: pass.personalization != nil, updateTag: String(pass.updateTag),
            lastModified: HTTPDate.format(min(pass.lastModified, Date())), registrations: listing.registrations,
            redemptions: listing.redemptions, redeemedAt: listing.firstRedeemedAt.map(RFC3339.format))
    }

    private func export(_ format: ItemListResponse.Format, _ search: ItemListRequest, principal: IssuerPrincipal)
        async throws -> Response
    {
        // One column per field of the template searched; without one, the field values as a JSON object. Either way
        // the values the pass shows (its own over its template's), as NDJSON's `fields`. Another brand's template is
        // to an API key as one that does not exist: no columns of its fields.
        let issuer = self.issuer
        // Every version's fields the template's passes are pinned to: a field renamed by an edit keeps its column
        // for the passes made before.
        var found: [String]?
        if let template = search.query.template, let visible = await visibleFieldKeys(ofTemplate: template, principal: principal) {
            found = (try? await issuer.fieldKeysOfEveryVersion(ofTemplate: template)) ?? visible
        }
        let keys = found
        let fieldColumns = keys?.map { "field." + $0 } ?? ["fields"]
        let columns = ["passTypeIdentifier", "serialNumber", "template"] + fieldColumns
            + ["voided", "redeemed", "redemptions", "devices", "updated"]
        return ItemListResponse.export(
            format, issuer: issuer, request: search, name: "passes", columns: columns,
            row: { listing in
                let pass = listing.record
                let values = try await issuer.currentFieldValues(of: pass)
                let fields = keys.map { $0.map { ItemListResponse.cell(values[$0]) } }
                    ?? [ItemListResponse.cell(.object(values))]
                return [pass.passTypeIdentifier, pass.serialNumber, pass.template] + fields + [
                    String(pass.voided), String(listing.redemptions > 0), String(listing.redemptions),
                    String(listing.registrations), RFC3339.string(min(pass.lastModified, Date())),
                ]
            },
            object: { listing in
                let pass = listing.record
                return .object([
                    "passTypeIdentifier": .string(pass.passTypeIdentifier), "serialNumber": .string(pass.serialNumber),
                    "template": .string(pass.template), "fields": .object(try await issuer.currentFieldValues(of: pass)),
                    "voided": .bool(pass.voided), "redeemed": .bool(listing.redemptions > 0),
                    "redemptions": .integer(listing.redemptions), "devices": .integer(listing.registrations),
                    "updated": .string(RFC3339.string(min(pass.lastModified, Date()))),
                ])
            })
    }
}
