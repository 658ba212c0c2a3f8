public import Foundation
import HTTPTypes
public import PassBundle
import PassCrypto

extension PassIssuer {
    /// A templates folder and the signing identity its templates' passes are signed with.
    public struct TemplateSource: Sendable {
        /// The folder, one template per sub-folder.
        public var directory: URL
        /// Signs the passes of its templates (the certificate's Pass Type ID and team fill each pass's).
        public var signer: PassSigner

        /// Creates a source.
        public init(directory: URL, signer: PassSigner) {
            self.directory = directory
            self.signer = signer
        }
    }

    /// Why new versions of passes of `passTypeIdentifier` cannot be signed now: its identity's certificate (or WWDR
    /// intermediate) expired or is not valid yet. Stored versions are still served; `nil` when it can sign.
    /// When no identity signs that Pass Type ID any more (its entry was taken out of the identities file), that is the
    /// refusal: another identity's certificate would make the pass another brand's, which Wallet refuses at the pass's
    /// own URL.
    func refusal(passTypeIdentifier: String) -> IssuerError? {
        let sources = templates.versions.currentSources
        guard let source = sources.first(where: {
            $0.signer.credentials.identity.passTypeIdentifier == passTypeIdentifier
        }) else {
            // A certificate that names no Pass Type ID (some test chains) signs whatever its templates say.
            guard sources.contains(where: { $0.signer.credentials.identity.passTypeIdentifier != nil }) else { return nil }
            return IssuerError.noIdentity(passTypeIdentifier, items: "passes")
        }
        return IssuerError.signingUnavailable(passTypeIdentifier, items: "passes", credentials: source.signer.credentials, at: now())
    }
}

extension IssuerError {
    /// 503 `signingUnavailable`: no identity of the server signs `identifier` now.
    static func noIdentity(_ identifier: String, items: String) -> IssuerError {
        IssuerError(
            .signingUnavailable, status: .serviceUnavailable,
            description: "\(identifier): no signing identity of this server has that type identifier any more; "
                + "new versions of its \(items) cannot be signed until an identity for it is configured again",
            field: nil)
    }

    /// A failure to make a version that is the server's, not the request's: a key on a token that is gone or locked,
    /// credentials that no longer read (503 `signingUnavailable`, so a caller tries again rather than changing its
    /// data), or a bundle that could not be written (the error itself: the envelope logs it and answers 500). `nil`
    /// for the data's own faults, which the caller answers with 422: content the validator refuses, identifiers that
    /// are not the certificate's.
    /// - Parameters:
    ///   - error: What building or signing threw.
    ///   - items: `passes` or `orders`.
    static func serverFault(_ error: PassBundleError, items: String) -> (any Error)? {
        switch error.code {
        case .invalidPass, .invalidOrder, .identityMismatch:
            return nil
        case .credentials, .passwordRequired, .intermediateMissing, .wrongIntermediate:
            return IssuerError(
                .signingUnavailable, status: .serviceUnavailable,
                description: "the signing identity could not sign new versions of its \(items) (\(error.reason)); "
                    + "stored versions are still served, try again once the identity signs",
                field: nil)
        default:
            return error
        }
    }

    /// 503 `signingUnavailable` when `credentials` cannot sign at `now`: expired, or not valid yet (a certificate
    /// issued with a start in the future, or a server clock behind: Wallet refuses a signature made outside the
    /// certificate's validity, so none is made), else `nil`.
    static func signingUnavailable(_ identifier: String, items: String, credentials: PassCredentials, at now: Date) -> IssuerError? {
        if let reason = credentials.expiryReason(at: now) {
            return IssuerError(
                .signingUnavailable, status: .serviceUnavailable,
                description: "\(identifier): \(reason); stored \(items) are still served, new versions cannot be signed until the certificate is renewed",
                field: nil)
        }
        return credentials.unusableReason(at: now).map { reason in
            IssuerError(
                .signingUnavailable, status: .serviceUnavailable,
                description: "\(identifier): \(reason) (check the server's clock); stored \(items) are still served, "
                    + "new versions are signed from then on",
                field: nil)
        }
    }
}
