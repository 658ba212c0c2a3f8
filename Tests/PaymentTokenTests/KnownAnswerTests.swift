import Foundation
import PassCrypto
@testable import PaymentToken
import Testing

/// The public token sets: decryption equals the expected plaintext, and the genuine Apple signatures verify at
/// their signing time but not today.
@Suite("Known-answer vectors", .vectorsPresent)
struct KnownAnswerTests {
    @Test(arguments: VectorSet.decryptable)
    func decryptsToTheExpectedPlaintext(set: VectorSet) throws {
        let token = try set.token()
        let decryptor = try set.decryptor()
        let expected = try set.expected()
        #expect(decryptor.merchantKeys[0].publicKeyHashBase64 == expected["publicKeyHashOfMerchantKey_b64"] as? String)
        #expect(decryptor.merchantIdentifier.description == expected["merchantIdentifierHashHex"] as? String)
        #expect(try decryptor.decryptedBytes(of: token) == set.expectedPlaintext())

        let payment = try decryptor.decrypt(token)
        let decrypted = try #require(expected["decrypted"] as? [String: Any])
        let details = try #require(decrypted["paymentData"] as? [String: Any])
        #expect(payment.applicationPrimaryAccountNumber == decrypted["applicationPrimaryAccountNumber"] as? String)
        #expect(payment.applicationExpirationDate == decrypted["applicationExpirationDate"] as? String)
        #expect(payment.currencyCode == decrypted["currencyCode"] as? String)
        #expect(payment.transactionAmount == (decrypted["transactionAmount"] as? Int).map { Decimal($0) })
        #expect(payment.deviceManufacturerIdentifier == decrypted["deviceManufacturerIdentifier"] as? String)
        #expect(payment.paymentDataType == "3DSecure")
        #expect(payment.paymentData.onlinePaymentCryptogram == details["onlinePaymentCryptogram"] as? String)
        #expect(payment.paymentData.eciIndicator == details["eciIndicator"] as? String)
        #expect(payment.unknownKeys.isEmpty)
    }

    @Test(arguments: VectorSet.all)
    func signatureVerifiesAtTheSigningTime(set: VectorSet) throws {
        let token = try set.token()
        let signature = try VectorSet.appleVerifier().verify(token, now: set.signingTime)
        #expect(signature.signingTime == set.signingTime)
        #expect(signature.intermediate.subject["CN"] == "Apple Application Integration CA - G3")
        #expect(signature.leaf.subject["CN"]?.contains("smp-broker-sign") == true)
        // Within the 5-minute tolerance on either side.
        _ = try VectorSet.appleVerifier().verify(token, now: set.signingTime.addingTimeInterval(299))
        _ = try VectorSet.appleVerifier().verify(token, now: set.signingTime.addingTimeInterval(-299))
    }

    @Test(arguments: VectorSet.all)
    func signatureFailsToday(set: VectorSet) throws {
        let error = try #require(throws: PaymentTokenError.self) {
            try VectorSet.appleVerifier().verify(try set.token(), now: Date())
        }
        #expect(error.code == .certificateChainInvalid, "\(error)")
        #expect(error.reason.hasPrefix("signature: a signing certificate is not valid at the verification time"))
    }

    @Test(arguments: VectorSet.all)
    func signingTimeTooOldFailsWhileCertificatesAreStillValid(set: VectorSet) throws {
        let later = set.signingTime.addingTimeInterval(301)
        let error = try #require(throws: PaymentTokenError.self) {
            try VectorSet.appleVerifier().verify(try set.token(), now: later)
        }
        #expect(error.code == .signingTimeOutOfRange)
        #expect(error.signingTime == set.signingTime)
        #expect(error.now == later)
    }

    @Test func processoutTokensKeepTheirWrapperAndVersion() throws {
        let ec = try VectorSet.signatureOnly[0].token()
        let rsa = try VectorSet.signatureOnly[1].token()
        #expect(ec.version == .ecV1 && ec.header.ephemeralPublicKey != nil && ec.header.wrappedKey == nil)
        #expect(rsa.version == .rsaV1 && rsa.header.wrappedKey != nil && rsa.header.ephemeralPublicKey == nil)
        #expect(rsa.transactionIdentifier == "87451E8280EB80472832B45739CA1722984FAE5865957E1C8F4C77A312399C79")
        #expect(rsa.transactionIdentifier?.lowercased() == rsa.header.transactionIdHex)
        #expect(ec.paymentMethod == ApplePayPaymentToken.PaymentMethod(displayName: "Visa 3595", network: "Visa", type: "debit"))
    }

    @Test(arguments: VectorSet.decryptable)
    func kdfGivesTheExpectedSymmetricKey(set: VectorSet) throws {
        let expected = try set.expected()
        let sharedSecret = try #require(Data(base64Encoded: expected["sharedSecret_b64"] as? String ?? ""))
        let key = AppleKDF.symmetricKeyBytes(sharedSecret: sharedSecret, merchantIdentifierHash: try set.merchantIdentifier().hash)
        #expect(key.base64EncodedString() == expected["symmetricKey_b64"] as? String)
        #expect((AppleKDF.otherInfoPrefix + (try set.merchantIdentifier().hash)).map { String(format: "%02x", $0) }.joined()
                    == expected["kdfOtherInfo_hex"] as? String)
    }

    @Test func kdfAndAESMatchThePayULowLevelVector() throws {
        let set = VectorSet.decryptable[2]
        let vector = try #require(try JSONSerialization.jsonObject(with: try set.data("kdf-aes-vector.json")) as? [String: String])
        let hex = try #require(vector["sharedSecret_hex"])
        let sharedSecret = Data(stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        })
        let key = AppleKDF.symmetricKeyBytes(sharedSecret: sharedSecret, merchantIdentifierHash: try set.merchantIdentifier().hash)
        #expect(key.base64EncodedString() == vector["symmetricKey_b64"])
        let ciphertext = try #require(Data(base64Encoded: vector["ciphertextWithTag_b64"] ?? ""))
        #expect(try AppleKDF.open(ciphertext, keyBytes: key) == Data((vector["plaintext"] ?? "").utf8))
    }
}
