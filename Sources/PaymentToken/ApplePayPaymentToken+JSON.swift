public import Foundation
import PassCrypto

extension ApplePayPaymentToken {
    /// Decodes a token from JSON: the `paymentData` object, a `PKPaymentToken` wrapper holding it, or a whole
    /// Apple Pay payment whose `token` is such a wrapper.
    /// - Parameter jsonData: The JSON bytes.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/malformedToken`` naming the field at fault, or
    ///   ``PaymentTokenError/Code/unsupportedVersion``.
    public init(jsonData: Data) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: jsonData)
        } catch {
            throw PaymentTokenError(.malformedToken, "the token is not valid JSON")
        }
        guard var object = root as? [String: Any] else {
            throw PaymentTokenError(.malformedToken, "the token is not a JSON object")
        }
        var path = ""
        if let token = object["token"] as? [String: Any], object["version"] == nil {
            object = token
            path = "token."
        }
        var wrapper: [String: Any]?
        if let paymentData = object["paymentData"] {
            guard let inner = paymentData as? [String: Any] else {
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
            transactionIdentifier = wrapper["transactionIdentifier"] as? String
            if let method = wrapper["paymentMethod"] as? [String: Any] {
                paymentMethod = PaymentMethod(displayName: method["displayName"] as? String,
                                              network: method["network"] as? String, type: method["type"] as? String)
            }
        }
    }

    /// The `paymentData` object as JSON (Base64 and hexadecimal fields as Apple writes them), sorted keys.
    /// - Returns: The JSON bytes.
    public func jsonData() throws -> Data {
        var header: [String: Any] = [
            "publicKeyHash": self.header.publicKeyHash.base64EncodedString(),
            "transactionId": self.header.transactionIdHex,
        ]
        header["ephemeralPublicKey"] = self.header.ephemeralPublicKey?.base64EncodedString()
        header["wrappedKey"] = self.header.wrappedKey?.base64EncodedString()
        header["applicationData"] = self.header.applicationData.map { Hex.encode($0) }
        let object: [String: Any] = [
            "version": version.rawValue, "data": data.base64EncodedString(),
            "signature": signature.base64EncodedString(), "header": header,
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

/// Reads typed fields from a JSON object, naming the full path of any field that is missing or malformed.
private struct FieldReader {
    let object: [String: Any]
    let path: String

    func string(_ key: String) throws -> String {
        guard let value = object[key], !(value is NSNull) else {
            throw PaymentTokenError.malformedToken(field: path + key, "is missing")
        }
        guard let text = value as? String else {
            throw PaymentTokenError.malformedToken(field: path + key, "is not a string")
        }
        return text
    }

    func nested(_ key: String) throws -> FieldReader {
        guard let value = object[key] else { throw PaymentTokenError.malformedToken(field: path + key, "is missing") }
        guard let inner = value as? [String: Any] else {
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
        guard let value = object[key], !(value is NSNull) else { return nil }
        if let text = value as? String, text.isEmpty { return nil }
        return try hex(key)
    }
}
