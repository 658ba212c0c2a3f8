import Foundation
import PaymentToken
import Testing

/// Altering any signed field, or the signature itself, breaks verification; a wrong merchant identifier or key
/// breaks decryption.
@Suite("Tampering", .vectorsPresent)
struct TamperingTests {
    /// Flips the lowest bit of the byte at `index` (negative: from the end).
    static func flipped(_ data: Data, at index: Int) -> Data {
        var bytes = [UInt8](data)
        let position = index >= 0 ? index : bytes.count + index
        bytes[position] ^= 0x01
        return Data(bytes)
    }

    enum Field: String, CaseIterable, CustomTestStringConvertible {
        case data, keyMaterial, transactionId, signature
        var testDescription: String { rawValue }
    }

    static func tampered(_ token: ApplePayPaymentToken, _ field: Field) -> ApplePayPaymentToken {
        var token = token
        switch field {
        case .data: token.data = flipped(token.data, at: 10)
        case .keyMaterial:
            if let key = token.header.ephemeralPublicKey { token.header.ephemeralPublicKey = flipped(key, at: -1) }
            if let key = token.header.wrappedKey { token.header.wrappedKey = flipped(key, at: 5) }
        case .transactionId: token.header.transactionId = flipped(token.header.transactionId, at: -1)
        case .signature: token.signature = flipped(token.signature, at: -1)
        }
        return token
    }

    @Test(arguments: VectorSet.all, Field.allCases)
    func alteringASignedFieldFailsVerification(set: VectorSet, field: Field) throws {
        let token = Self.tampered(try set.token(), field)
        let error = try #require(throws: PaymentTokenError.self) {
            try VectorSet.appleVerifier().verify(token, now: set.signingTime)
        }
        #expect(error.code == .signatureInvalid || error.code == .certificateChainInvalid, "\(error)")
        if field != .signature { #expect(error.code == .signatureInvalid, "\(error)") }
    }

    @Test(arguments: VectorSet.decryptable)
    func wrongMerchantIdentifierFailsDecryption(set: VectorSet) throws {
        let right = try set.decryptor()
        let wrong = PaymentTokenDecryptor(merchantKeys: right.merchantKeys,
                                          merchantIdentifier: MerchantIdentifier(merchantID: "merchant.com.example.other"))
        let error = try #require(throws: PaymentTokenError.self) { try wrong.decrypt(try set.token()) }
        #expect(error.code == .decryptionFailed)
        #expect(error.field == "data")
        #expect(error.reason.contains("AES-GCM authentication failed"))
    }

    @Test(arguments: VectorSet.decryptable)
    func alteredDataFailsDecryption(set: VectorSet) throws {
        let token = Self.tampered(try set.token(), .data)
        let error = try #require(throws: PaymentTokenError.self) { try set.decryptor().decrypt(token) }
        #expect(error.code == .decryptionFailed)
    }

    @Test func spreedlyBogusDataIsRejectedAsMalformedBase64() throws {
        let set = VectorSet.decryptable[0]
        var object = try #require(try JSONSerialization.jsonObject(with: try set.data("token.json")) as? [String: Any])
        object["data"] = "bogus4OZho15e9Yp5K0EtKergKzeRpPAjnKHwmSNnagxhjwhKQ5d29sfTXjdbh1CtTJ4DYjsD6kfulNUnYmBTsruphBz7RRVI1WI8P0LrmfTnImjcq1mi"
        let error = try #require(throws: PaymentTokenError.self) {
            try ApplePayPaymentToken(jsonData: try JSONSerialization.data(withJSONObject: object))
        }
        #expect(error.code == .malformedToken)
        #expect(error.field == "data")
        #expect(error.reason == "data: is not valid Base64")
    }
}
