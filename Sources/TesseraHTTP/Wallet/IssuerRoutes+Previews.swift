import Barcodes
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PassModel
import PassWebService
import Timestamps

/// Pictures of passes and templates (`…/preview?side=front|back`, PNG) and the signing identities
/// (`GET /api/v1/identities`): what the console shows an issuer.
extension IssuerRoutes {
    func addPreviews(passes: RouterGroup<WebServiceRequestContext>, templates: RouterGroup<WebServiceRequestContext>,
                     group: RouterGroup<WebServiceRequestContext>) {
        passes.get(":passTypeIdentifier/:serialNumber/preview", use: passPreview)
        passes.get(":passTypeIdentifier/:serialNumber/holder-qr", use: holderQR)
        templates.get(":name/preview", use: templatePreview)
        templates.get(":name/versions", use: templateVersions)
        group.group("identities").add(middleware: access.middleware(typeParameter: nil)).get(use: identities)
    }

    private static func side(_ request: Request) -> String {
        request.uri.formQueryParameters["side"].map(String.init) ?? "front"
    }

    /// `GET /api/v1/passes/{type}/{serial}/preview`: the pass as its holder sees it now.
    @Sendable func passPreview(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        guard let pass = try await issuer.item(typeIdentifier: type, identifier: serial) else { throw IssuerError.notFound }
        return Self.png(try await issuer.preview(of: pass, side: Self.side(request)))
    }

    /// `GET /api/v1/passes/{type}/{serial}/holder-qr`: a QR code (SVG) of the pass's holder landing page, to print or
    /// show at a desk.
    @Sendable func holderQR(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let type = try PathSegments.passTypeIdentifier(in: context)
        let serial = try PathSegments.serialNumber(in: context)
        guard let pass = try await issuer.item(typeIdentifier: type, identifier: serial) else { throw IssuerError.notFound }
        let svg = try BarcodeRenderer.render(Barcode(format: .qr, message: issuer.holderPageURL(for: pass), messageEncoding: "utf-8"))
            .svg(scale: 4)
        return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, no-cache",
                                               .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'"],
                        body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    /// `GET /api/v1/templates/{name}/preview`: the template with its own sample values.
    @Sendable func templatePreview(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        // Another brand's template is, to a key, a template that does not exist.
        let type = try? await issuer.signedPassTypeIdentifier(ofTemplate: name)
        guard let type, context.principal.covers(type) else {
            throw WebServiceError(.notFound, status: .notFound, "no template named \"\(name)\"")
        }
        return Self.png(try await issuer.templatePreview(named: name, side: Self.side(request)))
    }

    private struct VersionCounts: Encodable {
        struct Item: Encodable {
            var version: String?
            var passes: Int
            var current: Bool
        }

        var name: String
        var currentVersion: String
        var versions: [Item]
        /// Passes not on the current version.
        var passesOnOlderVersions: Int
    }

    /// `GET /api/v1/templates/{name}/versions`: how many passes carry each version of the template.
    @Sendable func templateVersions(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        let type = try? await issuer.signedPassTypeIdentifier(ofTemplate: name)
        guard let type, context.principal.covers(type) else {
            throw WebServiceError(.notFound, status: .notFound, "no template named \"\(name)\"")
        }
        // An API key counts its own pass type's passes only; the admin, every pass made from the name.
        let counts = try await issuer.templateVersionCounts(
            named: name, passTypeIdentifier: context.principal.isAdmin ? nil : type)
        let items = counts.versions.map { VersionCounts.Item(version: $0.version, passes: $0.passes, current: $0.version == counts.current) }
        return try JSONBody.response(VersionCounts(
            name: name, currentVersion: counts.current, versions: items,
            passesOnOlderVersions: items.filter { !$0.current }.reduce(0) { $0 + $1.passes }))
    }

    private static func png(_ data: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, no-cache"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct IdentityList: Encodable {
        struct Item: Encodable {
            var identifier: String
            var teamIdentifier: String?
            var templates: [String]
            var expiresAt: String?
            var intermediateExpiresAt: String?
            var daysLeft: Int?
            var problem: String?
        }

        var identities: [Item]
    }

    /// `GET /api/v1/identities`: each signing identity a key's scope covers, with its certificate's days left.
    @Sendable func identities(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let principal = context.principal
        let identities = await issuer.identitySummaries().filter { principal.covers($0.identifier) }
        return try JSONBody.response(IdentityList(identities: identities.map {
            .init(identifier: $0.identifier, teamIdentifier: $0.teamIdentifier, templates: $0.templates,
                  expiresAt: $0.expiresAt.map(RFC3339.format), intermediateExpiresAt: $0.intermediateExpiresAt.map(RFC3339.format),
                  daysLeft: $0.daysLeft, problem: $0.problem)
        }))
    }
}
