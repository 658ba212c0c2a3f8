import Crypto
public import Foundation
import PassModel

/// Google's root keys for Wallet callbacks: the JSON served at ``googleKeysURL``,
/// `{"keys":[{"keyValue": "<base64 X.509 P-256>", "protocolVersion": "ECv2SigningOnly", "keyExpiration": "<ms>"}]}`.
///
/// Only `ECv2SigningOnly` keys with a `keyExpiration` are kept, as Tink's `PaymentMethodTokenRecipient` does;
/// a key whose `keyExpiration` has passed is skipped when a callback is verified.
public struct GoogleCallbackKeys: Sendable {
    /// Where Google publishes the keys that sign Wallet callbacks.
    public static let googleKeysURL = URL(string: "https://pay.google.com/gp/m/issuer/keys")!

    struct RootKey: Sendable {
        let key: P256.Signing.PublicKey
        let expirationMillis: Int64
    }

    let rootKeys: [RootKey]

    /// Reads Google's keys document.
    /// - Parameter jsonData: The JSON served at ``googleKeysURL``.
    /// - Throws: ``GoogleCallbackError`` when the document is not the expected JSON, an `ECv2SigningOnly` key is not
    ///   a base64 X.509 P-256 public key, or no `ECv2SigningOnly` key with a `keyExpiration` is listed.
    public init(jsonData: Data) throws(GoogleCallbackError) {
        guard let json = try? JSONValue(jsonData: jsonData), let entries = json["keys"]?.arrayValue else {
            throw GoogleCallbackError("the keys document is not a JSON object with a \"keys\" array")
        }
        var rootKeys: [RootKey] = []
        for (index, entry) in entries.enumerated() {
            guard entry["protocolVersion"]?.stringValue == GoogleCallbackVerifier.protocolVersion,
                  let expiration = millis(entry["keyExpiration"]) else { continue }
            guard let text = entry["keyValue"]?.stringValue, let der = base64(text),
                  let key = try? P256.Signing.PublicKey(derRepresentation: der) else {
                throw GoogleCallbackError("keys[\(index)].keyValue is not a base64 X.509 P-256 public key")
            }
            rootKeys.append(RootKey(key: key, expirationMillis: expiration))
        }
        guard !rootKeys.isEmpty else {
            throw GoogleCallbackError("the keys document lists no ECv2SigningOnly key with a keyExpiration")
        }
        self.rootKeys = rootKeys
    }
}

/// A verified save or delete callback: the `signedMessage` Google posted after a user saved or deleted a pass.
///
/// The caller should remember ``nonce`` until ``expiresAt`` and ignore a callback whose nonce it has seen:
/// Google may deliver one event more than once.
public struct GoogleCallback: Sendable, Equatable {
    /// The pass class, `<issuerId>.<suffix>`.
    public let classId: String
    /// The pass object, `<issuerId>.<suffix>`.
    public let objectId: String
    /// `save` or `del`.
    public let eventType: String
    /// When the message expires (`expTimeMillis`).
    public let expiresAt: Date
    /// Unique per event: the key for ignoring repeated deliveries.
    public let nonce: String

    /// Whether the user saved the pass (`eventType` `save`) rather than deleted it (`del`).
    public var isSave: Bool { eventType == "save" }

    /// Creates a callback.
    /// - Parameters:
    ///   - classId: The pass class id.
    ///   - objectId: The pass object id.
    ///   - eventType: `save` or `del`.
    ///   - expiresAt: When the message expires.
    ///   - nonce: The event's unique value.
    public init(classId: String, objectId: String, eventType: String, expiresAt: Date, nonce: String) {
        self.classId = classId
        self.objectId = objectId
        self.eventType = eventType
        self.expiresAt = expiresAt
        self.nonce = nonce
    }
}

/// A Wallet callback that was refused; ``reason`` is a plain sentence naming what is wrong.
public struct GoogleCallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the callback or the keys.
    public let reason: String

    /// Creates an error.
    /// - Parameter reason: A plain sentence naming what is wrong.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}

