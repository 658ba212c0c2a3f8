/// An error the APNs client raises before a notification reaches APNs: bad configuration or a malformed push token.
///
/// Answers from APNs, including refusals and network failures, are not errors: they come back as ``APNsResult``.
public struct APNsError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidPushToken
            case invalidTopic
            case invalidCredentials
            case tokenSigningFailed
            case clientShutDown
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The push token is empty or holds characters other than hexadecimal digits.
        public static let invalidPushToken = Code(.invalidPushToken)
        /// The topic (pass type identifier) is empty or cannot be sent as a header.
        public static let invalidTopic = Code(.invalidTopic)
        /// A certificate, private key or `.p8` key could not be read or parsed.
        public static let invalidCredentials = Code(.invalidCredentials)
        /// The provider authentication token (ES256 JWT) could not be signed.
        public static let tokenSigningFailed = Code(.tokenSigningFailed)
        /// The client was already shut down.
        public static let clientShutDown = Code(.clientShutDown)

        /// The code's name, e.g. `invalidPushToken`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A human-readable explanation.
    public var reason: String
    /// The underlying error, if any (for example NIOSSL's or swift-crypto's).
    public var underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - reason: A human-readable explanation.
    ///   - underlying: The underlying error, if any.
    public init(_ code: Code, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
    }

    /// `APNsError.<code>: <reason>` and, when present, the underlying error.
    public var description: String {
        var text = "APNsError.\(code): \(reason)"
        if let underlying { text += " (\(underlying))" }
        return text
    }

    static func invalidPushToken(_ reason: String) -> APNsError { APNsError(.invalidPushToken, reason) }

    static func invalidTopic(_ reason: String) -> APNsError { APNsError(.invalidTopic, reason) }

    static func invalidCredentials(_ reason: String, underlying: (any Error)? = nil) -> APNsError {
        APNsError(.invalidCredentials, reason, underlying: underlying)
    }

    static func tokenSigningFailed(_ reason: String, underlying: (any Error)? = nil) -> APNsError {
        APNsError(.tokenSigningFailed, reason, underlying: underlying)
    }
}
