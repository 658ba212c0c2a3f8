import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import PassCrypto
import PassModel
import PassStore
import Timestamps

/// The issuer API under `/api/v1`: create, read, change, void and download passes. Bearer-token protected.
struct IssuerRoutes: Sendable {
    let issuer: PassIssuer
    let access: IssuerAccess
    let maximumBodySize: Int
    /// The limit of create and change bodies, whose data may carry the pass's own images.
    let maximumPassDataBodySize: Int
    /// Google Wallet, when configured: `googleSaveURL` and `google` in pass answers.
    var google: (any GoogleWalletLinking)?

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let passes = group.group("passes").add(middleware: access.middleware())
        passes.post(use: create)
        passes.get(use: list)
        passes.get(":passTypeIdentifier/:serialNumber", use: read)
        passes.patch(":passTypeIdentifier/:serialNumber", use: change)
        passes.delete(":passTypeIdentifier/:serialNumber", use: void)
        passes.get(":passTypeIdentifier/:serialNumber/pkpass", use: download)
        passes.get(":passTypeIdentifier/:serialNumber/registrations", use: registrations)
        group.group("pkpasses").add(middleware: access.middleware(typeParameter: nil)).post(use: downloadBundle)
        let templateGroup = group.group("templates").add(middleware: access.middleware(typeParameter: nil))
        templateGroup.get(use: templates)
        addPreviews(passes: passes, templates: templateGroup, group: group)
        group.group("redemptions").add(middleware: access.middleware(typeParameter: nil)).post(use: redeem)
        group.group("analytics").add(middleware: access.middleware(typeParameter: nil)).get("passes", use: analytics)
    }

    private struct TemplateList: Encodable {
        struct Item: Encodable {
            var name: String
            var contentVersion: String?
            var passTypeIdentifier: String?
            var style: String?
            /// Its field keys, in the order the pass lists them.
            var fields: [String]?
            /// The fields whose values are numbers (a number in the template, a number style or a currency).
            var numericFields: [String]?
            var error: String?
        }

        var templates: [Item]
    }

    /// `GET /api/v1/templates`: every template with its content version.
    @Sendable func templates(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let principal = context.principal
        let summaries = try await issuer.templateSummaries().filter {
            principal.isAdmin || $0.passTypeIdentifier.map(principal.covers) == true
        }
        var items: [TemplateList.Item] = []
        for summary in summaries {
            items.append(.init(
                name: summary.name, contentVersion: summary.contentVersion, passTypeIdentifier: summary.passTypeIdentifier,
                style: summary.style, fields: summary.error == nil ? try? await issuer.fieldKeys(ofTemplate: summary.name) : nil,
                numericFields: summary.error == nil ? try? await issuer.numericFieldKeys(ofTemplate: summary.name) : nil,
                error: summary.error))
        }
        return try JSONBody.response(TemplateList(templates: items))
    }

    /// The state of a pass as the issuer API shows it.
    struct PassState: Encodable {
        var passTypeIdentifier: String
        var serialNumber: String
        var authenticationToken: String
        var downloadURL: String
        var template: String
        var data: JSONValue
        var voided: Bool
        var personalized: Bool
        var updateTag: String
        var lastModified: String
        var registrations: Int
        /// Valid scans at the gate so far, and the first one's time (RFC 3339).
        var redemptions: Int
        var redeemedAt: String?
        var pushesQueued: Int?
        /// The "Save to Google Wallet" link, when Google Wallet is configured.
        var googleSaveURL: String?
        /// The pass's Google object: ids, state, saves and deletes, updates not yet delivered.
        var google: GoogleWalletState?
        /// The validator's warnings for the version just made (unknown keys, ...), as `tessera pass create` prints.
        var warnings: [String]?
        /// Every field's value as the pass shows it now (the template's, with the pass's own data over it): in the
        /// answers about one pass (read, change, void), not in lists.
        var fields: [String: JSONValue]?
        /// The holder's landing page (Apple Wallet on an iPhone, Google Wallet on Android, a QR code elsewhere).
        var holderPageURL: String?
    }

    /// - Parameter withFields: Whether to add every field's current value (answers about one pass a person reads:
    ///   read, change, void; not creation, where it would apply the template once more on the create path).
    /// - Parameter created: Whether the pass was made just now: it has no registration or redemption yet, so the
    ///   answer reads nothing more from the store (a read failing after the commit would answer 5xx for a pass that
    ///   exists, and a retry would make a second one).
    func state(_ pass: PassRecord, pushesQueued: Int? = nil, warnings: [String]? = nil, withFields: Bool = false,
               created: Bool = false) async throws -> PassState
    {
        let redemption = created ? nil : try await issuer.redemptionSummary(of: pass)
        let googleState = await google?.googleState(of: pass)
        return PassState(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
            authenticationToken: pass.authenticationToken, downloadURL: issuer.downloadURL(for: pass),
            template: pass.template, data: try JSONValue(jsonData: pass.data), voided: pass.voided,
            personalized: pass.personalization != nil, updateTag: String(pass.updateTag),
            lastModified: HTTPDate.format(min(pass.lastModified, Date())),
            registrations: created ? 0 : try await issuer.registrationCount(of: pass),
            redemptions: redemption?.redemptions ?? 0, redeemedAt: redemption.map { RFC3339.format($0.firstRedeemedAt) },
            pushesQueued: pushesQueued, googleSaveURL: googleState?.saveURL, google: googleState, warnings: warnings,
            fields: withFields ? try? await issuer.currentFieldValues(of: pass) : nil, holderPageURL: issuer.holderPageURL(for: pass))
    }

    @Sendable func create(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(IssuerRequestBodies.Create.self, from: request, limit: maximumPassDataBodySize)
        // Another brand's template is, to a key, a template that does not exist.
        if !context.principal.isAdmin {
            guard let type = try? await issuer.signedPassTypeIdentifier(ofTemplate: body.template),
                  context.principal.covers(type)
            else { throw IssuerError.unknownTemplate(body.template) }
        }
        let (pass, warnings) = try await issuer.createPassReportingWarnings(template: body.template, data: body.data ?? [:])
        return EntityTag.tagged(try IssuerRequestBodies.created(
            try await state(pass, warnings: warnings, created: true),
            location: "\(issuer.webServiceURL)/api/v1/passes/\(pass.passTypeIdentifier)/\(pass.serialNumber)"), pass)
    }

    private func existing(_ context: WebServiceRequestContext) async throws -> PassRecord {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        guard let pass = try await issuer.item(typeIdentifier: type, identifier: serial) else {
            throw IssuerError.notFound
        }
        return pass
    }

    @Sendable func read(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let pass = try await existing(context)
        return EntityTag.tagged(try JSONBody.response(try await state(pass, withFields: true)), pass)
    }

    @Sendable func change(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        let ifUpdateTags = try EntityTag.updateTags(ifMatch: request.headers[.ifMatch])
        let body = try await JSONBody.decode(IssuerRequestBodies.Change.self, from: request, limit: maximumPassDataBodySize)
        guard let (update, warnings) = try await issuer.changePassReportingWarnings(
            passTypeIdentifier: type, serialNumber: serial, data: body.data, ifUpdateTags: ifUpdateTags)
        else { throw IssuerError.notFound }
        return EntityTag.tagged(
            try JSONBody.response(try await state(update.pass, pushesQueued: update.pushesQueued, warnings: warnings,
                                                  withFields: true)),
            update.pass)
    }

    @Sendable func void(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        guard let update = try await issuer.voidPass(passTypeIdentifier: type, serialNumber: serial) else {
            throw IssuerError.notFound
        }
        return EntityTag.tagged(
            try JSONBody.response(try await state(update.pass, pushesQueued: update.pushesQueued, withFields: true)),
            update.pass)
    }

    @Sendable func download(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let pass = try await existing(context)
        return try await PassResponse.make(
            for: pass, issuer: issuer, request: request, logger: context.logger, attachmentName: pass.serialNumber)
    }

    private struct BundleBody: Decodable {
        struct Item: Decodable {
            var passTypeIdentifier: String
            var serialNumber: String
        }
        var passes: [Item]
    }

    /// `POST /api/v1/pkpasses`: the named passes as one `.pkpasses` download, within Apple's limits.
    @Sendable func downloadBundle(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(BundleBody.self, from: request, limit: maximumBodySize)
        try issuer.checkPassesBundleCount(body.passes.count)
        var passes: [PassRecord] = []
        for (index, item) in body.passes.enumerated() {
            guard PathSegments.isValidPassTypeIdentifier(item.passTypeIdentifier) else {
                throw WebServiceError.invalid(
                    "passes[\(index)].passTypeIdentifier", "passes[\(index)].passTypeIdentifier: not a pass type identifier")
            }
            guard PathSegments.isValidSerialNumber(item.serialNumber) else {
                throw WebServiceError.invalid(
                    "passes[\(index)].serialNumber", "passes[\(index)].serialNumber: not a serial number")
            }
            guard context.principal.covers(item.passTypeIdentifier),
                  let pass = try await issuer.item(typeIdentifier: item.passTypeIdentifier, identifier: item.serialNumber)
            else {
                throw WebServiceError(
                    .notFound, status: .notFound,
                    "passes[\(index)]: no pass \(item.passTypeIdentifier) / \(item.serialNumber)", field: "passes[\(index)]")
            }
            passes.append(pass)
        }
        return PassesBundleResponse.make(
            try await issuer.passesBundle(for: passes, logger: context.logger), attachmentName: "passes")
    }

    private struct RegistrationCount: Encodable {
        var count: Int
    }

    @Sendable func registrations(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let pass = try await existing(context)
        let count = try await issuer.registrationCount(of: pass)
        return try JSONBody.response(RegistrationCount(count: count))
    }
}

