import Foundation
import HTTPTypes
import Hummingbird
import PassModel
import PassStore
import PassWebService

/// `/api/v1/keys`: the operator's management of brands' API keys (admin token only).
struct KeyRoutes: Sendable {
    let keys: APIKeyService
    let access: IssuerAccess
    let maximumBodySize: Int

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let routes = group.group("keys").add(middleware: access.middleware(typeParameter: nil, adminOnly: true))
        routes.post(use: create)
        routes.get(use: list)
        routes.delete(":id", use: revoke)
    }

    struct Scope: Encodable {
        var identifiers: [String]
        var permissions: [String]
    }

    /// A key as listed: never its secret.
    struct View: Encodable {
        var id: String
        var name: String
        var scope: Scope
        var createdAt: String
        /// Only in the answer to its creation.
        var secret: String?

        init(_ record: APIKeyRecord, secret: String? = nil) {
            id = record.id
            name = record.name
            scope = Scope(identifiers: record.identifiers, permissions: record.permissions)
            createdAt = RFC3339.format(record.createdAt)
            self.secret = secret
        }
    }

    @Sendable func create(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body = try await JSONBody.value(from: request, limit: maximumBodySize)
        guard case .object(let members) = body else {
            throw WebServiceError.invalid("body", "body: must be a JSON object, found \(body.kindName)")
        }
        let created = try await keys.create(members)
        var response = try JSONBody.response(View(created.record, secret: created.secret), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private struct Page: Encodable {
        var keys: [View]
    }

    @Sendable func list(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try JSONBody.response(Page(keys: try await keys.list().map { View($0) }))
    }

    @Sendable func revoke(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        guard try await keys.revoke(id: context.parameters.get("id") ?? "") else {
            throw WebServiceError(.notFound, status: .notFound, "no such API key")
        }
        return Response(status: .noContent)
    }
}
