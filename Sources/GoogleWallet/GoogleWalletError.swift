public import Validation

/// An error thrown by GoogleWallet: an unusable service account file or `google.json`, a pass whose Google
/// class or object breaks Google's schema, or a save link that cannot be made.
///
/// `reason` is a plain sentence naming the file, field or JSON path at fault.
public struct GoogleWalletError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidServiceAccount, invalidOverrides, invalidMapping, linkTooLong, signingFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The service account key file is missing, not JSON, or lacks a member.
        public static let invalidServiceAccount = Code(.invalidServiceAccount)
        /// A template's `google.json` is not JSON or names an unknown member.
        public static let invalidOverrides = Code(.invalidOverrides)
        /// The Google class or object breaks Google's schema; ``GoogleWalletError/issues`` lists every problem.
        public static let invalidMapping = Code(.invalidMapping)
        /// A save link would be longer than Google accepts.
        public static let linkTooLong = Code(.linkTooLong)
        /// The JWT could not be signed with the service account's key.
        public static let signingFailed = Code(.signingFailed)

        /// The code's name, such as `invalidMapping`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// A human-readable explanation naming what is at fault.
    public let reason: String
    /// Every problem found, each with its JSON path (for ``Code/invalidMapping``).
    public let issues: [ValidationIssue]

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure happened.
    ///   - reason: A human-readable explanation.
    ///   - issues: The problems behind it, if any.
    public init(_ code: Code, _ reason: String, issues: [ValidationIssue] = []) {
        self.code = code
        self.reason = reason
        self.issues = issues
    }

    /// `<code>: <reason>`.
    public var description: String { "\(code): \(reason)" }
}
