public import Foundation
import PassCrypto
import PassModel

extension ApplePayPaymentToken {
    /// Decodes a token from JSON: the `paymentData` object, a `PKPaymentToken` wrapper holding it, or a whole
    /// Apple Pay payment whose `token` is such a wrapper.
    /// - Parameter jsonData: The JSON bytes.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/malformedToken`` naming the field at fault, or
    ///   ``PaymentTokenError/Code/unsupportedVersion``.
    public init(jsonData: Data) throws {
        let root: JSONValue
        do {
            root = try JSONValue(jsonData: jsonData)
        } catch {
            throw PaymentTokenError(.malformedToken, "the token is not valid JSON")
        }
        guard var object = root.objectValue else {
            throw PaymentTokenError(.malformedToken, "the token is not a JSON object")
        }
        var path = ""
        if let token = object["token"]?.objectValue, object["version"] == nil {
            object = token
            path = "token."
        }
        var wrapper: [String: JSONValue]?
        if let paymentData = object["paymentData"] {
            guard let inner = paymentData.objectValue else {
                throw PaymentTokenError.malformedToken(field: path + "paymentData", "is not an object")
            }
            wrapper = object
            object = inner
            path += "paymentData."
        }
        let reader = FieldReader(object: object, path: path)
        let versionText = try reader.string("version")
        guard let version = Version(rawValue: versionText) else {
            throw PaymentTokenError(.unsupportedVersion, "\(path)version: \"\(versionText)\" is not EC_v1 or RSA_v1",
                                    field: path + "version")
        }
        let data = try reader.base64("data")
        let signature = try reader.base64("signature")
        let header = try reader.nested("header")
        let ephemeralPublicKey = version == .ecV1 ? try header.base64("ephemeralPublicKey") : nil
        let wrappedKey = version == .rsaV1 ? try header.base64("wrappedKey") : nil
        let publicKeyHash = try header.base64("publicKeyHash")
        let transactionId = try header.hex("transactionId")
        let applicationData = try header.optionalHex("applicationData")
        self.init(version: version, data: data, signature: signature,
                  header: Header(ephemeralPublicKey: ephemeralPublicKey, wrappedKey: wrappedKey, publicKeyHash: publicKeyHash,
                                 transactionId: transactionId, applicationData: applicationData))
        if let wrapper {
            transactionIdentifier = wrapper["transactionIdentifier"]?.stringValue
            if let method = wrapper["paymentMethod"]?.objectValue {
                paymentMethod = PaymentMethod(displayName: method["displayName"]?.stringValue,
                                              network: method["network"]?.stringValue, type: method["type"]?.stringValue)
            }
        }
    }

    /// The `paymentData` object as JSON (Base64 and hexadecimal fields as Apple writes them), sorted keys.
    /// - Returns: The JSON bytes.
    public func jsonData() throws -> Data {
        var header: [String: JSONValue] = [
            "publicKeyHash": .string(self.header.publicKeyHash.base64EncodedString()),
            "transactionId": .string(self.header.transactionIdHex),
        ]
        header["ephemeralPublicKey"] = self.header.ephemeralPublicKey.map { .string($0.base64EncodedString()) }
        header["wrappedKey"] = self.header.wrappedKey.map { .string($0.base64EncodedString()) }
        header["applicationData"] = self.header.applicationData.map { .string(Hex.encode($0)) }
        let object: JSONValue = [
            "version": .string(version.rawValue), "data": .string(data.base64EncodedString()),
            "signature": .string(signature.base64EncodedString()), "header": .object(header),
        ]
        return try object.jsonData(sortedKeys: true, prettyPrinted: false)
    }
}

/// Reads typed fields from a JSON object, naming the full path of any field that is missing or malformed.
private struct FieldReader {
    let object: [String: JSONValue]
    let path: String

    func string(_ key: String) throws -> String {
        guard let value = object[key], !value.isNull else {
            throw PaymentTokenError.malformedToken(field: path + key, "is missing")
        }
        guard let text = value.stringValue else {
            throw PaymentTokenError.malformedToken(field: path + key, "is not a string")
        }
        return text
    }

    func nested(_ key: String) throws -> FieldReader {
        guard let value = object[key] else { throw PaymentTokenError.malformedToken(field: path + key, "is missing") }
        guard let inner = value.objectValue else {
            throw PaymentTokenError.malformedToken(field: path + key, "is not an object")
        }
        return FieldReader(object: inner, path: path + key + ".")
    }

    func base64(_ key: String) throws -> Data {
        let text = try string(key)
        guard let data = Data(base64Encoded: text), !data.isEmpty else {
            throw PaymentTokenError.malformedToken(field: path + key, "is not valid Base64")
        }
        return data
    }

    func hex(_ key: String) throws -> Data {
        let text = try string(key)
        guard let data = Hex.decode(text), !data.isEmpty else {
            throw PaymentTokenError.malformedToken(field: path + key, "is not hexadecimal")
        }
        return data
    }

    func optionalHex(_ key: String) throws -> Data? {
        guard let value = object[key], !value.isNull else { return nil }
        if let text = value.stringValue, text.isEmpty { return nil }
        return try hex(key)
    }
}
