import Foundation
import HTTPTypes
import Hummingbird
import PassModel
import PassStore
import PassWebService

extension OrderIssuerRoutes {
    /// `GET /api/v1/orders?template=&orderTypeIdentifier=&updatedSince=&limit=&cursor=`: a page of order states in
    /// (order type, order identifier) order, or with `Accept: text/csv` or `application/x-ndjson` every match streamed.
    @Sendable func list(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let format = try ItemListResponse.format(of: request)
        let parameters = try access.cursorSeal.opening(ItemListResponse.parameters(request), for: context.principal)
        var search = try ItemListRequest(parameters: parameters, kind: .order)
        search.restrict(to: context.principal)
        guard format == .json else {
            return ItemListResponse.export(
                format, issuer: issuer, request: search, name: "orders",
                columns: ["orderTypeIdentifier", "orderIdentifier", "template", "devices", "updated"],
                row: { listing in
                    let order = listing.record
                    return [order.passTypeIdentifier, order.serialNumber, order.template, String(listing.registrations),
                            RFC3339.string(min(order.lastModified, Date()))]
                },
                object: { listing in
                    let order = listing.record
                    return .object([
                        "orderTypeIdentifier": .string(order.passTypeIdentifier),
                        "orderIdentifier": .string(order.serialNumber), "template": .string(order.template),
                        "devices": .integer(listing.registrations), "updated": .string(RFC3339.string(min(order.lastModified, Date()))),
                    ])
                })
        }
        let page = try await issuer.listItems(search)
        var states: [OrderState] = []
        for listing in page.items {
            states.append(try await state(listing.record, registrations: listing.registrations, reading: context.logger))
        }
        return try JSONBody.response(ItemPage(
            name: "orders", items: states, nextCursor: access.cursorSeal.cursor(page.nextCursor, for: context.principal)))
    }
}
