internal import COpenSSL
import Foundation

/// One signer's detached CMS signature, made once by OpenSSL and kept as a pattern for every later signature.
///
/// With an RSA key, PKCS#1 v1.5 padding, SHA-256 and the three signed attributes `CMSSigner` asks for
/// (`contentType`, `signingTime`, `messageDigest`), two signatures by one signer differ in exactly three
/// fixed-size values: the `signingTime` (a 13-byte UTCTime from 1950 to 2049), the `messageDigest` (32 bytes) and
/// the RSA signature value (the modulus size). Everything else, certificates and lengths included, is the same bytes.
/// Signing through the pattern hashes the content, fills those two values into the signed attributes, RSA-signs
/// their SHA-256 (the same operation OpenSSL's `CMS_final` performs) and fills in the three values, skipping the
/// ~25 µs of ASN.1 building, encoding and freeing around each RSA operation.
///
/// A pattern is only used once proved: ``prepare(reference:content:signingTime:key:)`` re-signs the reference
/// signature's own content and time through the pattern and keeps it only when the result is byte-for-byte the
/// signature OpenSSL made (PKCS#1 v1.5 is deterministic). Anything else (EC keys, an unexpected layout) gets `nil`,
/// and the signer keeps using OpenSSL's full path.
struct CMSSignatureTemplate: Sendable {
    /// OpenSSL's reference signature (DER `ContentInfo`).
    private let reference: [UInt8]
    /// The signed attributes (`[0] IMPLICIT SET OF Attribute`) inside ``reference``, tag and length included.
    private let signedAttributes: Range<Int>
    /// The 13 bytes of the `signingTime` UTCTime's value.
    private let signingTimeValue: Range<Int>
    /// The 32 bytes of the `messageDigest` attribute's value.
    private let messageDigestValue: Range<Int>
    /// The RSA signature value.
    private let signatureValue: Range<Int>
    /// An RSA signing context for the key, set up once and copied for each signature.
    private let context: RSASigningContext

    private init(reference: [UInt8], signedAttributes: Range<Int>, signingTimeValue: Range<Int>, messageDigestValue: Range<Int>,
                 signatureValue: Range<Int>, context: RSASigningContext) {
        self.reference = reference
        self.signedAttributes = signedAttributes
        self.signingTimeValue = signingTimeValue
        self.messageDigestValue = messageDigestValue
        self.signatureValue = signatureValue
        self.context = context
    }

    /// Locates the three values in a signature OpenSSL made and checks the pattern reproduces it.
    /// - Parameters:
    ///   - reference: OpenSSL's detached signature of `content` at `signingTime`.
    ///   - content: The bytes it signs.
    ///   - signingTime: Its `signingTime`, in whole seconds.
    ///   - key: The signer's private key (`EVP_PKEY*`).
    /// - Returns: The pattern, or `nil` when the signature does not have the expected shape.
    static func prepare(reference: Data, content: Data, signingTime: time_t, key: OpaquePointer) -> CMSSignatureTemplate? {
        // RSASigningContext(key:) below refuses keys other than RSA.
        guard let time = utcTime(signingTime) else { return nil }
        let bytes = [UInt8](reference)
        let valueLength = Int(EVP_PKEY_get_size(key))
        // SignerInfo is the last element of SignedData, and with no unsigned attributes its signature value (an
        // OCTET STRING of the modulus size) ends the encoding.
        guard valueLength > 0, bytes.count > valueLength + 4,
              bytes[(bytes.count - valueLength - 4)..<(bytes.count - valueLength)].elementsEqual(
                [0x04, 0x82, UInt8(valueLength >> 8), UInt8(valueLength & 0xFF)]) else { return nil }
        let signatureValue = (bytes.count - valueLength)..<bytes.count
        guard let timeStart = onlyOccurrence(of: [0x17, 0x0D] + time, in: bytes[..<signatureValue.lowerBound]),
              let digestStart = onlyOccurrence(of: [0x04, 0x20] + Digest.sha256(content), in: bytes[..<signatureValue.lowerBound])
        else { return nil }
        let signingTimeRange = (timeStart + 2)..<(timeStart + 15)
        let digestRange = (digestStart + 2)..<(digestStart + 34)
        // The signed attributes: the nearest [0] before the signing time whose length spans both values and ends
        // before the signature value.
        var attributes: Range<Int>?
        for start in stride(from: timeStart - 1, through: max(0, timeStart - 256), by: -1) where bytes[start] == 0xA0 {
            guard let end = end(ofElementAt: start, in: bytes) else { continue }
            if end >= digestRange.upperBound && end >= signingTimeRange.upperBound && end <= signatureValue.lowerBound {
                attributes = start..<end
                break
            }
        }
        guard let attributes, attributes.lowerBound < digestRange.lowerBound, let context = RSASigningContext(key: key)
        else { return nil }
        let template = CMSSignatureTemplate(reference: bytes, signedAttributes: attributes, signingTimeValue: signingTimeRange,
                                            messageDigestValue: digestRange, signatureValue: signatureValue, context: context)
        guard let again = try? template.sign(content, at: signingTime), again == reference else { return nil }
        return template
    }

