public import PassModel

/// An error building, signing, reading or writing a `.pkpass` or an `.order`, naming the file or key at fault.
public struct PassBundleError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case credentials, passwordRequired, intermediateMissing, wrongIntermediate, identityMismatch, invalidPass
            case invalidOrder, invalidArchive, io
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Certificates, keys or passwords are unusable.
        public static let credentials = Code(.credentials)
        /// An encrypted key or a password-protected PKCS#12 was given without its password (`keyPassword`,
        /// `password`).
        public static let passwordRequired = Code(.passwordRequired)
        /// No WWDR intermediate certificate was given and the PKCS#12 holds none that issued the certificate
        /// (`wwdrPath`).
        public static let intermediateMissing = Code(.intermediateMissing)
        /// The WWDR intermediate given did not issue the Pass Type ID certificate (`wwdrPath`, or a verifier's `wwdr`).
        public static let wrongIntermediate = Code(.wrongIntermediate)
        /// `pass.json` names a different Pass Type ID or team than the certificate.
        public static let identityMismatch = Code(.identityMismatch)
        /// `pass.json` fails validation.
        public static let invalidPass = Code(.invalidPass)
        /// `order.json` (or the data merged into it) fails validation.
        public static let invalidOrder = Code(.invalidOrder)
        /// The file is not a readable `.pkpass` (or `.order`) archive.
        public static let invalidArchive = Code(.invalidArchive)
        /// Reading or writing a file failed.
        public static let io = Code(.io)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A plain explanation.
    public let reason: String
    /// For `invalidPass` and `invalidOrder`: every error and warning found, each with its path (empty for other codes).
    public let issues: [ValidationIssue]

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A plain explanation naming the file or key.
    ///   - issues: Every problem found, errors and warnings, when there is a report.
    public init(_ code: Code, _ reason: String, issues: [ValidationIssue] = []) {
        self.code = code
        self.reason = reason
        self.issues = issues
    }

    /// The reason.
    public var description: String { reason }
}
