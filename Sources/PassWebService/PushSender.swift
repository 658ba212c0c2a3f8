public import Foundation

/// What happened to one push.
public enum PushOutcome: Sendable, Equatable {
    /// APNs accepted the push.
    case delivered
    /// APNs says the token is no longer valid since `timestamp` (410 Unregistered).
    case unregistered(timestamp: Date?)
    /// APNs refused the token (400 BadDeviceToken): a broken token, or one of the other APNs environment, which is
    /// what every token gets when the server pushes to the sandbox.
    case badDeviceToken
    /// The token is not a push token at all (empty, too long, not hexadecimal): nothing was sent.
    case malformedToken
    /// A temporary failure (429, 5xx, connection): try again later, not before `retryAfter` seconds if given.
    case retryable(reason: String, retryAfter: TimeInterval?)
    /// A permanent failure for this push (other 4xx), with APNs' reason.
    case failed(reason: String)

    /// A short name for metrics and logs.
    public var name: String {
        switch self {
        case .delivered: "delivered"
        case .unregistered: "unregistered"
        case .badDeviceToken: "bad_device_token"
        case .malformedToken: "malformed_token"
        case .retryable: "retry"
        case .failed: "failed"
        }
    }
}

/// Sends "your passes of this type changed" pushes: APNs in production, a recorder in tests.
public protocol PushSender: Sendable {
    /// Sends one pass-update push (empty payload, topic = pass type identifier).
    /// - Parameters:
    ///   - pushToken: The device's push token.
    ///   - passTypeIdentifier: The pass type whose passes changed.
    /// - Returns: What APNs answered.
    func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome

    /// Sends the pass-update push to several devices of one pass type at once.
    /// - Returns: What APNs answered for each token, in the order of `pushTokens`.
    func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome]
}

extension PushSender {
    /// One ``sendPassUpdate(pushToken:passTypeIdentifier:)`` per token, all at once.
    public func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        await withTaskGroup(of: (Int, PushOutcome).self) { group in
            for (index, token) in pushTokens.enumerated() {
                group.addTask { (index, await sendPassUpdate(pushToken: token, passTypeIdentifier: passTypeIdentifier)) }
            }
            var outcomes = [PushOutcome](repeating: .retryable(reason: "not sent", retryAfter: nil), count: pushTokens.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
    }
}
