import Foundation
import PaymentToken
import Testing

/// Reading tokens in their three JSON shapes, naming malformed fields, and keeping card data out of descriptions.
@Suite("Token decoding")
struct DecodingTests {
    static let dave = VectorSet.decryptable[3]

    func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(.vectorsPresent) func acceptsPaymentDataWrapperAndWholePayment() throws {
        let wrapper = try object(try Self.dave.data("payload.json"))
        let paymentData = try JSONSerialization.data(withJSONObject: try #require(wrapper["paymentData"]))
        let payment = try JSONSerialization.data(withJSONObject: [
            "token": wrapper, "billingContact": ["givenName": "A", "familyName": "B"], "shippingContact": [:],
        ] as [String: Any])
        let fromWrapper = try ApplePayPaymentToken(jsonData: try Self.dave.data("payload.json"))
        let fromPaymentData = try ApplePayPaymentToken(jsonData: paymentData)
        let fromPayment = try ApplePayPaymentToken(jsonData: payment)
        #expect(fromWrapper.transactionIdentifier == "BA6C0A1FA939878CBA30B9A8BFB6761AEC6DBC92075E08D8DBB91519B9C9CB5D")
        #expect(fromWrapper.transactionIdentifier?.lowercased() == fromWrapper.header.transactionIdHex)
        #expect(fromPaymentData.transactionIdentifier == nil)
        #expect(fromPayment == fromWrapper)
        var stripped = fromWrapper
        stripped.transactionIdentifier = nil
        stripped.paymentMethod = nil
        #expect(stripped == fromPaymentData)
        #expect(try Self.dave.decryptor().decrypt(fromPayment).lastFour == "4524")
    }

    @Test(.vectorsPresent, arguments: [
        ("header", "transactionId", nil as String?, "header.transactionId: is missing"),
        ("header", "transactionId", "xyz", "header.transactionId: is not hexadecimal"),
        ("header", "ephemeralPublicKey", nil, "header.ephemeralPublicKey: is missing"),
        ("header", "publicKeyHash", "***", "header.publicKeyHash: is not valid Base64"),
        ("", "signature", nil, "signature: is missing"),
        ("", "version", "EC_v2", "version: \"EC_v2\" is not EC_v1 or RSA_v1"),
    ])
    func malformedFieldsAreNamed(container: String, key: String, value: String?, reason: String) throws {
        var token = try object(try VectorSet.decryptable[1].data("token.json"))
        if container.isEmpty {
            token[key] = value
        } else {
            var inner = try #require(token[container] as? [String: Any])
            inner[key] = value
            token[container] = inner
        }
        let error = try #require(throws: PaymentTokenError.self) {
            try ApplePayPaymentToken(jsonData: try JSONSerialization.data(withJSONObject: token))
        }
        #expect(error.reason == reason)
        #expect(error.code == (key == "version" ? .unsupportedVersion : .malformedToken))
        #expect(error.field == (container.isEmpty ? key : "\(container).\(key)"))
    }

    @Test func wrappedFieldsAreNamedWithTheirPath() throws {
        let data = Data(#"{"paymentData": {"version": "RSA_v1", "data": "AAAA", "signature": "AAAA", "header": {}}}"#.utf8)
        let error = try #require(throws: PaymentTokenError.self) { try ApplePayPaymentToken(jsonData: data) }
        #expect(error.reason == "paymentData.header.wrappedKey: is missing")
        let notJSON = try #require(throws: PaymentTokenError.self) { try ApplePayPaymentToken(jsonData: Data("nope".utf8)) }
        #expect(notJSON.code == .malformedToken)
    }

    @Test(.vectorsPresent) func descriptionsNeverShowTheAccountNumberOrCryptogram() throws {
        let set = VectorSet.decryptable[0]
        let payment = try set.decryptor().decrypt(try set.token())
        let pan = payment.applicationPrimaryAccountNumber
        let cryptogram = try #require(payment.paymentData.onlinePaymentCryptogram)
        var dumped = ""
        dump(payment, to: &dumped)
        var dumpedDetails = ""
        dump(payment.paymentData, to: &dumpedDetails)
        for text in [payment.description, String(reflecting: payment), "\(payment)", dumped,
                     payment.paymentData.description, String(reflecting: payment.paymentData), dumpedDetails] {
            #expect(!text.contains(pan))
            #expect(!text.contains(cryptogram))
        }
        #expect(payment.description.contains("••••4320"))
        #expect(payment.description.contains("cryptogram <redacted>"))
    }

    @Test(.vectorsPresent) func merchantKeysLoadFromEveryPublishedForm() throws {
        // SEC1 (spreedly), PKCS#8 after "Bag Attributes" lines (dave-inc, Sepuka).
        for set in VectorSet.decryptable {
            let key = try MerchantKey(contentsOf: set.path(set.keyFile ?? ""))
            #expect(key.algorithm == .ecP256)
            #expect(key.publicKeyHashBase64 == (try set.expected()["publicKeyHashOfMerchantKey_b64"] as? String))
        }
        let error = try #require(throws: PaymentTokenError.self) { try MerchantKey(contentsOf: "/nonexistent.pem") }
        #expect(error.code == .invalidMerchantKey)
        let certificate = try #require(throws: PaymentTokenError.self) {
            try MerchantKey(contentsOf: VectorSet.decryptable[0].path("certificate.pem"))
        }
        #expect(certificate.code == .invalidMerchantKey)
    }
}
