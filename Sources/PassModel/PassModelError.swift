public import Validation

/// An error thrown by PassModel: invalid JSON, an unusable template or data document,
/// a malformed `.strings` file, PNG header or PDF image.
///
/// `reason` is a plain sentence meant for people; it names the file, key or line at fault.
public struct PassModelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidJSON, invalidPass, invalidData, unknownField, templateNotFound, unreadableFile
            case invalidStrings, invalidPNG, invalidPDF
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Bytes that are not valid JSON.
        public static let invalidJSON = Code(.invalidJSON)
        /// JSON that does not decode as a pass (a key holds a value of the wrong type).
        public static let invalidPass = Code(.invalidPass)
        /// A data document that cannot be applied to a template.
        public static let invalidData = Code(.invalidData)
        /// A data document names a field key that the template does not have.
        public static let unknownField = Code(.unknownField)
        /// A template folder or its `pass.json` is missing.
        public static let templateNotFound = Code(.templateNotFound)
        /// A file could not be read.
        public static let unreadableFile = Code(.unreadableFile)
        /// A `.strings` file that does not parse.
        public static let invalidStrings = Code(.invalidStrings)
        /// Bytes that are not a PNG image.
        public static let invalidPNG = Code(.invalidPNG)
        /// Bytes that are not a PDF document.
        public static let invalidPDF = Code(.invalidPDF)

        /// The code's name, such as `invalidJSON`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// A human-readable explanation naming what is at fault.
    public let reason: String
    /// Every problem the validator found, each with its path, when the failure is a `pass.json` that does not decode
    /// (`invalidPass` from loading a template): the values of the wrong type and every other error
    /// and warning of the rest of the pass. Empty for other failures.
    public let issues: [ValidationIssue]

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure happened.
    ///   - reason: A human-readable explanation.
    ///   - issues: The validator's problems behind the failure, if any.
    public init(_ code: Code, _ reason: String, issues: [ValidationIssue] = []) {
        self.code = code
        self.reason = reason
        self.issues = issues
    }

    /// The reason.
    public var description: String { reason }
}
