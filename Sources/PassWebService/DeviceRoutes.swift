import TesseraHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassCrypto
import PassModel
import PassStore

/// Apple's pass web service protocol, the endpoints Wallet calls under a pass's `webServiceURL`.
struct DeviceRoutes: Sendable {
    let issuer: PassIssuer
    let maximumBodySize: Int
    let personalizationLimiter: RateLimiter
    let now: @Sendable () -> Date

    private var store: any PassStore { issuer.store }

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let registrations = "devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier"
        group.post("\(registrations)/:serialNumber", use: register)
        group.delete("\(registrations)/:serialNumber", use: unregister)
        group.get(RouterPath(registrations), use: serialNumbers)
        group.get("passes/:passTypeIdentifier/:serialNumber", use: latestPass)
        group.head("passes/:passTypeIdentifier/:serialNumber", use: latestPass)
        group.post("passes/:passTypeIdentifier/:serialNumber/personalize", use: personalize)
    }

    /// Finds the pass and checks `Authorization: ApplePass <token>` in constant time. An unknown serial number and a
    /// wrong token get the same 401, so serial numbers cannot be probed. Inlined into the routes: a call of its own
    /// costs two more trips through the event loop's task queue per request under `tessera serve`.
    @inline(__always)
    private func authenticatedPass(_ request: Request, _ context: WebServiceRequestContext) async throws -> PassRecord {
        let passTypeIdentifier = try PathSegments.passTypeIdentifier(in: context)
        let serialNumber = try PathSegments.serialNumber(in: context)
        let token = Secrets.credential(scheme: "ApplePass", in: request.headers[.authorization])
        // The store reads a stand-in record when the pass is missing, and the comparison runs either way, so a wrong
        // token on an existing serial number and any token on a missing one take the same time.
        let lookup = try await store.passForAuthentication(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        let matches = SecretToken.constantTimeEqual(token ?? "", lookup.comparisonToken)
        guard let pass = lookup.pass, token != nil, matches else { throw WebServiceError.deviceUnauthorized }
        return pass
    }

    private struct RegistrationBody: Decodable {
        var pushToken: String
    }

    @Sendable func register(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.deviceLibraryIdentifier(in: context)
            let pass = try await authenticatedPass(request, context)
            let body = try await JSONBody.decode(RegistrationBody.self, from: request, limit: maximumBodySize)
            guard !body.pushToken.isEmpty, body.pushToken.utf8.count <= 4096 else {
                throw WebServiceError.invalid("pushToken", "pushToken: must be a non-empty string")
            }
            let outcome = try await store.register(
                deviceLibraryIdentifier: device, pushToken: body.pushToken, passTypeIdentifier: pass.passTypeIdentifier,
                serialNumber: pass.serialNumber, now: now())
            return Response(status: outcome == .created ? .created : .ok)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    @Sendable func unregister(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.deviceLibraryIdentifier(in: context)
            let pass = try await authenticatedPass(request, context)
            try await store.unregister(
                deviceLibraryIdentifier: device, passTypeIdentifier: pass.passTypeIdentifier,
                serialNumber: pass.serialNumber)
            return Response(status: .ok)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    private struct SerialNumbers: ResponseEncodable {
        var serialNumbers: [String]
        var lastUpdated: String
    }

    @Sendable func serialNumbers(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let device = try PathSegments.deviceLibraryIdentifier(in: context)
            let passTypeIdentifier = try PathSegments.passTypeIdentifier(in: context)
            // An unparseable tag counts as none: the device gets every pass, which is always safe.
            let since = request.uri.queryParameters.get("passesUpdatedSince").flatMap { Int64($0) }
            guard let list = try await store.serialNumbers(
                deviceLibraryIdentifier: device, passTypeIdentifier: passTypeIdentifier, updatedSince: since)
            else { return Response(status: .noContent) }
            return try JSONBody.response(
                SerialNumbers(serialNumbers: list.serialNumbers, lastUpdated: String(list.lastUpdated)))
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    @Sendable func latestPass(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            let pass = try await authenticatedPass(request, context)
            if let answer = PassResponse.withoutBuilding(for: pass, issuer: issuer, request: request) { return answer }
            return try await PassResponse.make(for: pass, issuer: issuer, request: request, logger: context.logger)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    /// Rewards enrollment: stores the holder's details and answers with the personalization token signed by the pass
    /// certificate; Wallet then fetches the personalized pass. Rate limited per client address; the body is checked
    /// before the pass is looked up, and a missing serial number, a pass without enrollment and one already
    /// personalized get the same 404, so the answer never tells whether a serial number exists.
    @Sendable func personalize(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            guard personalizationLimiter.allow(context.remoteAddress?.ipAddress ?? "unknown", now: now()) else {
                throw WebServiceError.rateLimited("too many personalization requests")
            }
            let passTypeIdentifier = try PathSegments.passTypeIdentifier(in: context)
            let serialNumber = try PathSegments.serialNumber(in: context)
            let body = try PersonalizationRequest(
                body: try await JSONBody.value(from: request, limit: maximumBodySize))
            let pass: PassRecord
            if request.headers[.authorization] != nil {
                pass = try await authenticatedPass(request, context)
            } else {
                // Wallet sends this request before the pass is in the library, without credentials.
                guard let found = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
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
