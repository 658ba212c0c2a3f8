public import Foundation
import Crypto
import PassCrypto

/// The `Tessera-Signature` header of every request Tessera posts to someone else's endpoint (the payment
/// webhook, the event webhooks): `t=<unix seconds>,v1=<hex>`, `v1` being HMAC-SHA256 with the shared secret over
/// `<t>.<body bytes>`. A receiver checks it with ``verify(_:body:secret:now:tolerance:)`` (or any HMAC library) and
/// refuses a timestamp far from its clock, so a captured request cannot be replayed later.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "Tessera-Signature"

    /// The header value for a body sent at `timestamp`.
    public static func header(body: Data, secret: Data, timestamp: Date) -> String {
        let seconds = Int64(timestamp.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=" + Hex.encode(mac(seconds: seconds, body: body, secret: secret))
    }

    /// Whether a header is a valid signature of `body` made within `tolerance` of `now` (any of several `v1` values,
    /// as a sender rotating its secret may send).
    public static func verify(_ header: String, body: Data, secret: Data, now: Date = Date(),
                              tolerance: TimeInterval = 300) -> Bool {
        var seconds: Int64?
        var candidates: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { seconds = Int64(pair[1]) }
            if pair[0] == "v1" { candidates.append(pair[1].lowercased()) }
        }
        guard let seconds, abs(now.timeIntervalSince1970 - Double(seconds)) <= tolerance else { return false }
        let expected = Hex.encode(mac(seconds: seconds, body: body, secret: secret))
        return candidates.contains { SecretToken.constantTimeEqual($0, expected) }
    }

    private static func mac(seconds: Int64, body: Data, secret: Data) -> HashedAuthenticationCode<SHA256> {
        var signed = Data("\(seconds).".utf8)
        signed.append(body)
        return HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret))
    }
}
