import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassCrypto
import PassModel
import PassStore

/// Apple's device protocol, the endpoints Wallet calls under an item's `webServiceURL`, for one kind of item: passes
/// (`ApplePass`, `/v1/passes/...`) or orders (`AppleOrder`, `/v1/orders/...`). The same code serves both kinds over
/// their own store and issuer; only the words differ (``DeviceProtocolKind``).
struct DeviceRoutes<Issuer: WalletItemIssuer>: Sendable {
    let issuer: Issuer
    let kind: DeviceProtocolKind
    let maximumBodySize: Int
    /// Limits personalization requests (passes only).
    let personalizationLimiter: RateLimiter?
    let now: @Sendable () -> Date

    /// The registration paths, which passes and orders share (``DeviceRouter`` tells them apart).
    static var registrations: String { "devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier" }

    /// Adds the fetch endpoint (`passes/...` or `orders/...`).
    func addFetch(to group: RouterGroup<WebServiceRequestContext>) {
        group.get("\(kind.itemsPath)/:passTypeIdentifier/:serialNumber", use: latest)
        group.head("\(kind.itemsPath)/:passTypeIdentifier/:serialNumber", use: latest)
    }

    /// Reads the identifiers and the `Authorization: <scheme> <token>` credential and asks the issuer for the item
    /// (a constant-time check, ``WalletItemIssuer/authenticatedItem(typeIdentifier:identifier:token:)``). An unknown
    /// identifier and a wrong token get the same bare 401, so identifiers cannot be probed. Inlined into the routes: a
    /// call of its own costs two more trips through the event loop's task queue per request under `tessera serve`.
    @inline(__always)
    func authenticatedItem(_ request: Request, _ context: WebServiceRequestContext) async throws -> PassRecord {
        let typeIdentifier = try PathSegments.typeIdentifier(of: kind, in: context)
        let identifier = try PathSegments.itemIdentifier(of: kind, in: context)
        let token = Secrets.credential(scheme: kind.authorizationScheme, in: request.headers[.authorization])
        guard let item = try await issuer.authenticatedItem(typeIdentifier: typeIdentifier, identifier: identifier, token: token)
        else { throw WebServiceError.deviceUnauthorized(scheme: kind.authorizationScheme) }
        return item
    }

    private struct RegistrationBody: Decodable {
        var pushToken: String
    }

