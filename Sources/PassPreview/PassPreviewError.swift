/// A preview that cannot be made: a bundle without a readable `pass.json` (or `order.json`), an option out of range, or a failure
/// reported by librsvg or cairo while rasterizing (with that library's own words).
///
/// A pass that merely fails validation is not an error: it is drawn with a red banner listing its problems.
public struct PassPreviewError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case missingPassJSON, invalidPass, missingOrderJSON, invalidOrder, invalidOption, rasterizerFailure
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The files hold no `pass.json`.
        public static let missingPassJSON = Code(.missingPassJSON)
        /// `pass.json` is not JSON, or a value has a type the model cannot hold, so there is nothing to draw.
        public static let invalidPass = Code(.invalidPass)
        /// The order's files hold no `order.json`.
        public static let missingOrderJSON = Code(.missingOrderJSON)
        /// `order.json` is not JSON, or a value has a type the model cannot hold.
        public static let invalidOrder = Code(.invalidOrder)
        /// A rendering option (scale) is out of range.
        public static let invalidOption = Code(.invalidOption)
        /// librsvg or cairo failed to parse, draw or encode the picture.
        public static let rasterizerFailure = Code(.rasterizerFailure)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A plain explanation naming what failed, e.g. `scale: 0 is not between 0.25 and 8`.
    public let reason: String
    /// librsvg's or cairo's own error text, when one failed (empty otherwise).
    public let libraryError: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A plain explanation naming what failed.
    ///   - libraryError: librsvg's or cairo's own message, if any.
    public init(_ code: Code, _ reason: String, libraryError: String = "") {
        self.code = code
        self.reason = reason
        self.libraryError = libraryError
    }

    /// The reason, followed by the library's words in parentheses when there are any.
    public var description: String {
        libraryError.isEmpty ? reason : "\(reason) (\(libraryError))"
    }
}
