public import Foundation

/// Every problem ``ApplePayPaymentRequest/validate()`` found, errors and warnings together.
public struct PaymentRequestReport: Sendable, Codable, Equatable {
    /// All issues, in the order they were found.
    public var issues: [PaymentRequestIssue]

    /// Creates a report.
    /// - Parameter issues: The issues found.
    public init(issues: [PaymentRequestIssue] = []) {
        self.issues = issues
    }

    /// Problems that make Safari refuse the request, or break a rule Apple documents for merchants.
    public var errors: [PaymentRequestIssue] { issues.filter { $0.severity == .error } }

    /// Problems the sheet tolerates but shows badly (a label cut short, a deprecated value).
    public var warnings: [PaymentRequestIssue] { issues.filter { $0.severity == .warning } }

    /// Whether there are no errors (warnings allowed).
    public var isValid: Bool { !issues.contains { $0.severity == .error } }

    /// The issues at a JSON path.
    /// - Parameter path: A path such as `lineItems[1].amount`.
    /// - Returns: The issues whose path is exactly `path`.
    public func issues(at path: String) -> [PaymentRequestIssue] {
        issues.filter { $0.path == path }
    }
}

/// One problem in a payment request: how bad it is, where it is and why.
public struct PaymentRequestIssue: Sendable, Codable, Equatable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Codable {
        /// Safari would refuse the request, or Apple's rules for merchants forbid it.
        case error
        /// The sheet would still open but show something badly.
        case warning
    }

    /// How bad the problem is.
    public var severity: Severity
    /// A JSON path such as `shippingMethods[0].amount`.
    public var path: String
    /// A plain reason.
    public var message: String

    /// Creates an issue.
    /// - Parameters:
    ///   - severity: How bad it is.
    ///   - path: Where it is.
    ///   - message: Why it is a problem.
    public init(severity: Severity, path: String, message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    /// `error: <path>: <message>` or `warning: <path>: <message>`.
    public var description: String { "\(severity.rawValue): \(path): \(message)" }
}

/// The limits validation applies, in one place.
public enum ApplePayLimits {
    /// The largest total Safari accepts: 100,000,000 in any currency.
    public static let maximumTotal: Decimal = 100_000_000

    /// Characters of a label that fit on one line of the payment sheet.
    ///
    /// Apple publishes no number; on an iPhone the sheet fits about 30 characters of a summary label before it
    /// truncates or wraps, so longer labels draw a warning. The total's label is shown as "Pay <label>", so the same
    /// limit applies to that whole line.
    public static let labelCharacterLimit = 30
}
