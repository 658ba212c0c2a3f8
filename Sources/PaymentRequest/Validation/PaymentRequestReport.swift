public import Foundation
@_exported public import Validation

/// Every problem ``ApplePayPaymentRequest/validate()`` found: the shared ``ValidationReport``, whose errors are what
/// Safari refuses or Apple's merchant rules forbid and whose warnings are what the sheet shows badly.
public typealias PaymentRequestReport = ValidationReport

/// One problem in a payment request, with its JSON path (such as `shippingMethods[0].amount`) and reason.
public typealias PaymentRequestIssue = ValidationIssue

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
