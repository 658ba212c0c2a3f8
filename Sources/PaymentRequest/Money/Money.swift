public import Foundation

/// An amount of money: a `Decimal` in one ``Currency``. Never a `Double`.
///
/// Amounts are written the way Apple Pay JS expects them, as decimal strings with exactly the currency's minor
/// units (`"10.00"` in USD, `"1000"` in JPY, `"1.250"` in KWD).
///
/// Rounding rule: ``rounded`` rounds half up, meaning ties go away from zero (`0.005 USD` → `0.01`,
/// `-0.005 USD` → `-0.01`), which is `NSDecimalNumber.RoundingMode.plain`. Bankers' rounding is not used because
/// a shopper checking a receipt by hand rounds half up.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The exact amount.
    public var amount: Decimal
    /// Its currency.
    public var currency: Currency

    /// Creates an amount.
    /// - Parameters:
    ///   - amount: The amount (kept exactly; call ``rounded`` to round to minor units).
    ///   - currency: Its currency.
    public init(_ amount: Decimal, _ currency: Currency) {
        self.amount = amount
        self.currency = currency
    }

    /// Parses an Apple Pay amount string (`-?digits(.digits)?`).
    /// - Parameters:
    ///   - string: Such as `"10.00"`.
    ///   - currency: Its currency.
    /// - Returns: `nil` when the string does not follow the grammar.
    public init?(string: String, currency: Currency) {
        guard let value = AmountString.decimal(string) else { return nil }
        self.init(value, currency)
    }

    /// Zero in `currency`.
    /// - Parameter currency: The currency.
    /// - Returns: `0` in that currency.
    public static func zero(_ currency: Currency) -> Money { Money(0, currency) }

    /// The amount rounded half up (ties away from zero) to the currency's minor units.
    public var rounded: Money {
        var source = amount
        var result = Decimal()
        NSDecimalRound(&result, &source, currency.minorUnits, .plain)
        return Money(result, currency)
    }

    /// The Apple Pay JS string: rounded to the currency's minor units and always written with exactly that many
    /// fraction digits (`"10.00"`, `"-4.50"`, `"1000"`, `"1.250"`).
    public var string: String {
        AmountString.format(rounded.amount, fractionDigits: currency.minorUnits)
    }

    /// `USD 10.00`: code, space, amount; the form the sheet preview uses.
    public var description: String { "\(currency.code) \(string)" }

    /// Whether the amount is below zero.
    public var isNegative: Bool { amount < 0 }

    /// Adds two amounts in the same currency.
    /// - Parameters:
    ///   - lhs: An amount.
    ///   - rhs: An amount in the same currency.
    /// - Returns: The exact sum.
    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "adding \(rhs.currency) to \(lhs.currency)")
        return Money(lhs.amount + rhs.amount, lhs.currency)
    }

    /// The amount with its sign flipped.
    /// - Parameter value: An amount.
    /// - Returns: `-value`.
    public static prefix func - (value: Money) -> Money { Money(-value.amount, value.currency) }
}