/// Verifies the callbacks Google Wallet posts when a pass is saved or deleted: protocol `ECv2SigningOnly`, as Tink's
/// `PaymentMethodTokenRecipient` with sender id `GooglePayPasses` and the issuer id as recipient id.
///
/// A root key signs the intermediate key; the intermediate key signs the message. Both signatures are ECDSA P-256
/// SHA-256 (DER, base64) over 4-byte little-endian length-prefixed UTF-8 chunks. Replay tracking by nonce is the caller's.
public struct GoogleCallbackVerifier: Sendable {
    /// The only protocol Wallet callbacks use.
    public static let protocolVersion = "ECv2SigningOnly"

    /// The issuer id: the recipient id of the message signature and the prefix of every class and object id.
    public let issuerId: String
    /// Google's root keys.
    public let keys: GoogleCallbackKeys
    /// The sender id in both signatures.
    public let senderId: String

    /// Creates a verifier.
    /// - Parameters:
    ///   - issuerId: Your Google Wallet issuer id.
    ///   - keys: Google's root keys, read from ``GoogleCallbackKeys/googleKeysURL``.
    ///   - senderId: The sender id; Google Wallet signs as `GooglePayPasses`.
    public init(issuerId: String, keys: GoogleCallbackKeys, senderId: String = "GooglePayPasses") {
        self.issuerId = issuerId
        self.keys = keys
        self.senderId = senderId
    }

    /// Verifies a callback's body and reads its message.
    /// - Parameters:
    ///   - body: The POSTed JSON.
    ///   - now: The time to check expirations against.
    /// - Returns: The save or delete event.
    /// - Throws: ``GoogleCallbackError`` naming the first check that failed: the JSON's shape, the protocol, the
    ///   intermediate key's signature or expiry, the message's signature, members or expiry, or its issuer.
    public func verify(_ body: Data, now: Date = Date()) throws(GoogleCallbackError) -> GoogleCallback {
        let nowMillis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        guard let json = try? JSONValue(jsonData: body), case .object(let members) = json else {
            throw GoogleCallbackError("the callback body is not a JSON object")
        }
        func text(_ key: String) throws(GoogleCallbackError) -> String {
            guard let value = members[key]?.stringValue else {
                throw GoogleCallbackError("the callback's \(key) is missing or not a string")
            }
            return value
        }
        let version = try text("protocolVersion")
        guard version == Self.protocolVersion else {
            throw GoogleCallbackError("the callback's protocolVersion is \"\(version)\", expected \"\(Self.protocolVersion)\"")
        }
        let signature = try text("signature")
        let signedMessage = try text("signedMessage")
        guard let intermediate = members["intermediateSigningKey"]?.objectValue, intermediate.count == 2,
              let signedKey = intermediate["signedKey"]?.stringValue,
              let signatures = intermediate["signatures"]?.arrayValue?.compactMap(\.stringValue), !signatures.isEmpty else {
            throw GoogleCallbackError("the callback's intermediateSigningKey is not an object of exactly signedKey (a string) and signatures (strings)")
        }

        let usable = keys.rootKeys.filter { $0.expirationMillis > nowMillis }
        guard !usable.isEmpty else {
            throw GoogleCallbackError("every ECv2SigningOnly root key has passed its keyExpiration; fetch Google's keys again")
        }
        let keyBytes = lengthValue([senderId, Self.protocolVersion, signedKey])
        let derSignatures = signatures.compactMap { base64($0).flatMap { try? P256.Signing.ECDSASignature(derRepresentation: $0) } }
        guard usable.contains(where: { root in derSignatures.contains { root.key.isValidSignature($0, for: keyBytes) } }) else {
            throw GoogleCallbackError("no signature of the intermediate signing key verifies with an unexpired Google root key (sender id \"\(senderId)\")")
        }

        guard let keyJSON = try? JSONValue(jsonData: Data(signedKey.utf8)), let keyValue = keyJSON["keyValue"]?.stringValue,
              let keyExpiration = millis(keyJSON["keyExpiration"]) else {
            throw GoogleCallbackError("the intermediate signedKey is not a JSON object with keyValue and a numeric keyExpiration")
        }
        guard keyExpiration > nowMillis else {
            throw GoogleCallbackError("the intermediate signing key expired at \(date(keyExpiration))")
        }
        guard let keyDER = base64(keyValue), let intermediateKey = try? P256.Signing.PublicKey(derRepresentation: keyDER) else {
            throw GoogleCallbackError("the intermediate signedKey's keyValue is not a base64 X.509 P-256 public key")
        }

        let messageBytes = lengthValue([senderId, issuerId, Self.protocolVersion, signedMessage])
        guard let signatureDER = base64(signature),
              let messageSignature = try? P256.Signing.ECDSASignature(derRepresentation: signatureDER),
              intermediateKey.isValidSignature(messageSignature, for: messageBytes) else {
            throw GoogleCallbackError("the message signature does not verify with the intermediate signing key for issuer \(issuerId)")
        }

        let (callback, expirationMillis) = try parseMessage(signedMessage)
        guard expirationMillis > nowMillis else {
            throw GoogleCallbackError("the callback is stale: its expTimeMillis passed at \(callback.expiresAt)")
        }
        for (name, id) in [("classId", callback.classId), ("objectId", callback.objectId)] where !id.hasPrefix(issuerId + ".") {
            throw GoogleCallbackError("the callback's \(name) \"\(id)\" does not belong to issuer \(issuerId)")
        }
        return callback
    }

