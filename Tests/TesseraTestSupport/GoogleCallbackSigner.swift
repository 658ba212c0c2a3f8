public import Foundation
import TestChildProcess

/// Tink's published ECv2SigningOnly test keys: `GOOGLE_SIGNING_EC_V2_SIGNING_ONLY_PRIVATE_KEY_PKCS8_BASE64` (root),
/// entry 2 of `GOOGLE_VERIFYING_PUBLIC_KEYS_JSON` (its public key), `GOOGLE_SIGNING_EC_V2_SIGNING_ONLY_INTERMEDIATE_*`
/// and `ALTERNATE_PUBLIC_SIGNING_KEY`, from Tink's PaymentMethodTokenRecipientTest.java
/// (tink-crypto/tink, apps/paymentmethodtoken/src/test/java/com/google/crypto/tink/apps/paymentmethodtoken/).
public enum TinkTestKeys {
    public static let rootPrivate = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgRi9hSdY+knJ08odnYtZFMRi7ZYeMoasAijLhD4GiQ1yhRANCAAQ1e9irEPlZrIpiG5dB690Z0sDyJ9XguxFLa4q8WjzDDKLCBAcH0OIrMbpP8/UW70GXvNbL+x7kPLjCTWYmg+7G"
    public static let rootPublic = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAENXvYqxD5WayKYhuXQevdGdLA8ifV4LsRS2uKvFo8wwyiwgQHB9DiKzG6T/P1Fu9Bl7zWy/se5Dy4wk1mJoPuxg=="
    public static let intermediatePrivate = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+Jvpkq26tpZ0sTTZVh4teEI41SnJdmkBzM8VZ5ZirE2hRANCAATw5q6vC9vJibwlYOAU9FMgODT+RxBMUBDi3GLkg/QDIzVCJqDBGENR+OmpmSnDzG38NfDJZgzQN0eqh5VMqqZh"
    public static let intermediatePublic = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8OaurwvbyYm8JWDgFPRTIDg0/kcQTFAQ4txi5IP0AyM1QiagwRhDUfjpqZkpw8xt/DXwyWYM0DdHqoeVTKqmYQ=="
    public static let alternatePublic = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEU8E6JppGKFG40r5dDU1idHRN52NuwsemFzXZh1oUqh3bGUPgPioH+RoWnmVSUQz1WfM2426w9f0GADuXzpUkcw=="
    /// Tink's ECv1 test key, which has no keyExpiration: a keys document may list it, and the verifier ignores it.
    public static let ecV1Public = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEPYnHwS8uegWAewQtlxizmLFynwHcxRT1PK07cDA6/C4sXrVI1SzZCUx8U8S0LjMrT6ird/VW7be3Mz6t/srtRQ=="

    /// Google's keys document listing the root's public key, valid for a day from `nowMillis`.
    public static func keysDocument(root: String = rootPublic, nowMillis: Int64) -> Data {
        Data(#"{"keys":[{"keyValue":"\#(root)","protocolVersion":"ECv2SigningOnly","keyExpiration":"\#(nowMillis + 86_400_000)"}]}"#.utf8)
    }
}

/// Google Wallet callbacks signed as Google signs them (ECv2SigningOnly, sender `GooglePayPasses`) by Python's
/// `cryptography`, independently of the server's swift-crypto, with Tink's test keys.
public enum GoogleCallbackSigner {
    /// Whether `python3` with the `cryptography` package is installed (the test command installs it).
    public static let isAvailable = (try? python(["-c", "import cryptography"]))?.status == 0

    static let script = """
        import base64, json, struct, sys
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        root, inter, issuer, now = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
        class_id, object_id, event, nonce, lifetime = sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8], int(sys.argv[9])
        lv = lambda *chunks: b"".join(struct.pack("<I", len(c.encode())) + c.encode() for c in chunks)
        load = lambda b64: serialization.load_der_private_key(base64.b64decode(b64), password=None)
        sign = lambda b64, data: base64.b64encode(load(b64).sign(data, ec.ECDSA(hashes.SHA256()))).decode()
        pub = load(inter).public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        key = json.dumps({"keyValue": base64.b64encode(pub).decode(), "keyExpiration": str(now + 86400000)})
        msg = json.dumps({"classId": class_id, "objectId": object_id, "eventType": event,
                          "expTimeMillis": now + lifetime, "count": 1, "nonce": nonce})
        p, s = "ECv2SigningOnly", "GooglePayPasses"
        print(json.dumps({"signature": sign(inter, lv(s, issuer, p, msg)), "protocolVersion": p, "signedMessage": msg,
                          "intermediateSigningKey": {"signedKey": key, "signatures": [sign(root, lv(s, p, key))]}}))
        """

    /// A signed callback.
    /// - Parameters:
    ///   - rootPrivate: The root key that signs the intermediate key (Tink's by default; another to forge).
    ///   - lifetimeMillis: How long after `nowMillis` the message expires (negative: already stale).
    /// - Returns: The request body Google would send.
    public static func sign(issuerId: String, classId: String, objectId: String, eventType: String, nonce: String,
                            nowMillis: Int64 = Int64(Date().timeIntervalSince1970 * 1000), lifetimeMillis: Int64 = 300_000,
                            rootPrivate: String = TinkTestKeys.rootPrivate) throws -> Data {
        let run = try python(["-c", script, rootPrivate, TinkTestKeys.intermediatePrivate, issuerId, String(nowMillis),
                              classId, objectId, eventType, nonce, String(lifetimeMillis)])
        guard run.status == 0 else { throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "signer: \(run.output)"]) }
        return Data(run.output.utf8)
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let (process, output) = (ChildProcess(), Pipe())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
