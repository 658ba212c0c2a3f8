/// Checks and redacts the push tokens Wallet registers (hexadecimal strings; their length is not fixed).
public enum APNsPushToken {
    /// Checks that `pushToken` is a non-empty string of hexadecimal digits, at most 200 of them.
    /// - Parameter pushToken: The token as the device registered it.
    /// - Throws: ``APNsError`` with code ``APNsError/Code/invalidPushToken``.
    public static func validate(_ pushToken: String) throws(APNsError) {
        guard !pushToken.isEmpty else { throw .invalidPushToken("the push token is empty") }
        guard pushToken.utf8.count <= 200 else {
            throw .invalidPushToken("the push token is \(pushToken.utf8.count) characters long (at most 200)")
        }
        guard pushToken.utf8.allSatisfy(isHexDigit) else {
            throw .invalidPushToken("the push token \(redacted(pushToken)) holds characters other than hexadecimal digits")
        }
    }

    /// The first 8 characters followed by `…`, for logs.
    /// - Parameter pushToken: The token.
    /// - Returns: The redacted form; tokens of 8 characters or fewer are fully hidden as `…`.
    public static func redacted(_ pushToken: String) -> String {
        pushToken.count > 8 ? String(pushToken.prefix(8)) + "…" : "…"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
