public import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import PassBundle
import PassCrypto
import PassModel
import PassPreview
public import PassStore

/// A signing identity as the console shows it: which passes it signs and when its certificate expires.
public struct IdentitySummary: Sendable, Equatable {
    /// The Pass Type ID its certificate names.
    public var identifier: String
    /// The team (the certificate's OU).
    public var teamIdentifier: String?
    /// The templates signed with it.
    public var templates: [String]
    /// When the certificate expires.
    public var expiresAt: Date?
    /// When the Apple WWDR intermediate expires.
    public var intermediateExpiresAt: Date?
    /// Whole days until the earlier of the two (negative once expired).
    public var daysLeft: Int?
    /// Why it signs nothing now (expired), else `nil`.
    public var problem: String?
}

extension PassIssuer {
    /// Every signing identity of the templates folders, in their order.
    public func identitySummaries() async -> [IdentitySummary] {
        let at = now()
        let summaries = (try? await templateSummaries()) ?? []
        var seen: [String: Int] = [:]
        var identities: [IdentitySummary] = []
        for source in templates.versions.currentSources {
            let credentials = source.signer.credentials
            guard let identifier = credentials.identity.passTypeIdentifier else { continue }
            let names = PassIssuer.templateNames(in: source.directory).filter { name in
                summaries.first { $0.name == name }?.passTypeIdentifier.map { $0 == identifier } ?? true
            }
            if let index = seen[identifier] {
                identities[index].templates += names
                continue
            }
            let expiries = [credentials.certificate.notAfter, credentials.wwdr.notAfter].compactMap { $0 }
            seen[identifier] = identities.count
            identities.append(IdentitySummary(
                identifier: identifier, teamIdentifier: credentials.identity.teamIdentifier, templates: names,
                expiresAt: credentials.certificate.notAfter, intermediateExpiresAt: credentials.wwdr.notAfter,
                daysLeft: expiries.min().map { Int(($0.timeIntervalSince(at) / 86_400).rounded(.down)) },
                problem: credentials.unusableReason(at: at)))
        }
        return identities
    }

    /// A picture of a pass as its holder sees it now (its current data on its template), as PNG at twice the point
    /// size.
    /// - Parameters:
    ///   - record: The pass.
    ///   - side: `front` or `back`.
    /// - Throws: ``IssuerError`` when its template is gone or the picture cannot be drawn.
    public func preview(of record: PassRecord, side: String) async throws -> Data {
        let current = try await currentPass(of: record)
        // The pass's own images (a holder's photo) over the template's, as its signed versions carry them.
        var files = Self.ownImages(of: record)?.replacing(in: current.template.files) ?? current.template.files
        files.removeValue(forKey: "pass.json")
        return try await Self.render(PassPreviewRenderer(pass: current.pass, files: files), side: side)
    }

    /// The images of a pass's own, from its data's `images` (checked when they were sent); `nil` when it has none.
    static func ownImages(of record: PassRecord) -> PassImages? {
        guard var data = try? PassData(jsonData: record.data), let images = try? PassImages(taking: &data), !images.isEmpty
        else { return nil }
        return images
    }

    /// A picture of a template as it is now, with its own sample values, as PNG.
    /// - Throws: ``IssuerError`` `unknownTemplate` for a template that does not exist.
    public func templatePreview(named name: String, side: String) async throws -> Data {
        let entry = try await templateEntry(named: name)
        let template = entry.builder.template
        let renderer: PassPreviewRenderer
        do {
            renderer = try PassPreviewRenderer(template: template)
        } catch {
            throw IssuerError.invalidTemplate(name, "\(error)")
        }
        return try await Self.render(renderer, side: side)
    }

    /// How many of a template's passes carry each version of it, the current one first, then the most used: what an
    /// edited template left behind until a campaign republishes it.
    /// - Parameter passTypeIdentifier: Only the passes of this type (an API key's view: a name once another
    ///   brand's has that brand's passes too); `nil`, every pass made from the name.
    /// - Returns: The current version and the counts (`version` `nil`: passes not pinned to a version yet).
    /// - Throws: ``IssuerError`` `unknownTemplate`; 404 when the store does not count them.
    public func templateVersionCounts(named name: String, passTypeIdentifier: String? = nil) async throws
        -> (current: String, versions: [(version: String?, passes: Int)])
    {
        guard let counting = store as? any TemplateVersionCounting else { throw IssuerError.notFound }
        let current = try await templateEntry(named: name).version
        let counts = try await counting.passCountsByTemplateVersion(template: name, passTypeIdentifier: passTypeIdentifier)
        return (current, counts.sorted { ($0.version == current ? 1 : 0, $0.passes) > ($1.version == current ? 1 : 0, $1.passes) })
    }

    /// Where previews are drawn: one thread of their own. Drawing takes one lock for every picture (the rasterizer's
    /// fonts are not thread-safe); on the cooperative pool a wait for it would hold up every other request, and on
    /// NIO's shared blocking pool a burst of previews (the console's templates page draws one per card) would hold
    /// every thread that signs passes and reads templates. Here they wait in this thread's queue instead.
    private static let previews: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    private static func render(_ renderer: PassPreviewRenderer, side: String) async throws -> Data {
        guard let side = PassPreviewRenderer.Side(rawValue: side), side != .both else {
            throw IssuerError(status: .badRequest, description: "side: must be front or back, found \(side)", field: "side")
        }
        do {
            return try await previews.runIfActive { try renderer.png(side: side, scale: 2) }
        } catch {
            throw IssuerError(status: .unprocessableContent, description: "the preview cannot be drawn: \(error)", field: nil)
        }
    }
}
