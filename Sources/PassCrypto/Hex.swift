public import Foundation

/// Hexadecimal text for bytes (manifest hashes, fingerprints, payment transaction identifiers) and back.
///
/// ```swift
/// Hex.encode([0x0f, 0xa0])                    // "0fa0"
/// Hex.encode([0x0f, 0xa0], uppercase: true)   // "0FA0"
/// Hex.decode("0FA0")                          // Data([0x0f, 0xa0])
/// ```
public enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// Two hexadecimal digits per byte.
    /// - Parameters:
    ///   - bytes: The bytes to write (`[UInt8]`, `Data`, a digest, ...).
    ///   - uppercase: `A-F` rather than `a-f`; lower case by default.
    /// - Returns: The digits, most significant first within each byte.
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = uppercase ? upperDigits : lowerDigits
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes an even-length hexadecimal string, digits in either case.
    /// - Parameter text: The digits, nothing else (no `0x`, no spaces).
    /// - Returns: The bytes, or `nil` when `text` is not such a string.
    public static func decode(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
