internal import COpenSSL
public import Foundation

extension CMSSigner {
    /// Signs `content` and records `signingTime` as the CMS `signingTime` attribute instead of the current time.
    ///
    /// Used to produce signatures "as of" a given moment, such as test Apple Pay tokens whose freshness is checked
    /// against an injected clock.
    /// - Parameters:
    ///   - content: The exact bytes to sign.
    ///   - signingTime: The moment to record in the signature.
    /// - Returns: A DER `ContentInfo` holding `SignedData` without the content.
    public func signDetached(_ content: Data, at signingTime: Date) throws -> Data {
        try signDetached(content, signingTime: signingTime)
    }

    /// Adds the `signingTime` signed attribute (UTCTime before 2050, GeneralizedTime after, as RFC 5652 requires).
    /// OpenSSL only adds its own `signingTime` when the attribute is missing, so this one is kept.
    static func add(signingTime: Date, to signerInfo: OpaquePointer) throws {
        guard let time = ASN1_TIME_set(nil, time_t(signingTime.timeIntervalSince1970.rounded(.down))) else {
            throw CryptoError.openSSL(.signingFailed, "could not encode the signing time")
        }
        defer { ASN1_TIME_free(time) }
        let added = CMS_signed_add1_attr_by_NID(signerInfo, NID_pkcs9_signingTime, ASN1_STRING_type(time), time, -1)
        guard added == 1 else {
            throw CryptoError.openSSL(.signingFailed, "could not add the signing time")
        }
    }
}
