import Crypto
public import Foundation
import GoogleWallet
import Logging
import PassModel
public import PassStore
public import PassWebService
import Synchronization

extension GoogleWalletSync {
    /// A pass's save link and Google state, for the issuer API.
    public func googleState(of pass: PassRecord) async -> GoogleWalletState? {
        let mapped: GoogleWalletPass
        do {
            mapped = try await map(pass)
        } catch let error as GoogleWalletError {
            return GoogleWalletState(saveURL: nil, classId: "", objectId: "", state: "", saves: 0, deletes: 0, pending: 0,
                                     error: error.reason)
        } catch {
            return GoogleWalletState(saveURL: nil, classId: "", objectId: "", state: "", saves: 0, deletes: 0, pending: 0,
                                     error: "\(error)")
        }
        var link: GoogleSaveLink?
        // Whole when it fits; else the object (its class is inserted by the sync); else its id (inserted too).
        for content in GoogleSaveLink.Content.allCases {
            guard let signed = try? await GoogleSaveLink.sign([mapped], content: content, account: configuration.account,
                                                              origins: configuration.origins, issuedAt: now()) else { break }
            link = signed
            if signed.fits { break }
        }
        if let link, link.fits, link.content != .classesAndObjects, pass.createdAt < startedAt { ensureAtGoogle(mapped) }
        let counts = await callbackCounts(pass)
        return GoogleWalletState(
            saveURL: link?.fits == true ? link?.url : nil, classId: mapped.classId, objectId: mapped.objectId,
            state: mapped.objectJSON["state"]?.stringValue ?? "", saves: counts?.saves ?? 0, deletes: counts?.deletes ?? 0,
            pending: await pending(pass))
    }


    /// A save link that refers to what Google has (the class, or the object too) works only once they were inserted,
    /// and the sync inserts them when the pass changes: a pass with no change since Google Wallet was turned on never
    /// was. For a pass made before this process began, such a link's class and object are inserted once per process,
    /// in the background (the link is answered at once; a holder's tap comes later), and only when Google does not
    /// have them: what the sync sent is never overwritten with a state read earlier. A failure is logged and tried
    /// again with the next link asked for.
    func ensureAtGoogle(_ mapped: GoogleWalletPass) {
        guard ensuredForLinks.withLock({ ensured in
            if ensured.count > 100_000 { ensured.removeAll() }
            return ensured.insert(mapped.objectId).inserted
        }) else { return }
        Task {
            do {
                try await client.insertClassIfAbsent(of: mapped)
                try await client.insertObjectIfAbsent(of: mapped)
            } catch {
                _ = ensuredForLinks.withLock { $0.remove(mapped.objectId) }
                logger.warning("google: the class and object a save link refers to could not be sent", metadata: [
                    "objectId": "\(mapped.objectId)", "reason": "\(error)",
                ])
            }
        }
    }

    /// Changes to a pass after the cursor this process last saw (other processes' progress is not counted).
    func pending(_ pass: PassRecord) async -> Int {
        guard let cursor = seen.withLock({ $0 }),
              let events = try? await store.events(after: cursor, types: Self.eventTypes, limit: 1000) else { return 0 }
        return events.filter { event in
            let json = try? JSONValue(jsonData: event.data)
            return json?["passTypeIdentifier"]?.stringValue == pass.passTypeIdentifier
                && json?["serialNumber"]?.stringValue == pass.serialNumber
        }.count
    }

    /// A template image by its SHA-256, indexing every template's images on a miss (after a restart or an edit), at
    /// most once every ten seconds: requests for addresses no template has cannot make the server hash all its
    /// images again and again.
    public func image(sha256: String) async -> Data? {
        if let data = images.image(sha256) { return data }
        guard images.mayReindex(at: now()) else { return nil }
        for data in await issuer.templateImages() { _ = images.remember(data) }
        return images.image(sha256)
    }
}

/// Template images by content address: the addresses Google objects refer to, and what they serve.
final class GoogleImageIndex: Sendable {
    private let images = Mutex<[String: Data]>([:])

    /// Keeps an image and returns its address (SHA-256 in hex).
    func remember(_ data: Data) -> String {
        let digest = SHA256.hash(data: data).lowercaseHex
        images.withLock { if $0[digest] == nil { $0[digest] = data } }
        return digest
    }

    func image(_ digest: String) -> Data? { images.withLock { $0[digest] } }

    private let lastReindex = Mutex<Date?>(nil)

    /// Whether the templates may be indexed again now (not within ten seconds of the last time); notes the time.
    func mayReindex(at now: Date) -> Bool {
        lastReindex.withLock { last in
            if let last, now.timeIntervalSince(last) < 10 { return false }
            last = now
            return true
        }
    }
}