/// The holder's download links: `GET /download/<token>.pkpass` (a pass) and `GET /download/<token>.order` (an
/// order), no credentials, the token being unguessable.
struct DownloadRoutes: Sendable {
    let issuer: PassIssuer
    let orderIssuer: OrderIssuer?

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.get("download/:file", use: download)
        group.head("download/:file", use: download)
    }

    @Sendable func download(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        do {
            guard let file = context.parameters.get("file") else { throw WebServiceError.noPassAtLink }
            if let orderIssuer, file.hasSuffix(".\(OrderIssuer.fileExtension)") {
                return try await Self.download(file, from: orderIssuer, request: request, context: context)
            }
            return try await Self.download(file, from: issuer, request: request, context: context)
        } catch {
            throw ErrorEnvelope.answering(error, request: request, logger: context.logger)
        }
    }

    private static func download<Issuer: WalletItemIssuer>(
        _ file: String, from issuer: Issuer, request: Request, context: WebServiceRequestContext
    ) async throws -> Response {
        var token = file
        if token.hasSuffix(".\(Issuer.fileExtension)") { token.removeLast(Issuer.fileExtension.count + 1) }
        guard let item = try await issuer.item(downloadToken: token) else { throw WebServiceError.noPassAtLink }
        if let answer = PassResponse.withoutBuilding(
            for: item, issuer: issuer, request: request, attachmentName: item.serialNumber)
        {
            return answer
        }
        return try await PassResponse.make(
            for: item, issuer: issuer, request: request, logger: context.logger, attachmentName: item.serialNumber)
    }
}
