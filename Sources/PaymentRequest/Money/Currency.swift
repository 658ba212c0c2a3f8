/// An ISO 4217 currency with the number of digits its amounts carry after the decimal point.
///
/// ```swift
/// Currency(code: "JPY")?.minorUnits  // 0
/// Currency(code: "KWD")?.minorUnits  // 3
/// ```
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The three-letter ISO 4217 code, such as `USD`.
    public let code: String
    /// Digits after the decimal point: 0 for `JPY`, 2 for `USD`, 3 for `KWD`.
    public let minorUnits: Int
    /// The three-digit ISO 4217 numeric code, such as `"840"` for `USD` (decrypted Apple Pay payment data names its
    /// currency this way).
    public let numericCode: String

    /// Looks a code up in the built-in ISO 4217 table. Codes are matched exactly (upper case), as Safari does.
    /// - Parameter code: A three-letter code such as `EUR`.
    /// - Returns: `nil` when the code is not an active ISO 4217 code with minor units.
    public init?(code: String) {
        guard let entry = CurrencyTable.entries[code] else { return nil }
        self.code = code
        self.minorUnits = entry.minorUnits
        self.numericCode = entry.numericCode
    }

    /// Every currency in the built-in table, sorted by code.
    public static var all: [Currency] {
        CurrencyTable.entries.keys.sorted().compactMap(Currency.init(code:))
    }

    /// The code.
    public var description: String { code }

    /// US dollar (2 decimals).
    public static let usd = Currency(code: "USD")!
    /// Euro (2 decimals).
    public static let eur = Currency(code: "EUR")!
    /// Japanese yen (0 decimals).
    public static let jpy = Currency(code: "JPY")!
    /// Kuwaiti dinar (3 decimals).
    public static let kwd = Currency(code: "KWD")!
}

/// ISO 3166-1 alpha-2 country codes, from a built-in table.
public enum CountryCode {
    /// Whether `code` is an assigned ISO 3166-1 alpha-2 code, matched exactly (upper case), as Safari does.
    /// - Parameter code: A code such as `US`.
    /// - Returns: `true` for an assigned code.
    public static func isValid(_ code: String) -> Bool {
        CountryTable.codes.contains(code)
    }

    /// Every assigned code, sorted.
    public static var all: [String] { CountryTable.codes.sorted() }
}
