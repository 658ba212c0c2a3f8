import Crypto
import Foundation
import GoogleWallet
import Testing
import TesseraTestSupport

extension TinkTestKeys {
    static func privateKey(_ base64: String) throws -> P256.Signing.PrivateKey { try .init(derRepresentation: Data(base64Encoded: base64)!) }
}

/// Milliseconds since 1970.
private func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

/// A callback as Google signs it, built at test time: Tink's `toLengthValue` (4-byte little-endian lengths).
struct CallbackBuilder {
    static let issuerId = "3388000000022222222"
    var now: Date
    var recipientId = CallbackBuilder.issuerId
    var classIssuer = CallbackBuilder.issuerId
    var eventType = "save"
    var expTimeMillis: String
    var keyExpiration: Date
    var messageKey: P256.Signing.PrivateKey? = nil
    var tamper: (String) -> String = { $0 }
    let nonce = UUID().uuidString

    init(now: Date) {
        self.now = now
        expTimeMillis = String(millis(now) + 300_000)
        keyExpiration = now.addingTimeInterval(86_400)
    }

    static func lengthValue(_ chunks: String...) -> Data {
        chunks.reduce(into: Data()) { data, chunk in
            let count = UInt32(chunk.utf8.count)
            data.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 24)])
            data.append(contentsOf: Array(chunk.utf8))
        }
    }

    var message: String {
        #"{"classId":"\#(classIssuer).tessera.event","objectId":"\#(classIssuer).pass.dev.tessera.demo.A1","eventType":"\#(eventType)","#
            + #""expTimeMillis":\#(expTimeMillis),"count":1,"nonce":"\#(nonce)"}"#
    }

    func body() throws -> Data {
        let root = try TinkTestKeys.privateKey(TinkTestKeys.rootPrivate)
        let intermediate = try TinkTestKeys.privateKey(TinkTestKeys.intermediatePrivate)
        // Gson writes "=" as \u003d, and the signature covers those six characters, as in Google's real callbacks.
        let keyValue = TinkTestKeys.intermediatePublic.replacingOccurrences(of: "=", with: #"\u003d"#)
        let signedKey = #"{"keyValue":"\#(keyValue)","keyExpiration":"\#(millis(keyExpiration))"}"#
        let keySignature = try root.signature(for: Self.lengthValue("GooglePayPasses", "ECv2SigningOnly", signedKey))
        let messageSignature = try (messageKey ?? intermediate)
            .signature(for: Self.lengthValue("GooglePayPasses", recipientId, "ECv2SigningOnly", message))
        let json: [String: Any] = [
            "signature": messageSignature.derRepresentation.base64EncodedString(),
            "intermediateSigningKey": ["signedKey": signedKey, "signatures": [keySignature.derRepresentation.base64EncodedString()]] as [String: Any],
            "protocolVersion": "ECv2SigningOnly",
            "signedMessage": tamper(message),
        ]
        return try JSONSerialization.data(withJSONObject: json)
    }

    var expected: GoogleCallback {
        GoogleCallback(classId: "\(classIssuer).tessera.event", objectId: "\(classIssuer).pass.dev.tessera.demo.A1", eventType: eventType,
                       expiresAt: Date(timeIntervalSince1970: Double(Int64(expTimeMillis.filter(\.isNumber))!) / 1000), nonce: nonce)
    }
}

@Suite("Google Wallet callbacks")
struct GoogleCallbackVerifierTests {
    let now = Date()

    static func keys(_ entries: [(key: String, expiration: Date)]) throws -> GoogleCallbackKeys {
        var list: [[String: String]] = [["keyValue": TinkTestKeys.ecV1Public, "protocolVersion": "ECv1"]]
        list += entries.map { ["keyValue": $0.key, "protocolVersion": "ECv2SigningOnly", "keyExpiration": String(millis($0.expiration))] }
        return try GoogleCallbackKeys(jsonData: JSONSerialization.data(withJSONObject: ["keys": list]))
    }

