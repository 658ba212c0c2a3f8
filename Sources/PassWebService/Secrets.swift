import Foundation

/// Random tokens and constant-time comparison for the service's secrets.
enum Secrets {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A random token of `length` letters and digits from the system's cryptographic generator
    /// (about 5.95 bits each: 32 characters carry 190 bits).
    static func token(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Compares two secrets in time that depends only on their lengths, not on where they differ.
    static func constantTimeEqual(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    /// The token of an `Authorization` header of the form `<scheme> <token>` (scheme compared exactly), or `nil`.
    static func credential(scheme: String, in header: String?) -> Substring? {
        guard let header, header.hasPrefix(scheme + " ") else { return nil }
        let token = header.dropFirst(scheme.count + 1)
        return token.isEmpty ? nil : token
    }
}
