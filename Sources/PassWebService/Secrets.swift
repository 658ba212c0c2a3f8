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

    /// The token of an `Authorization` header of the form `<scheme> <token>`, or `nil`. The scheme is compared
    /// without regard to case (RFC 9110 §11.1: `bearer`, `BEARER` and `Bearer` are one scheme); one or more spaces
    /// may follow it.
    static func credential(scheme: String, in header: String?) -> Substring? {
        guard let header, header.utf8.count > scheme.utf8.count else { return nil }
        let given = header.utf8.prefix(scheme.utf8.count)
        guard given.elementsEqual(scheme.utf8, by: { asciiLowercase($0) == asciiLowercase($1) }) else { return nil }
        let rest = header.dropFirst(scheme.count)
        guard rest.first == " " else { return nil }
        let token = rest.drop { $0 == " " }
        return token.isEmpty ? nil : token
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
