import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassModel
import PassStore
import PassWebService
import Timestamps

/// The issuer API of orders under `/api/v1/orders`: create, read, change and download. Bearer-token protected, with
/// the same error envelope as `/api/v1/passes`.
struct OrderIssuerRoutes: Sendable {
    let issuer: OrderIssuer
    let access: IssuerAccess
    let maximumBodySize: Int

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let orders = group.group("orders").add(middleware: access.middleware(notFound: { Self.notFound }))
        orders.post(use: create)
        orders.get(use: list)
        orders.get(":passTypeIdentifier/:serialNumber", use: read)
        orders.patch(":passTypeIdentifier/:serialNumber", use: change)
        orders.get(":passTypeIdentifier/:serialNumber/order", use: download)
    }

    /// The state of an order as the issuer API shows it.
    struct OrderState: Encodable {
        var orderTypeIdentifier: String
        var orderIdentifier: String
        var authenticationToken: String
        var webServiceURL: String
        var downloadURL: String
        var template: String
        /// The current version's `order.json`, as devices get it signed; absent in a read or a list when it cannot be
        /// made now (its template was removed, its identity taken out): `problem` says why.
        var order: JSONValue?
        /// Why `order` is absent.
        var problem: String?
        var updateTag: String
        var lastModified: String
        var registrations: Int
        var pushesQueued: Int?
        var warnings: [String]?
    }

    /// - Parameter reading: A read or a list, where an order whose document cannot be made now is still shown (with
    ///   `problem`), rather than failing the whole answer (every page of the list holding it) with its template's
    ///   error; a write has just made the document, so it fails as that did.
    func state(
        _ order: PassRecord, pushesQueued: Int? = nil, warnings: [String]? = nil, registrations: Int? = nil,
        reading logger: Logger? = nil
    ) async throws -> OrderState {
        let handOff = issuer.handOff(for: order)
        let devices: Int
        if let registrations { devices = registrations } else { devices = try await issuer.registrationCount(of: order) }
        var document: JSONValue?
        var problem: String?
        do {
            document = try await issuer.orderDocument(for: order)
        } catch let error as IssuerError where logger != nil {
            // The stored order is what it was; its template or identity is not (the server's, not the caller's, doing).
            logger?.warning("an order's current version cannot be made", metadata: [
                "orderTypeIdentifier": .string(order.passTypeIdentifier), "template": .string(order.template),
                "error": .string("\(error)"),
            ])
            problem = error.description
        }
        return OrderState(
            orderTypeIdentifier: handOff.orderTypeIdentifier, orderIdentifier: handOff.orderIdentifier,
            authenticationToken: handOff.authenticationToken, webServiceURL: handOff.webServiceURL,
            downloadURL: handOff.downloadURL, template: order.template,
            order: document, problem: problem, updateTag: String(order.updateTag),
            lastModified: HTTPDate.format(min(order.lastModified, Date())),
            registrations: devices,
            pushesQueued: pushesQueued, warnings: warnings)
    }

    @Sendable func create(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(IssuerRequestBodies.Create.self, from: request, limit: maximumBodySize)
        // Another brand's template is, to a key, a template that does not exist.
        if !context.principal.isAdmin {
            guard let type = try? await issuer.orderTypeIdentifier(ofTemplate: body.template), context.principal.covers(type)
            else { throw IssuerError.unknownTemplate(body.template) }
        }
        let (order, warnings) = try await issuer.createOrder(template: body.template, data: body.data ?? [:])
        let location = "\(issuer.webServiceURL)/api/v1/orders/\(order.passTypeIdentifier)/\(order.serialNumber)"
        return try IssuerRequestBodies.created(try await state(order, warnings: warnings), location: location)
    }

    /// The identifiers of the path, checked: 400 naming `orderTypeIdentifier` or `orderIdentifier`.
    private func identifiers(_ context: WebServiceRequestContext) throws -> (type: String, identifier: String) {
        (try PathSegments.typeIdentifier(of: .orders, in: context), try PathSegments.itemIdentifier(of: .orders, in: context))
    }

    private func existing(_ context: WebServiceRequestContext) async throws -> PassRecord {
        let (type, identifier) = try identifiers(context)
        guard let order = try await issuer.order(orderTypeIdentifier: type, orderIdentifier: identifier) else {
            throw Self.notFound
        }
        return order
    }

    private static let notFound = WebServiceError(.notFound, status: .notFound, "no such order")

    @Sendable func read(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        try JSONBody.response(try await state(try await existing(context), reading: context.logger))
    }

    @Sendable func change(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let (type, identifier) = try identifiers(context)
        let body = try await JSONBody.decode(IssuerRequestBodies.Change.self, from: request, limit: maximumBodySize)
        guard let (update, warnings) = try await issuer.changeOrder(
            orderTypeIdentifier: type, orderIdentifier: identifier, data: body.data)
        else { throw Self.notFound }
        return try JSONBody.response(try await state(update.pass, pushesQueued: update.pushesQueued, warnings: warnings))
    }

    @Sendable func download(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let order = try await existing(context)
        return try await PassResponse.make(
            for: order, issuer: issuer, request: request, logger: context.logger, attachmentName: order.serialNumber)
    }
}
