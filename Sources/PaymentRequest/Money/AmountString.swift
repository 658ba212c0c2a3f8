public import Foundation

/// The decimal-string grammar Apple Pay JS uses for every amount: an optional minus sign, one or more ASCII digits,
/// and optionally a dot followed by one or more digits (`-?[0-9]+(\.[0-9]+)?`). No plus sign, no exponent, no
/// spaces, no thousands separators, no leading or trailing dot.
public enum AmountString {
    /// Whether `string` follows the grammar.
    /// - Parameter string: A candidate amount.
    /// - Returns: `true` for `"10"`, `"-4.50"`, `"0.001"`; `false` for `"10."`, `".5"`, `"1e3"`, `"+1"`, `""`.
    public static func isValid(_ string: String) -> Bool {
        shape(string) != nil
    }

    /// The number of digits after the dot (0 without a dot).
    /// - Parameter string: An amount that follows the grammar.
    /// - Returns: `nil` when it does not follow the grammar.
    public static func fractionDigits(_ string: String) -> Int? {
        shape(string)?.fraction
    }

    /// The exact value of an amount string.
    /// - Parameter string: An amount.
    /// - Returns: `nil` when it does not follow the grammar.
    public static func decimal(_ string: String) -> Decimal? {
        guard shape(string) != nil else { return nil }
        return Decimal(string: string, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Writes `value` with exactly `fractionDigits` digits after the dot (the value must already be rounded).
    /// - Parameters:
    ///   - value: The amount.
    ///   - fractionDigits: Digits after the dot.
    /// - Returns: Such as `"10.00"`.
    public static func format(_ value: Decimal, fractionDigits: Int) -> String {
        let negative = value < 0
        let text = (negative ? -value : value).description  // Decimal's description is locale-free: "12.5", "3"
        var integer = Substring(text)
        var fraction = Substring("")
        if let dot = text.firstIndex(of: ".") {
            integer = text[..<dot]
            fraction = text[text.index(after: dot)...]
        }
        var result = String(integer)
        if fractionDigits > 0 {
            let padded = String(fraction.prefix(fractionDigits))
            result += "." + padded + String(repeating: "0", count: fractionDigits - padded.count)
        }
        let isZero = result.allSatisfy { $0 == "0" || $0 == "." }
        return negative && !isZero ? "-" + result : result
    }

    /// Integer and fraction digit counts, or `nil` when the string breaks the grammar.
    private static func shape(_ string: String) -> (integer: Int, fraction: Int)? {
        var bytes = Substring(string).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        guard integer > 0 else { return nil }
        bytes = bytes.dropFirst(integer)
        if bytes.isEmpty { return (integer, 0) }
        guard bytes.first == UInt8(ascii: ".") else { return nil }
        bytes = bytes.dropFirst()
        let fraction = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        guard fraction > 0, fraction == bytes.count else { return nil }
        return (integer, fraction)
    }
}
