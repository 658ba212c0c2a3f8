import Foundation
import PassModel
import PaymentRequest

extension OrderValidator {
    /// The most significant digits an amount may have: every amount is kept exactly (a `Decimal` holds 38).
    static let maximumAmountDigits = 30

    /// Reports a missing or empty required string.
    static func required(_ value: String?, at path: String, context: inout ValidationContext) {
        guard let value else {
            context.error(path, "required key is missing")
            return
        }
        if value.trimmingWhitespace().isEmpty { context.error(path, "must not be empty") }
    }

    /// Reports a value outside `known` (and a missing one when `required`).
    static func known(
        _ value: String?, _ known: [String], at path: String, required: Bool = false, severity: ValidationIssue.Severity = .error,
        context: inout ValidationContext
    ) {
        guard let value else {
            if required { context.error(path, "required key is missing") }
            return
        }
        guard !known.contains(value) else { return }
        let message = "unknown value \"\(value)\", expected one of \(known.joined(separator: ", "))"
        if severity == .error { context.error(path, message) } else { context.warning(path, message) }
    }

    /// Parses an RFC 3339 date-time, reporting a missing (when `required`) or malformed one.
    /// - Returns: The moment, when the value is valid.
    @discardableResult
    static func date(_ value: String?, at path: String, required: Bool = false, context: inout ValidationContext) -> Date? {
        guard let value else {
            if required { context.error(path, "required key is missing") }
            return nil
        }
        if let problem = rfc3339Problem(value) {
            context.error(path, "\(problem); write an RFC 3339 date-time such as 2026-05-07T10:30:00Z, found \"\(value)\"")
            return nil
        }
        return W3CDate.date(from: value)
    }

    /// Why `value` is not an RFC 3339 date-time (`nil` when it is): a W3C date-time with seconds.
    /// - Parameter value: The text.
    /// - Returns: A plain reason, or `nil`.
    public static func rfc3339Problem(_ value: String) -> String? {
        if let problem = W3CDate.problem(with: value) { return problem }
        let bytes = Array(value.utf8)
        guard bytes.count > 16, bytes[16] == UInt8(ascii: ":") else { return "seconds are missing" }
        return nil
    }

    /// Reports a URL that is not an absolute https URL with a host. With `allowingLoopbackHTTP` (the web service URL),
    /// http to this machine (a development server) is only a warning, as for passes.
    static func httpsURL(
        _ value: String?, at path: String, required: Bool = false, allowingLoopbackHTTP: Bool = false,
        context: inout ValidationContext
    ) {
        guard let value else {
            if required { context.error(path, "required key is missing") }
            return
        }
        guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            context.error(path, "\"\(value)\" is not an absolute URL")
            return
        }
        if scheme == "http", allowingLoopbackHTTP, ["localhost", "127.0.0.1", "::1"].contains(host.lowercased()) {
            context.warning(path, "http is for development only; devices require https")
        } else if scheme != "https" {
            context.error(path, "must be an https URL, found \(scheme)")
        }
    }

    /// Reports a value that is not an ISO 8601 duration of days, hours, minutes or seconds (`PT2H`, `P1DT12H`).
    static func duration(_ value: String?, at path: String, context: inout ValidationContext) {
        guard let value else { return }
        let pattern = #"^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$"#
        if value.range(of: pattern, options: .regularExpression) == nil {
            context.error(path, "must be an ISO 8601 duration such as PT2H or P1DT12H, found \"\(value)\"")
        }
    }

    /// Reports an amount that is missing, not a decimal, negative, or has more decimals than its currency, and a
    /// currency that is not ISO 4217.
    /// - Returns: The currency code when the amount is valid.
    @discardableResult
    static func money(
        _ value: OrderCurrencyAmount?, at path: String, required: Bool = false, context: inout ValidationContext
    ) -> String? {
        guard let value else {
            if required { context.error(path, "required key is missing") }
            return nil
        }
        var valid = true
        let currency = value.currency.flatMap { Currency(code: $0) }
        if value.currency == nil {
            context.error("\(path).currency", "required key is missing")
            valid = false
        } else if currency == nil {
            context.error("\(path).currency", "\"\(value.currency ?? "")\" is not an ISO 4217 currency code")
            valid = false
        }
        guard let amount = value.amount else {
            context.error("\(path).amount", "required key is missing")
            return nil
        }
        guard AmountString.isValid(amount), let fraction = AmountString.fractionDigits(amount) else {
            context.error("\(path).amount", "\"\(amount)\" is not a decimal amount such as 19.99")
            return nil
        }
        if amount.hasPrefix("-") {
            context.error("\(path).amount", "must not be negative, found \(amount)")
            valid = false
        }
        // Amounts are signed as their text, kept exact: beyond what a Decimal holds they would be rounded.
        let digits = amount.drop { $0 == "-" || $0 == "0" }.filter(\.isNumber).count
        if digits > Self.maximumAmountDigits {
            context.error("\(path).amount", "\(amount) has \(digits) significant digits; at most \(Self.maximumAmountDigits) are kept exactly")
            valid = false
        }
        if let currency, fraction > currency.minorUnits {
            context.error("\(path).amount", "\(amount) has \(fraction) decimal places; \(currency.code) has \(currency.minorUnits)")
            valid = false
        }
        PassValidator.warnUnknownKeys(value.unknownKeys, at: path, context: &context)
        return valid ? currency?.code : nil
    }
}
