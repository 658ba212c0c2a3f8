public import Foundation
import GoogleWallet
import Logging
import Synchronization
import PassStore
public import PassWebService

extension GoogleWalletSync {
    /// Verifies one of Google's callbacks (ECv2SigningOnly, sender `GooglePayPasses`, recipient the issuer id),
    /// then counts and records it once per nonce as the pass's `pass.registered` or `pass.unregistered`.
    public func receiveCallback(_ body: Data) async -> GoogleCallbackOutcome {
        let callback: GoogleCallback
        do {
            callback = try await verify(body)
        } catch let error as GoogleCallbackError {
            logger.warning("google: callback refused", metadata: ["reason": "\(error.reason)"])
            return .refused(error.reason)
        } catch {
            return .unavailable("Google's callback signing keys cannot be read: \(error)")
        }
        guard let (type, serial) = mapper.pass(ofObjectId: callback.objectId) else { return .unknownPass }
        guard let store = store as? any GoogleCallbackStore else { return .unavailable("the store keeps no callbacks") }
        do {
            guard try await issuer.item(typeIdentifier: type, identifier: serial) != nil else { return .unknownPass }
            let recorded = try await store.recordGoogleCallback(
                GoogleCallbackRecord(nonce: callback.nonce, passTypeIdentifier: type, serialNumber: serial,
                                     objectId: callback.objectId, isSave: callback.isSave), now: now())
            return recorded ? .accepted : .repeated
        } catch {
            return .unavailable("\(error)")
        }
    }

    /// Saves and deletes recorded for a pass.
    func callbackCounts(_ pass: PassRecord) async -> (saves: Int, deletes: Int)? {
        guard let store = store as? any GoogleCallbackStore else { return nil }
        return try? await store.googleCallbackCounts(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
    }

    /// Verifies with the cached keys; a signature no cached key verifies reads the keys again (Google rotates
    /// them), at most once a minute.
    private func verify(_ body: Data) async throws -> GoogleCallback {
        let cached = callbackKeys.withLock { $0 }
        var refusal: (any Error)?
        if let cached {
            do {
                return try GoogleCallbackVerifier(issuerId: configuration.issuerId, keys: cached.keys).verify(body, now: now())
            } catch where now().timeIntervalSince(cached.read) < 60 {
                throw error
            } catch {
                refusal = error
            }
        }
        // Read again (Google rotates its keys) unless a read was asked for in the last 10 s: then the callback is
        // judged by the keys at hand, or, with none, answered unavailable (Google sends it again).
        let asking = now()
        let mayAsk = callbackKeysAskedAt.withLock { last -> Bool in
            if let last, asking.timeIntervalSince(last) < 10 { return false }
            last = asking
            return true
        }
        guard mayAsk else {
            if let refusal { throw refusal }
            throw KeysUnreadable(reason: "Google's callback keys were asked for less than 10 s ago and could not be read")
        }
        let keys = try await readCallbackKeys()
        callbackKeys.withLock { $0 = (keys, now()) }
        return try GoogleCallbackVerifier(issuerId: configuration.issuerId, keys: keys).verify(body, now: now())
    }

    private func readCallbackKeys() async throws -> GoogleCallbackKeys {
        let source = configuration.callbackKeys
        let data: Data
        if source.hasPrefix("https://") || source.hasPrefix("http://"), let url = URL(string: source) {
            data = try await client.fetchPublic(url)
        } else {
            data = try Data(contentsOf: URL(fileURLWithPath: source))
        }
        do {
            return try GoogleCallbackKeys(jsonData: data)
        } catch {
            // Keys that cannot be read are the server's problem, not the callback's: 503, so Google sends it again,
            // rather than a 400 that loses the save or delete it tells of.
            throw KeysUnreadable(reason: "\(source): \(error.reason)")
        }
    }

    /// Google's callback keys were fetched or read but are not a keys document.
    struct KeysUnreadable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}
