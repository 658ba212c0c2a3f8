package import Foundation

/// A store operation that cannot be done as asked.
public struct PassStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Sendable, Equatable {
        case duplicatePass(String, String)
        case passNotFound(String, String)
        case invalidData(String)
        case unavailable(String)
        case idempotencyConflict(String)
    }

    private let base: Base

    /// A pass with this pass type and serial number already exists.
    public static func duplicatePass(passTypeIdentifier: String, serialNumber: String) -> PassStoreError {
        PassStoreError(base: .duplicatePass(passTypeIdentifier, serialNumber))
    }

    /// There is no pass with this pass type and serial number.
    public static func passNotFound(passTypeIdentifier: String, serialNumber: String) -> PassStoreError {
        PassStoreError(base: .passNotFound(passTypeIdentifier, serialNumber))
    }

    /// Stored or given data is not what the store expects (names the column or field).
    public static func invalidData(_ reason: String) -> PassStoreError {
        PassStoreError(base: .invalidData(reason))
    }

    /// The database could not be reached or answered with an error (its own message included).
    public static func unavailable(_ reason: String) -> PassStoreError {
        PassStoreError(base: .unavailable(reason))
    }

    /// An idempotency key was used before for another request.
    public static func idempotencyConflict(_ key: String) -> PassStoreError {
        PassStoreError(base: .idempotencyConflict(key))
    }

    /// Whether this is an idempotency-key conflict.
    public var isIdempotencyConflict: Bool {
        if case .idempotencyConflict = base { return true }
        return false
    }

    /// Whether this is a duplicate-pass error.
    public var isDuplicatePass: Bool {
        if case .duplicatePass = base { return true }
        return false
    }

    /// Whether this is a pass-not-found error.
    /// What an `invalidData` error says, without the words that introduce it; `nil` for another error.
    public var invalidDataReason: String? {
        if case .invalidData(let reason) = base { return reason }
        return nil
    }

    public var isPassNotFound: Bool {
        if case .passNotFound = base { return true }
        return false
    }

    public var description: String {
        switch base {
        case .duplicatePass(let type, let serial): "a pass \(type) / \(serial) already exists"
        case .passNotFound(let type, let serial): "no pass \(type) / \(serial)"
        case .invalidData(let reason): "invalid stored data: \(reason)"
        case .unavailable(let reason): "database unavailable: \(reason)"
        case .idempotencyConflict: "the idempotency key was used for another request"
        }
    }
}

extension Date {
    /// This date cut to the whole second (HTTP dates carry no fractions).
    package var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
