import PassWebService
import Foundation

/// The credentials the service's secrets arrive in. Tokens are made and compared by `PassCrypto`'s `SecretToken`.
public enum Secrets {
    /// The token of an `Authorization` header of the form `<scheme> <token>`, or `nil`. The scheme is compared
    /// without regard to case (RFC 9110 §11.1: `bearer`, `BEARER` and `Bearer` are one scheme); one or more spaces
    /// may follow it.
    /// - Parameters:
    ///   - scheme: The scheme, such as `Bearer` or `ApplePass`.
    ///   - header: The `Authorization` header, if any.
    /// - Returns: The token, or `nil` for no header, another scheme or an empty token.
    public static func credential(scheme: String, in header: String?) -> Substring? {
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
