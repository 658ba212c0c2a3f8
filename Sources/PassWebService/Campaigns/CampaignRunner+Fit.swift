import Foundation
import NIOPosix
import PassModel
import PassBundle
import HTTPTypes
public import PassStore
import Synchronization

/// Whether a campaign's change fits each pass's template version (a pass it does not fit is left as it is and
/// reported, never given a version no fetch can build).
extension CampaignRunner {
    /// Why a pass's new version would not build, or `nil` when it would.
    ///
    /// The campaign was checked once, when it was accepted, against the selected template's current content (or the
    /// first selected pass). A pass pinned to an earlier version of its template, or of another template among the
    /// serial numbers, may lack a field the data sets; a pass moved to the current content by `republishTemplate`
    /// may carry a field the content no longer has. Such a pass is refused here, as `PATCH` refuses the same change,
    /// instead of becoming a version no fetch can build.
    ///
    /// Data: the change is tried once per template version (the first pass of that version, built with the data and
    /// message merged), and that version's answer holds for its other passes, so a campaign over one version signs
    /// no more than its trial. That holds while the change sets field values and images only, which fit or not the
    /// same way on every pass of a version; a change of other keys (`barcodes`, an encoding, dates) may fit one
    /// pass's own data (its barcode message) and not another's, so each pass is validated too (not signed), before
    /// the version's trial. Republishing: each pass's own field keys are looked up in the current content, and the
    /// change is tried once per version the passes come from.
    func misfit(_ pass: PassRecord, request: CampaignRequest, fits: TemplateVersionFits) async throws -> String? {
        switch request.action {
        case .void, .unvoid:
            return nil
        case .data:
            let key = "\(pass.template)\u{0}\(pass.templateVersion ?? "")"
            // Each pass validated first when its own data may decide (so the version's trial, below, is made on a pass
            // whose data fits, and a pass that does not fit never decides for the others).
            if Self.dependsOnEachPass(request),
               let reason = try check(pass, request: request, entry: try await issuer.templateEntry(for: pass)) {
                return reason
            }
            if let known = fits.verdict(key) { return known }
            let entry = try await issuer.templateEntry(for: pass)
            let verdict = try await trial(pass, request: request, entry: entry)
            fits.record(key, verdict)
            return verdict
        case .republishTemplate:
            let entry = if let version = request.templateVersion {
                try await issuer.templateEntry(for: Self.pinned(pass, to: version))
            } else {
                try await issuer.templateEntry(named: pass.template)
            }
            let keys = Set(PassIssuer.fieldKeys(of: entry.builder.template.pass))
            let own = (try PassIssuer.document(pass.data))["fields"]?.objectValue ?? [:]
            if let missing = own.keys.sorted().first(where: { !keys.contains($0) }) {
                return "fields.\(missing): the template's current content has no field with this key"
            }
            let key = "\(pass.template)\u{0}\(pass.templateVersion ?? "")\u{0}republish"
            if let known = fits.verdict(key) { return known }
            let verdict = try await trial(pass, request: request, entry: entry)
            fits.record(key, verdict)
            return verdict
        }
    }

    /// Whether a data change may fit some passes of a template version and not others: it sets more than field
    /// values and images.
    static func dependsOnEachPass(_ request: CampaignRequest) -> Bool {
        guard case .data(let patch) = request.action else { return false }
        return patch.keys.contains { $0 != "fields" && $0 != "images" }
    }

    /// Validates `pass` changed as the campaign changes it, with `entry`, without signing: the validator's refusal,
    /// or `nil`.
    private func check(_ pass: PassRecord, request: CampaignRequest, entry: TemplateLibrary.Entry) throws -> String? {
        var candidate = pass
        candidate.data = try change(pass, request: request, templateVersion: nil).data ?? pass.data
        do {
            try issuer.checkNow(candidate, entry: entry)
            return nil
        } catch let error as IssuerError where error.status == .unprocessableContent {
            return "the data does not fit the template version this pass is built from: \(error.description)"
        } catch {
            return nil
        }
    }

    /// Builds (and signs, on NIO's blocking pool) `pass` changed as the campaign changes it, with `entry`: the
    /// validator's refusal, or `nil` when it builds. Only a refusal of the data counts: a failure to sign (an expired
    /// certificate) does not keep a pass from changing, as it does not keep it from being fetched later.
    private func trial(_ pass: PassRecord, request: CampaignRequest, entry: TemplateLibrary.Entry) async throws -> String? {
        var candidate = pass
        candidate.data = try change(pass, request: request, templateVersion: nil).data ?? pass.data
        let issuer = self.issuer
        let built = candidate
        do {
            _ = try await NIOThreadPool.singleton.runIfActive { try issuer.buildNow(built, entry: entry) }
            return nil
        } catch let error as IssuerError where error.status == .unprocessableContent {
            return "the data does not fit the template version this pass is built from: \(error.description)"
        } catch where Task.isCancelled {
            // Stopped (a shutdown), not tried: no verdict, which would otherwise hold for every pass of the version.
            throw CancellationError()
        } catch {
            return nil
        }
    }
}

/// Which template versions a campaign's change fits, as tried (``CampaignRunner``): a version's answer, once known,
/// holds for its other passes. One per campaign run; the batch read while another is written shares it.
final class TemplateVersionFits: Sendable {
    /// Per template and version: `.some(nil)` when the change builds, `.some(reason)` when it does not.
    private let verdicts = Mutex([String: String?]())

    /// The version's answer when tried already.
    func verdict(_ key: String) -> String?? {
        verdicts.withLock { $0[key] }
    }

    /// Keeps a version's answer.
    func record(_ key: String, _ verdict: String?) {
        verdicts.withLock { $0[key] = .some(verdict) }
    }
}
