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
    /// intermediate) expired. Stored versions are still served; `nil` when it can sign.
    func refusal(passTypeIdentifier: String) -> IssuerError? {
        guard let source = templates.currentSources.first(where: {
            $0.signer.credentials.identity.passTypeIdentifier == passTypeIdentifier
        }) else { return nil }
        return IssuerError.signingUnavailable(passTypeIdentifier, items: "passes", credentials: source.signer.credentials, at: now())
    }
}

extension IssuerError {
    /// 503 `signingUnavailable` when `credentials` have expired at `now`, else `nil`.
    static func signingUnavailable(_ identifier: String, items: String, credentials: PassCredentials, at now: Date) -> IssuerError? {
        credentials.expiryReason(at: now).map { reason in
            IssuerError(
                .signingUnavailable, status: .serviceUnavailable,
                description: "\(identifier): \(reason); stored \(items) are still served, new versions cannot be signed until the certificate is renewed",
                field: nil)
        }
    }
}
