/// An error thrown by PaymentRequest: JSON that does not decode, a summary the builder cannot turn into a request,
/// or a built request that fails validation.
///
/// `reason` is a plain sentence naming the field or path at fault.
public struct PaymentRequestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidJSON, unknownCurrency, unknownCountry, invalidSummary, unknownShippingMethod, invalidRequest
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Bytes that are not JSON, or JSON whose values have the wrong types.
        public static let invalidJSON = Code(.invalidJSON)
        /// A currency code missing from the ISO 4217 table.
        public static let unknownCurrency = Code(.unknownCurrency)
        /// A country code missing from the ISO 3166-1 table.
        public static let unknownCountry = Code(.unknownCountry)
        /// A merchant summary with an impossible value (a negative subtotal, an empty label).
        public static let invalidSummary = Code(.invalidSummary)
        /// A shipping method identifier the builder does not have.
        public static let unknownShippingMethod = Code(.unknownShippingMethod)
        /// A built request or update that fails validation; ``PaymentRequestError/report`` lists the problems.
        public static let invalidRequest = Code(.invalidRequest)

        /// The code's name, such as `invalidJSON`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// A human-readable explanation naming what is at fault.
    public let reason: String
    /// The validation problems, for ``Code/invalidRequest``.
    public let report: PaymentRequestReport?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - reason: A plain explanation.
    ///   - report: Validation problems, if any.
    public init(code: Code, reason: String, report: PaymentRequestReport? = nil) {
        self.code = code
        self.reason = reason
        self.report = report
    }

    /// The reason.
    public var description: String { reason }

    static func invalidSummary(_ reason: String) -> PaymentRequestError {
        PaymentRequestError(code: .invalidSummary, reason: reason)
    }

    static func invalid(_ report: PaymentRequestReport) -> PaymentRequestError {
        let lines = report.errors.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        return PaymentRequestError(code: .invalidRequest, reason: "the request is not valid: \(lines)", report: report)
    }
}
