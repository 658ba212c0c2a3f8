import Foundation
import Hummingbird
import PassModel
import PassStore
import PassWebService

/// `GET /api/v1/events`: the event log for issuers that poll (behind a firewall, or catching up after an outage).
/// Bearer-token protected like the rest of the issuer API.
struct EventRoutes: Sendable {
    let events: EventService
    let issuer: PassIssuer
    let access: IssuerAccess

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.group("events").add(middleware: access.middleware(typeParameter: nil)).get(use: list)
        group.group("passes").add(middleware: access.middleware())
            .get(":passTypeIdentifier/:serialNumber/events", use: history)
    }

    /// An event as the API shows it (a webhook's body, `WalletEvent.jsonBody()`, is the same object).
    struct View: Encodable {
        var id: String
        var type: String
        var createdAt: String
        var data: JSONValue

        init(_ event: WalletEvent) {
            id = String(event.id)
            type = event.type
            createdAt = event.createdAtText
            data = (try? JSONValue(jsonData: event.data)) ?? .object([:])
        }
    }

    struct Page: Encodable {
        var events: [View]
        var nextCursor: String
    }

    private struct History: Encodable {
        var events: [View]
    }

    /// `GET /api/v1/passes/{type}/{serial}/events`: the pass's events, newest first (its versions, devices, scans).
    @Sendable func history(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        let query = request.uri.formQueryParameters
        try Self.checkNames(query, known: ["limit"])
        guard try await issuer.item(typeIdentifier: type, identifier: serial) != nil else { throw IssuerError.notFound }
        let found = try await events.history(
            typeIdentifier: type, identifier: serial, limit: query["limit"].map(String.init))
        return try JSONBody.response(History(events: found.map(View.init)))
    }

    @Sendable func list(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let query = request.uri.formQueryParameters
        try Self.checkNames(query, known: ["after", "type", "limit"], repeatable: ["type"])
        let page = try await events.events(
            after: query["after"].map(String.init), types: query.getAll("type").map { String($0) },
            limit: query["limit"].map(String.init))
        // A key sees the events of its identifiers (``EventService/Page/visible(_:)`` says where its cursor goes).
        let principal = context.principal
        let shown = principal.isAdmin ? page : page.visible { event in
            let data = (try? JSONValue(jsonData: event.data))?.objectValue
            let type = data?["passTypeIdentifier"]?.stringValue ?? data?["orderTypeIdentifier"]?.stringValue
            return type.map(principal.covers) ?? false
        }
        return try JSONBody.response(Page(events: shown.events.map(View.init), nextCursor: shown.nextCursor))
    }

    /// As the other listings: a parameter misspelled or given twice is named, not ignored (a client paging the
    /// history with `after` would be given its first page again).
    private static func checkNames(
        _ query: some Sequence<(key: Substring, value: Substring)>, known: [String], repeatable: Set<String> = []
    ) throws {
        var seen: Set<String> = []
        for (name, _) in query {
            let name = String(name)
            guard known.contains(name) else {
                throw IssuerError.badQuery(LogRedactor.escapeControlCharacters(String(name.prefix(100))),
                                           "unknown parameter (known: \(known.joined(separator: ", ")))")
            }
            guard seen.insert(name).inserted || repeatable.contains(name) else { throw IssuerError.badQuery(name, "given twice") }
        }
    }
}
