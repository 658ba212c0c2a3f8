/// Why a persistent ``Checkout/CheckoutStore`` could not do what was asked: a code and a sentence naming the cause,
/// with the database's own message when the database refused.
public struct CheckoutPersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unavailable, invalidData, migrationFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database could not be reached or answered with an error.
        public static let unavailable = Code(.unavailable)
        /// A stored document could not be read back, or a value could not be stored as given.
        public static let invalidData = Code(.invalidData)
        /// The checkout tables could not be created or brought up to date.
        public static let migrationFailed = Code(.migrationFailed)

        /// The code's name, such as `unavailable`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure happened.
    public let code: Code
    /// A sentence naming the cause (with the database's message, when it gave one).
    public let reason: String

    private init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The database could not be reached or refused a statement.
    /// - Parameter reason: What failed, with the database's own message.
    /// - Returns: The error.
    public static func unavailable(_ reason: String) -> CheckoutPersistenceError {
        CheckoutPersistenceError(.unavailable, reason)
    }

    /// Stored or given data is not what the store expects.
    /// - Parameter reason: Which document or value, and why.
    /// - Returns: The error.
    public static func invalidData(_ reason: String) -> CheckoutPersistenceError {
        CheckoutPersistenceError(.invalidData, reason)
    }

    /// A migration failed; nothing of it was applied.
    /// - Parameter reason: Which migration, with the database's message.
    /// - Returns: The error.
    public static func migrationFailed(_ reason: String) -> CheckoutPersistenceError {
        CheckoutPersistenceError(.migrationFailed, reason)
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }
}
