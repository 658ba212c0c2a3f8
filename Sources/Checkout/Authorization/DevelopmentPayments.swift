import Foundation
import PassModel
import PassCrypto
import PaymentToken

/// Development mode's stand-in for an Apple device: a throwaway signing hierarchy shaped like Apple's (root,
/// intermediate with OID 1.2.840.113635.100.6.2.14, leaf with OID 1.2.840.113635.100.6.29) and a throwaway
/// payment-processing key, generated at start-up and trusted only while development mode is on. Tokens it makes go
/// through exactly the same verification, decryption and checks as real ones.
struct DevelopmentPayments: Sendable {
    let root: Certificate
    let signer: CMSSigner
    let merchantKey: MerchantKey
    let encryptor: PaymentTokenEncryptor

    init(merchantIdentifier: String, now: Date) throws {
        let from = now.addingTimeInterval(-86_400)
        let until = now.addingTimeInterval(365 * 86_400)
        func name(_ common: String) -> DistinguishedName {
            DistinguishedName([("CN", common), ("OU", "TESSERA DEVELOPMENT - NOT APPLE"), ("O", "Tessera")])
        }
        let rootKey = try PrivateKey.generateP256()
        root = try CertificateBuilder(
            subject: name("Tessera Development Apple Pay Root"), notBefore: from, notAfter: until,
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash")]
        ).issue(publicKeyOf: rootKey, issuer: nil, issuerKey: rootKey)
        let intermediateKey = try PrivateKey.generateP256()
        let intermediate = try CertificateBuilder(
            subject: name("Tessera Development Application Integration CA"), notBefore: from, notAfter: until,
            extensions: [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
                         (PaymentTokenVerifier.intermediateOID, "ASN1:NULL")]
        ).issue(publicKeyOf: intermediateKey, issuer: root, issuerKey: rootKey)
        let leafKey = try PrivateKey.generateP256()
        let leaf = try CertificateBuilder(
            subject: name("tessera-development-smp-broker-sign"), notBefore: from, notAfter: until,
            extensions: [("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
                         (PaymentTokenVerifier.leafOID, "ASN1:NULL")]
        ).issue(publicKeyOf: leafKey, issuer: intermediate, issuerKey: intermediateKey)
        signer = try CMSSigner(certificate: leaf, privateKey: leafKey, chain: [intermediate])
        merchantKey = try MerchantKey(data: Data(try PrivateKey.generateP256().pkcs8PEM().utf8),
                                      source: "development payment-processing key")
        encryptor = try PaymentTokenEncryptor(merchantKey: merchantKey,
                                              merchantIdentifier: MerchantIdentifier(merchantID: merchantIdentifier))
    }

    /// A whole Apple Pay payment (`{"token": ..., "billingContact": ..., "shippingContact": ...}`) paying
    /// `minorUnits` of the currency with the test card 4111 1111 1111 1111.
    func payment(minorUnits: Decimal, currencyNumeric: String, applicationData: Data, at now: Date,
                 billingContact: JSONValue?, shippingContact: JSONValue?) throws -> Data {
        let plaintext: JSONValue = [
            "applicationPrimaryAccountNumber": "4111111111111111", "applicationExpirationDate": "301231",
            "currencyCode": .string(currencyNumeric),
            "transactionAmount": .integer(NSDecimalNumber(decimal: minorUnits).intValue),
            "deviceManufacturerIdentifier": "040010030273", "paymentDataType": "3DSecure",
            "paymentData": ["onlinePaymentCryptogram": .string(Data("tessera-development".utf8).base64EncodedString()),
                            "eciIndicator": "7"],
        ]
        var token = try encryptor.seal(try plaintext.jsonData(sortedKeys: true, prettyPrinted: false),
                                       applicationData: applicationData)
        token.signature = try signer.signDetached(token.signedContent, at: now)
        var payment: [String: JSONValue] = [
            "token": [
                "paymentData": try JSONValue(jsonData: try token.jsonData()),
                "transactionIdentifier": .string(token.header.transactionIdHex.uppercased()),
                "paymentMethod": ["displayName": "Visa 1111", "network": "Visa", "type": "debit"],
            ],
        ]
        payment["billingContact"] = billingContact
        payment["shippingContact"] = shippingContact
        return try JSONValue.object(payment).jsonData(sortedKeys: true, prettyPrinted: false)
    }
}