    /// The credential is checked by the store in the registration's own write (``WalletItemIssuer/register(device:pushToken:typeIdentifier:identifier:token:now:)``),
    /// not by a read before it. A body that cannot be used is answered only after the credential has been checked
    /// on its own, so a request without a valid credential gets the bare 401 whatever its body, as before.
    @Sendable func register(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.device(of: kind, in: context)
            let typeIdentifier = try PathSegments.typeIdentifier(of: kind, in: context)
            let identifier = try PathSegments.itemIdentifier(of: kind, in: context)
            let pushToken: String
            do {
                let body = try await JSONBody.decode(RegistrationBody.self, from: request, limit: maximumBodySize)
                guard !body.pushToken.isEmpty, body.pushToken.utf8.count <= 4096 else {
                    throw WebServiceError.invalid("pushToken", "pushToken: must be a non-empty string of at most 4096 bytes")
                }
                // An APNs token is hexadecimal text: spaces, control characters (NUL) and non-ASCII would be stored
                // and queued for a push no device can get, or put into the push's HTTP/2 path.
                guard body.pushToken.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    throw WebServiceError.invalid(
                        "pushToken", "pushToken: must be printable ASCII without spaces (an APNs token is hexadecimal)")
                }
                pushToken = body.pushToken
            } catch {
                _ = try await authenticatedItem(request, context)
                throw error
            }
            let token = Secrets.credential(scheme: kind.authorizationScheme, in: request.headers[.authorization])
            guard let outcome = try await issuer.register(
                device: device, pushToken: pushToken, typeIdentifier: typeIdentifier, identifier: identifier,
                token: token, now: now())
            else { throw WebServiceError.deviceUnauthorized(scheme: kind.authorizationScheme) }
            return Response(status: outcome == .created ? .created : .ok)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    @Sendable func unregister(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.device(of: kind, in: context)
            let item = try await authenticatedItem(request, context)
            try await issuer.unregister(device: device, from: item)
            return Response(status: .ok)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    /// Answers `{"lastUpdated": "...", "serialNumbers": [...]}` or `{"lastModified": "...", "orderIdentifiers": [...]}`,
    /// or 204 when no item changed after the tag.
    @Sendable func changedItems(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.device(of: kind, in: context)
            let typeIdentifier = try PathSegments.typeIdentifier(of: kind, in: context)
            // An unparseable tag counts as none: the device gets every item, which is always safe.
            let since = request.uri.queryParameters.get(kind.updatedSinceQuery).flatMap { Int64($0) }
            guard let list = try await issuer.changedItems(device: device, typeIdentifier: typeIdentifier, updatedSince: since)
            else { return Response(status: .noContent) }
            // The bytes JSONBody's encoder would write, without its per-value machinery (this is the request every
            // device makes after each push).
            return JSONBody.response(data: EventJSON.object([
                kind.listKey: .strings(list.serialNumbers), kind.tagKey: .string(String(list.lastUpdated)),
            ]))
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    @Sendable func latest(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let item = try await authenticatedItem(request, context)
            issuer.countFetch(of: item)
            if let answer = PassResponse.withoutBuilding(for: item, issuer: issuer, request: request) { return answer }
            return try await PassResponse.make(for: item, issuer: issuer, request: request, logger: context.logger)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }
}

extension DeviceRoutes where Issuer == PassIssuer {
    /// Adds the rewards enrollment endpoint.
    func addPersonalization(to group: RouterGroup<WebServiceRequestContext>) {
        group.post("passes/:passTypeIdentifier/:serialNumber/personalize", use: personalize)
    }

    /// Rewards enrollment: stores the holder's details and answers with the personalization token signed by the pass
    /// certificate; Wallet then fetches the personalized pass. Rate limited per client address; the body is checked
    /// before the pass is looked up, and a missing serial number, a pass without enrollment and one already
    /// personalized get the same 404, so the answer never tells whether a serial number exists.
    @Sendable func personalize(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            if let wait = personalizationLimiter?.retryAfter(context.clientAddress, now: now()) {
                throw WebServiceError.rateLimited("too many personalization requests", retryAfter: wait)
            }
            let passTypeIdentifier = try PathSegments.passTypeIdentifier(in: context)
            let serialNumber = try PathSegments.serialNumber(in: context)
            let body = try PersonalizationRequest(
                body: try await JSONBody.value(from: request, limit: maximumBodySize))
            let pass: PassRecord
            if request.headers[.authorization] != nil {
                pass = try await authenticatedItem(request, context)
            } else {
                // Wallet sends this request before the pass is in the library, without credentials.
                guard let found = try await issuer.item(typeIdentifier: passTypeIdentifier, identifier: serialNumber)
                else { throw IssuerError.notAwaitingPersonalization }
                pass = found
            }
            let signature = try await issuer.personalize(
                pass, token: body.personalizationToken, information: body.requiredPersonalizationInfo)
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: signature)))
        } catch let error as IssuerError where error.status == .unprocessableContent {
            // Only the stored pass's template can give a 422 here (it is gone or no longer loads): the server's
            // fault, not the device's request, so Wallet gets internalError as on a fetch, never the issuer API's 422.
            context.logger.error("personalization failed: the pass's template cannot be loaded", metadata: [
                "passTypeIdentifier": .string(context.parameters.get("passTypeIdentifier") ?? ""),
                "error": .string("\(error)"),
            ])
            throw WebServiceError.unexpected
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }
}