    func verifier(issuerId: String = CallbackBuilder.issuerId, root: String = TinkTestKeys.rootPublic) throws -> GoogleCallbackVerifier {
        GoogleCallbackVerifier(issuerId: issuerId, keys: try Self.keys([(root, now.addingTimeInterval(86_400))]))
    }

    /// The verifier's reason for refusing, or nil when it accepts.
    func refusal(_ body: Data, _ verifier: GoogleCallbackVerifier) -> String? {
        do { _ = try verifier.verify(body, now: now); return nil } catch { return error.reason }
    }

    @Test func tinkKeysArePairs() throws {
        #expect(try TinkTestKeys.privateKey(TinkTestKeys.rootPrivate).publicKey.derRepresentation.base64EncodedString() == TinkTestKeys.rootPublic)
        #expect(try TinkTestKeys.privateKey(TinkTestKeys.intermediatePrivate).publicKey.derRepresentation.base64EncodedString()
            == TinkTestKeys.intermediatePublic)
    }

    @Test(arguments: [("save", false), ("del", true)])
    func validCallbacksAreAcceptedAndParsed(eventType: String, expirationAsString: Bool) throws {
        var builder = CallbackBuilder(now: now)
        builder.eventType = eventType
        if expirationAsString { builder.expTimeMillis = "\"\(builder.expTimeMillis)\"" }
        let callback = try verifier().verify(try builder.body(), now: now)
        #expect(callback == builder.expected)
        #expect(callback.isSave == (eventType == "save"))
    }

    @Test func forgedMessageSignatureIsRefused() throws {
        var builder = CallbackBuilder(now: now)
        builder.messageKey = P256.Signing.PrivateKey()
        let reason = refusal(try builder.body(), try verifier())
        #expect(reason?.contains("message signature does not verify") == true, "\(String(describing: reason))")
    }

    @Test func anotherIssuersCallbackIsRefused() throws {
        let other = "3388000000099999999"
        var builder = CallbackBuilder(now: now)
        builder.recipientId = other
        builder.classIssuer = other
        let reason = refusal(try builder.body(), try verifier())
        #expect(reason?.contains("message signature does not verify") == true, "\(String(describing: reason))")
        #expect(refusal(try builder.body(), try verifier(issuerId: other)) == nil)
        // Signed for our issuer id, yet naming another issuer's class and object.
        builder.recipientId = CallbackBuilder.issuerId
        let prefix = refusal(try builder.body(), try verifier())
        #expect(prefix == "the callback's classId \"\(other).tessera.event\" does not belong to issuer \(CallbackBuilder.issuerId)")
    }

    @Test func tamperedSignedMessageIsRefused() throws {
        var builder = CallbackBuilder(now: now)
        builder.tamper = { $0.replacingOccurrences(of: "\"save\"", with: "\"del\"") }
        let reason = refusal(try builder.body(), try verifier())
        #expect(reason?.contains("message signature does not verify") == true, "\(String(describing: reason))")
    }

    @Test func expiredIntermediateKeyIsRefused() throws {
        var builder = CallbackBuilder(now: now)
        builder.keyExpiration = now.addingTimeInterval(-60)
        let reason = refusal(try builder.body(), try verifier())
        #expect(reason?.hasPrefix("the intermediate signing key expired at") == true, "\(String(describing: reason))")
    }

    @Test func staleCallbackIsRefused() throws {
        var builder = CallbackBuilder(now: now)
        builder.expTimeMillis = String(millis(now) - 1)
        let reason = refusal(try builder.body(), try verifier())
        #expect(reason?.hasPrefix("the callback is stale") == true, "\(String(describing: reason))")
    }

    @Test func rootKeysWithoutTheSigningRootRefuse() throws {
        let reason = refusal(try CallbackBuilder(now: now).body(), try verifier(root: TinkTestKeys.alternatePublic))
        #expect(reason?.hasPrefix("no signature of the intermediate signing key verifies") == true, "\(String(describing: reason))")
    }

    @Test func expiredRootKeyRefuses() throws {
        let verifier = GoogleCallbackVerifier(issuerId: CallbackBuilder.issuerId, keys: try Self.keys([(TinkTestKeys.rootPublic, now)]))
        let body = try CallbackBuilder(now: now).body()
        let reason = refusal(body, verifier)
        #expect(reason?.hasPrefix("every ECv2SigningOnly root key has passed its keyExpiration") == true, "\(String(describing: reason))")
        #expect(throws: Never.self) { try verifier.verify(body, now: now.addingTimeInterval(-1)) }
    }

    @Test(arguments: [
        ("not json", "the callback body is not a JSON object"),
        ("[]", "the callback body is not a JSON object"),
        (#"{"signature":"AA=="}"#, "the callback's protocolVersion is missing or not a string"),
        (#"{"protocolVersion":"ECv2","signature":"","signedMessage":""}"#, "the callback's protocolVersion is \"ECv2\", expected \"ECv2SigningOnly\""),
        (#"{"protocolVersion":"ECv2SigningOnly","signature":"AA==","signedMessage":"{}"}"#,
         "the callback's intermediateSigningKey is not an object of exactly signedKey (a string) and signatures (strings)"),
    ])
    func malformedCallbackIsRefused(body: String, expected: String) throws {
        #expect(refusal(Data(body.utf8), try verifier()) == expected)
    }

    @Test func signedMessageWithBadMembersIsRefused() throws {
        var builder = CallbackBuilder(now: now)
        builder.eventType = "update"
        #expect(refusal(try builder.body(), try verifier()) == "the signedMessage's eventType is \"update\", expected \"save\" or \"del\"")
        builder.eventType = "save"
        builder.expTimeMillis = "\"soon\""
        #expect(refusal(try builder.body(), try verifier())
            == "the signedMessage's expTimeMillis is missing or not a whole number of milliseconds")
    }

    @Test func malformedKeysDocumentIsRefused() {
        for (json, expected) in [
            ("{}", "the keys document is not a JSON object with a \"keys\" array"),
            (#"{"keys":[{"keyValue":"AAAA","protocolVersion":"ECv2SigningOnly","keyExpiration":"1"}]}"#,
             "keys[0].keyValue is not a base64 X.509 P-256 public key"),
            (#"{"keys":[{"keyValue":"AAAA","protocolVersion":"ECv1"}]}"#, "the keys document lists no ECv2SigningOnly key with a keyExpiration"),
        ] {
            #expect(throws: GoogleCallbackError(expected)) { try GoogleCallbackKeys(jsonData: Data(json.utf8)) }
        }
    }

    static let pythonHasCryptography = GoogleCallbackSigner.isAvailable

    /// A callback signed by Python's `cryptography` with the same Tink keys, independent of swift-crypto.
    /// Skipped (disabled) when `python3 -c 'import cryptography'` fails.
    @Test(.enabled(if: pythonHasCryptography, "python3 with the cryptography package is not installed"))
    func callbackSignedByPythonIsAccepted() throws {
        let issuer = CallbackBuilder.issuerId, nowMillis = String(millis(now))
        let body = try GoogleCallbackSigner.sign(issuerId: issuer, classId: "\(issuer).py.class", objectId: "\(issuer).py.object",
                                                 eventType: "del", nonce: "py-nonce", nowMillis: Int64(nowMillis)!)
        let callback = try verifier().verify(body, now: now)
        let expected = GoogleCallback(classId: "\(issuer).py.class", objectId: "\(issuer).py.object", eventType: "del",
                                      expiresAt: Date(timeIntervalSince1970: Double(millis(now) + 300_000) / 1000), nonce: "py-nonce")
        #expect(callback == expected)
        #expect(!callback.isSave)
    }
}
