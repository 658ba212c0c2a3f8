public import APNs
public import PassWebService
import Foundation

/// Sends pass-update pushes through an ``APNs/APNsClient``: empty payload, `apns-topic` = pass type identifier,
/// an expiration in the future so devices that are offline still get it.
public struct APNsPushSender: PushSender {
    /// The client.
    public let client: APNsClient
    /// What the client authenticates with (its files' bytes, its key's identifiers), when known: a reload keeps the
    /// client of credentials that did not change (``IdentityComposition/pushSenders(_:endpoint:logger:reusing:)``).
    public let credential: String?

    /// Creates a sender over a client (which must be running as a service).
    public init(client: APNsClient, credential: String? = nil) {
        self.client = client
        self.credential = credential
    }

    public func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        do {
            return Self.outcome(try await client.send(pushToken: pushToken, topic: passTypeIdentifier))
        } catch {
            return Self.outcome(error)
        }
    }

    /// The pushes of one pass type through the client's batch send: one hop to the connection and one back.
    public func sendPassUpdates(pushTokens: [String], passTypeIdentifier: String) async -> [PushOutcome] {
        do {
            return try await client.send(pushTokens: pushTokens, topic: passTypeIdentifier).map(Self.outcome)
        } catch {
            return pushTokens.map { _ in Self.outcome(error) }
        }
    }

    private static func outcome(_ result: APNsResult) -> PushOutcome {
        switch result {
        case .delivered: .delivered
        case .unregistered(let timestamp): .unregistered(timestamp: timestamp)
        case .badDeviceToken: .badDeviceToken
        case .malformedToken: .malformedToken
        case .retryable(let status, let reason, let retryAfter):
            .retryable(reason: status.map { "\($0) \(reason)" } ?? reason, retryAfter: retryAfter)
        case .failed(let status, let reason): .failed(reason: "\(status) \(reason)")
        }
    }

    private static func outcome(_ error: APNsError) -> PushOutcome {
        switch error.code {
        case .invalidPushToken: .malformedToken
        case .clientShutDown: .retryable(reason: error.reason, retryAfter: nil)
        default: .failed(reason: error.description)
        }
    }
}
