/// Random tokens for secrets and identifiers (pass authentication and download tokens, checkout client secrets,
/// session and order identifiers), and the constant-time comparison that checks a secret someone presents.
public enum SecretToken {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A random token of ASCII letters and digits from the system's cryptographic generator (about 5.95 bits a
    /// character: 32 characters carry 190 bits).
    /// - Parameter length: How many characters.
    /// - Returns: The token.
    public static func random(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Compares two secrets in time that depends only on their lengths, not on where they differ.
    ///
    /// Inlinable so that the device endpoints, which compare a token on every request, keep a specialized copy.
    /// - Parameters:
    ///   - lhs: One secret.
    ///   - rhs: The other.
    /// - Returns: `true` when their UTF-8 bytes are the same.
    @inlinable
    public static func constantTimeEqual(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        // The lengths compared whole: their difference folded into a byte would let a secret followed by 256 NULs
        // (a multiple of 256 bytes more, each 0) compare equal.
        var difference: UInt8 = left.count == right.count ? 0 : 1
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
