/// Every problem a validator found, errors and warnings together: what `PassValidator` reports for a pass and
/// `ApplePayPaymentRequest.validate()` for a payment request.
public struct ValidationReport: Sendable, Codable, Equatable {
    /// The problems in the order they were found.
    public var issues: [ValidationIssue]

    /// Creates a report.
    /// - Parameter issues: The problems found.
    public init(issues: [ValidationIssue] = []) {
        self.issues = issues
    }

    /// Problems that stop the thing from working (Wallet would not open the pass; Safari would refuse the request).
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// Problems that are tolerated but ignored or shown badly.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    /// Whether there are no errors (warnings allowed).
    public var isValid: Bool { !issues.contains { $0.severity == .error } }

    /// The issues at a JSON or file path.
    /// - Parameter path: A path such as `eventTicket.primaryFields[0].changeMessage`, `icon.png` or `lineItems[1].amount`.
    /// - Returns: The issues whose path is exactly `path`.
    public func issues(at path: String) -> [ValidationIssue] {
        issues.filter { $0.path == path }
    }
}

/// One problem: how bad it is, where it is and why.
public struct ValidationIssue: Sendable, Codable, Equatable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Codable {
        /// It would not work: Wallet would not open the pass, Safari would refuse the request, or Apple's rules forbid it.
        case error
        /// It works, but something is ignored or shown badly.
        case warning
    }

    /// How bad the problem is.
    public var severity: Severity
    /// A JSON path (`eventTicket.primaryFields[0].changeMessage`, `shippingMethods[0].amount`) or a bundle file path
    /// (`fr.lproj/pass.strings`).
    public var path: String
    /// A plain reason, such as "must contain %@ where the new value goes".
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
