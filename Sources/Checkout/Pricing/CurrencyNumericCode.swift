import PaymentRequest

/// ISO 4217 numeric codes: decrypted Apple Pay payment data names its currency by number (`"840"` for USD).
///
/// The table is `PaymentRequest`'s, the one behind ``PaymentRequest/Currency``; this looks an alphabetic code up in it.
public enum CurrencyNumericCode {
    /// The three-digit numeric code of an alphabetic code.
    /// - Parameter alphabetic: Such as `USD`.
    /// - Returns: Such as `"840"`, or `nil` for a code not in the table.
    public static func numeric(_ alphabetic: String) -> String? { Currency(code: alphabetic)?.numericCode }
}