    /// Signs `content` at `signingTime` through the pattern.
    /// - Parameters:
    ///   - content: The exact bytes to sign.
    ///   - signingTime: The `signingTime`, in whole seconds.
    /// - Returns: The DER signature, or `nil` when the time has no UTCTime form (before 1950 or from 2050 on) and the
    ///   caller must take OpenSSL's full path.
    func sign(_ content: Data, at signingTime: time_t) throws -> Data? {
        guard let time = Self.utcTime(signingTime) else { return nil }
        let digest = Digest.sha256(content)
        var attributes = Array(reference[signedAttributes])
        attributes[0] = 0x31  // signed as a SET OF, as RFC 5652 §5.4 says, not with its [0] tag
        let base = signedAttributes.lowerBound
        attributes.replaceSubrange((signingTimeValue.lowerBound - base)..<(signingTimeValue.upperBound - base), with: time)
        attributes.replaceSubrange((messageDigestValue.lowerBound - base)..<(messageDigestValue.upperBound - base), with: digest)
        let value = try context.sign(sha256: Digest.sha256(attributes))
        guard value.count == signatureValue.count else {
            throw CryptoError.openSSL(.signingFailed, "the RSA signature has \(value.count) bytes, expected \(signatureValue.count)")
        }
        var result = reference
        result.replaceSubrange(signingTimeValue, with: time)
        result.replaceSubrange(messageDigestValue, with: digest)
        result.replaceSubrange(signatureValue, with: value)
        return Data(result)
    }

    /// `YYMMDDHHMMSSZ`, the UTCTime form RFC 5652 requires for signing times from 1950 through 2049.
    static func utcTime(_ time: time_t) -> [UInt8]? {
        var parts = tm()
        guard gmtime_r([time], &parts) != nil else { return nil }
        let year = Int(parts.tm_year) + 1900
        guard (1950...2049).contains(year) else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(13)
        for field in [year % 100, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)] {
            digits.append(UInt8(ascii: "0") + UInt8(field / 10))
            digits.append(UInt8(ascii: "0") + UInt8(field % 10))
        }
        digits.append(UInt8(ascii: "Z"))
        return digits
    }

    /// Where `pattern` starts in `bytes`, when it occurs exactly once.
    private static func onlyOccurrence(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        var found: Int?
        var index = bytes.startIndex
        while index + pattern.count <= bytes.endIndex {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                if found != nil { return nil }
                found = index
            }
            index += 1
        }
        return found
    }

    /// The end of the DER element whose tag is at `start` (definite lengths of up to two bytes).
    private static func end(ofElementAt start: Int, in bytes: [UInt8]) -> Int? {
        guard start + 1 < bytes.count else { return nil }
        let first = Int(bytes[start + 1])
        let (header, length): (Int, Int)
        switch first {
        case 0..<0x80: (header, length) = (2, first)
        case 0x81 where start + 2 < bytes.count: (header, length) = (3, Int(bytes[start + 2]))
        case 0x82 where start + 3 < bytes.count: (header, length) = (4, Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]))
        default: return nil
        }
        let end = start + header + length
        return end <= bytes.count ? end : nil
    }
}

/// An `EVP_PKEY_CTX` set up for PKCS#1 v1.5 signatures of SHA-256 hashes with one RSA key. It is never used to sign
/// itself: each signature signs with a copy (`EVP_PKEY_CTX_dup` only reads it, so threads can share it), which costs
/// 0.1 µs where a new context with its algorithm fetches costs 2.6 µs.
final class RSASigningContext: @unchecked Sendable {
    private let pointer: OpaquePointer
    private let signatureLength: Int

    init?(key: OpaquePointer) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
        guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
              EVP_PKEY_CTX_set_signature_md(context, FetchedDigest.sha256.pointer) == 1 else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        pointer = context
        signatureLength = Int(EVP_PKEY_get_size(key))
    }

    deinit {
        EVP_PKEY_CTX_free(pointer)
    }

    /// The signature of a SHA-256 hash (OpenSSL builds the DigestInfo and pads it).
    func sign(sha256 hash: [UInt8]) throws -> [UInt8] {
        guard let copy = EVP_PKEY_CTX_dup(pointer) else {
            throw CryptoError.openSSL(.internalFailure, "could not allocate a signing context")
        }
        defer { EVP_PKEY_CTX_free(copy) }
        var length = signatureLength
        var value = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(copy, &value, &length, hash, hash.count) == 1 else {
            throw CryptoError.openSSL(.signingFailed, "could not sign the manifest")
        }
        return Array(value.prefix(length))
    }
}