    /// Reads the signed message's members.
    /// - Parameter signedMessage: The verified `signedMessage` string.
    /// - Returns: The callback, its issuer and expiry not yet checked, and its `expTimeMillis`.
    /// - Throws: ``GoogleCallbackError`` naming the member that is missing or wrong.
    private func parseMessage(_ signedMessage: String) throws(GoogleCallbackError) -> (GoogleCallback, Int64) {
        guard let message = try? JSONValue(jsonData: Data(signedMessage.utf8)), case .object(let members) = message else {
            throw GoogleCallbackError("the signedMessage is not a JSON object")
        }
        func text(_ key: String) throws(GoogleCallbackError) -> String {
            guard let value = members[key]?.stringValue, !value.isEmpty else {
                throw GoogleCallbackError("the signedMessage's \(key) is missing or not a non-empty string")
            }
            return value
        }
        let classId = try text("classId")
        let objectId = try text("objectId")
        let eventType = try text("eventType")
        guard eventType == "save" || eventType == "del" else {
            throw GoogleCallbackError("the signedMessage's eventType is \"\(eventType)\", expected \"save\" or \"del\"")
        }
        guard let expiration = millis(members["expTimeMillis"]) else {
            throw GoogleCallbackError("the signedMessage's expTimeMillis is missing or not a whole number of milliseconds")
        }
        let nonce = try text("nonce")
        let callback = GoogleCallback(classId: classId, objectId: objectId, eventType: eventType, expiresAt: date(expiration), nonce: nonce)
        return (callback, expiration)
    }
}

/// Tink's `toLengthValue`: each chunk's UTF-8 byte count as 4 bytes little-endian, then the bytes.
private func lengthValue(_ chunks: [String]) -> Data {
    var data = Data()
    for chunk in chunks {
        let bytes = Array(chunk.utf8)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: bytes)
    }
    return data
}

/// Milliseconds since 1970 from a JSON whole number or a decimal string, as Google writes either.
private func millis(_ value: JSONValue?) -> Int64? {
    switch value {
    case .integer(let number)?: return Int64(number)
    case .number(let number)?: return number.rounded() == number ? Int64(exactly: number) : nil
    case .string(let text)?: return Int64(text)
    default: return nil
    }
}

/// A date from milliseconds since 1970.
private func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

/// Standard base64, padded or not.
private func base64(_ text: String) -> Data? {
    let padding = String(repeating: "=", count: (4 - text.count % 4) % 4)
    return Data(base64Encoded: text + padding)
}
