public import APNs
public import PassWebService
import Foundation

/// Sends pass-update pushes through an ``APNs/APNsClient``: empty payload, `apns-topic` = pass type identifier,
/// an expiration in the future so devices that are offline still get it.
public struct APNsPushSender: PushSender {
    /// The client.
    public let client: APNsClient

    /// Creates a sender over a client (which must be running as a service).
    public init(client: APNsClient) {
        self.client = client
    }

    public func sendPassUpdate(pushToken: String, passTypeIdentifier: String) async -> PushOutcome {
        do {
            switch try await client.send(pushToken: pushToken, topic: passTypeIdentifier) {
            case .delivered: return .delivered
            case .unregistered(let timestamp): return .unregistered(timestamp: timestamp)
            case .badDeviceToken: return .badDeviceToken
            case .retryable(let status, let reason, let retryAfter):
                return .retryable(reason: status.map { "\($0) \(reason)" } ?? reason, retryAfter: retryAfter)
            case .failed(let status, let reason): return .failed(reason: "\(status) \(reason)")
            }
        } catch let error where error.code == .invalidPushToken {
            return .badDeviceToken
        } catch let error where error.code == .clientShutDown {
            return .retryable(reason: error.reason, retryAfter: nil)
        } catch {
            return .failed(reason: error.description)
        }
    }
}
