import Crypto
import Synchronization
public import Foundation
public import GoogleWallet
public import Logging
import Metrics
import PassModel
public import PassStore
public import PassWebService
public import ServiceLifecycle

/// Keeps every pass's Google Wallet object current: reads the event log after its own cursor (kept in the store,
/// leased by one process at a time, as webhooks are), and for the passes that changed sends their newest state once
/// (an insert for a new pass, a patch otherwise, the class updated once per round, `addMessage` for a campaign's
/// message). A failure Google may recover from (429, 5xx, no answer) is retried with backoff, the cursor staying
/// where it was, so a kill -9 loses nothing: the next process starts from the same events.
public final class GoogleWalletSync: Service, GoogleWalletLinking, Sendable {
    /// How the sync runs.
    public struct Configuration: Sendable {
        /// The Google Wallet issuer id.
        public var issuerId: String
        /// The service account.
        public var account: GoogleServiceAccount
        /// Where Google's API is.
        public var client: GoogleWalletClient.Configuration
        /// The server's public URL: images are served under `{publicURL}/google/images/`.
        public var publicURL: URL
        /// Web origins allowed to show save buttons (the save JWT's `origins`).
        public var origins: [String]
        /// How often an idle sync looks at the event log.
        public var pollInterval: Duration = .milliseconds(250)
        /// Events read per round.
        public var batchSize = 500
        /// Passes sent to Google at once.
        public var concurrency = 8
        /// How long a process holds the delivery lease without renewing it.
        public var lease: TimeInterval = 30
        /// The first retry's delay; it doubles up to ``maximumRetryDelay``.
        public var firstRetryDelay: TimeInterval = 1
        public var maximumRetryDelay: TimeInterval = 300
        /// One process per store (SQLite): a lease left by a process that is gone is taken at once.
        public var exclusiveStore = false
        /// Google's callback signing keys: a URL (Google's published keys by default) or a file.
        public var callbackKeys = GoogleCallbackKeys.googleKeysURL.absoluteString

        /// Creates a configuration.
        public init(issuerId: String, account: GoogleServiceAccount, client: GoogleWalletClient.Configuration = .init(),
                    publicURL: URL, origins: [String] = []) {
            self.issuerId = issuerId
            self.account = account
            self.client = client
            self.publicURL = publicURL
            self.origins = origins
        }
    }

    /// The events that change what Google shows.
    static let eventTypes: Set<String> = [
        "pass.created", "pass.updated", "pass.voided", "pass.unvoided", "pass.redeemed", "pass.personalized",
    ]

    let configuration: Configuration
    let issuer: PassIssuer
    let store: any EventStore & WebhookOutboxStore
    let client: GoogleWalletClient
    let images: GoogleImageIndex
    let logger: Logger
    let now: @Sendable () -> Date
    let owner: String
    let endpoint: String
    /// The cursor this process last saved or read.
    let seen = Mutex<EventCursor?>(nil)
    /// Google's callback signing keys and when they were read.
    let callbackKeys = Mutex<(keys: GoogleCallbackKeys, read: Date)?>(nil)
    /// When the callback keys were last asked for (read or not): one read at a time, and at most one every 10 s, so
    /// that forged callbacks (anyone can post one) cannot make the server fetch Google's keys for each of them.
    let callbackKeysAskedAt = Mutex<Date?>(nil)
    /// The update tag of each pass's state this process last sent.
    let deliveredTags = Mutex<[GoogleChanges.Key: Int64]>([:])
    /// The classes this process sent, by id: their content's hash.
    let sentClasses = Mutex<[String: Int]>([:])
    /// Objects whose class and object this process sent for a save link that refers to them (once each).
    let ensuredForLinks = Mutex<Set<String>>([])
    /// When this process began: passes made since are inserted by the sync itself.
    let startedAt: Date
    private let delivered = Counter(label: "tessera_google_updates_total", dimensions: [("result", "delivered")])
    private let failed = Counter(label: "tessera_google_updates_total", dimensions: [("result", "failed")])
    private let retries = Counter(label: "tessera_google_retries_total")

    /// Creates the sync (and its HTTP client, shut down when ``run()`` ends).
    public init(configuration: Configuration, issuer: PassIssuer, store: any EventStore & WebhookOutboxStore,
                logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.issuer = issuer
        self.store = store
        self.logger = logger
        self.now = now
        startedAt = now()
        client = GoogleWalletClient(account: configuration.account, configuration: configuration.client)
        images = GoogleImageIndex()
        endpoint = "google-wallet:\(configuration.issuerId)"
        owner = configuration.exclusiveStore
            ? "tessera serve"
            : "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString)"
    }

    /// The mapper, its images served by this server.
    var mapper: GooglePassMapper {
        let base = configuration.publicURL.absoluteString.hasSuffix("/")
            ? String(configuration.publicURL.absoluteString.dropLast()) : configuration.publicURL.absoluteString
        let images = images
        // Google fetches images over https only: a development server on http leaves them out.
        let servesImages = configuration.publicURL.scheme == "https"
        return GooglePassMapper(issuerId: configuration.issuerId) { name, data in
            servesImages ? "\(base)/google/images/\(images.remember(data)).png" : nil
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var start: EventCursor?
            while !Task.isCancelled {
                do {
                    if start == nil { start = try await self.store.latestEventCursor() }
                    if let last = self.seen.withLock({ $0 }),
                       try await self.store.events(after: last, types: Self.eventTypes, limit: 1).isEmpty {
                        try? await Task.sleep(for: self.configuration.pollInterval)
                        continue
                    }
                    if try await self.deliverRound(start: start ?? .start) { continue }
                } catch is CancellationError {
                    break
                } catch is LeaseLost {
                    self.logger.notice("google: another process took over the updates")
                } catch {
                    self.logger.error("google: cannot read the event log", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: self.configuration.pollInterval)
            }
        }
        try? await store.releaseWebhookDelivery(endpoint: endpoint, owner: owner)
        try await client.shutdown()
    }

    struct LeaseLost: Error {}

    /// Takes the lease and delivers the passes the next events changed.
    /// - Returns: Whether there were events.
    func deliverRound(start: EventCursor) async throws -> Bool {
        guard let position = try await store.leaseWebhookDelivery(
            endpoint: endpoint, owner: owner, start: start, now: now(), lease: configuration.lease)
        else { return false }
        seen.withLock { $0 = position }
        let events = try await store.events(after: position, types: Self.eventTypes, limit: configuration.batchSize)
        guard let last = events.last else { return false }
        let changes = GoogleChanges(events)
        let renew: @Sendable () async throws -> Void = {
            guard try await self.save(position) else { throw LeaseLost() }
        }
        // The first pass alone (its class is sent once), then the rest a few at a time; the lease renewed between,
        // and every third of the lease while a chunk is sent: a pass's requests (token, class, object, messages) may
        // together take longer than the lease when Google is slow, and another process must not take the round over.
        var index = 0
        let heartbeat = Duration.milliseconds(Int(max(0.05, configuration.lease / 3) * 1000))
        while index < changes.order.count {
            let chunk = changes.order[index..<min(index + (index == 0 ? 1 : configuration.concurrency), changes.order.count)]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in chunk {
                    group.addTask { try await self.deliver(key, changes: changes, renewLease: renew) }
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: heartbeat)
                        try await renew()
                    }
                }
                // The deliveries end; the heartbeat only by a lost lease (thrown, ending the round) or cancellation.
                for _ in chunk { try await group.next() }
                group.cancelAll()
            }
            index += chunk.count
            try await renew()
        }
        guard try await save(last.cursor) else { throw LeaseLost() }
        seen.withLock { $0 = last.cursor }
        return true
    }

    private func save(_ cursor: EventCursor) async throws -> Bool {
        try await store.saveWebhookCursor(endpoint: endpoint, owner: owner, cursor: cursor, now: now(), lease: configuration.lease)
    }

    /// Sends a pass's class. Refused for good (a member Google does not take), the refusal is logged and the pass's
    /// own change still goes to its object, under the class as Google has it; the class is tried again with the next
    /// change. A refusal worth retrying is thrown.
    private func sendClass(of mapped: GoogleWalletPass, hash: Int) async throws {
        let outcome: Result<Void, GoogleAPIError>
        do {
            try await client.upsertClass(of: mapped)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success:
            sentClasses.withLock { $0[mapped.classId] = hash }
        case .failure(let error) where error.retryable:
            throw error
        case .failure(let error):
            failed.increment()
            logger.error("google: class update refused; the object is updated under the class as it was", metadata: [
                "classId": "\(mapped.classId)", "reason": "\(error.reason)",
            ])
        }
    }

    /// Sends one pass's newest state until Google takes it or refuses it for good.
    private func deliver(_ key: GoogleChanges.Key, changes: GoogleChanges,
                         renewLease: @Sendable () async throws -> Void) async throws {
        var delay = configuration.firstRetryDelay
        // Messages added by an earlier try of this delivery: a retry (a later message refused for a moment) does not
        // add them again, and Google, which holds a message id twice when given it twice, would notify twice.
        var messagesAdded: Set<String> = []
        while true {
            try Task.checkCancellation()
            do {
                guard let record = try await issuer.item(typeIdentifier: key.passTypeIdentifier, identifier: key.serialNumber)
                else { return }
                // Changes already sent with a newer state (while an earlier one waited out Google's 429s) are not
                // sent again: ten quick changes reach Google as the newest state once.
                let sentTag = deliveredTags.withLock { $0[key] }
                if let sentTag, let newest = changes.newestTag[key], newest <= sentTag,
                   !changes.created.contains(key), !changes.redeemed.contains(key), changes.campaigns[key] == nil {
                    return
                }
                let mapped = try await map(record)
                // A class is sent when its content differs from what this process last sent (once per campaign).
                let classHash = mapped.classJSON.hashValue
                if sentClasses.withLock({ $0[mapped.classId] }) != classHash {
                    try await sendClass(of: mapped, hash: classHash)
                }
                let atGoogle = changes.created.contains(key)
                    ? try await client.upsertObject(of: mapped) : try await client.patchObject(of: mapped)
                // The messages the object holds already: added by a delivery that did not finish (a process stopped
                // mid-round, a lease taken over) are not added again.
                let held = GoogleWalletClient.messageIds(of: atGoogle)
                for campaign in changes.campaigns[key] ?? [] {
                    // The campaign's own message: a campaign without one leaves an earlier campaign's in the pass's
                    // data, which must not be sent again.
                    let id = GoogleIdentifier.make(campaign)
                    guard !held.contains(id), !messagesAdded.contains(id),
                          let message = try await campaignMessage(campaign) else { continue }
                    let header = mapped.classJSON["issuerName"]?.stringValue ?? mapped.objectJSON["cardTitle"]?["defaultValue"]?["value"]?.stringValue ?? ""
                    try await client.addMessage(message, id: id, header: header, to: mapped)
                    messagesAdded.insert(id)
                }
                deliveredTags.withLock { tags in
                    if tags.count > 100_000 { tags.removeAll() }
                    tags[key] = max(tags[key] ?? 0, record.updateTag)
                }
                delivered.increment()
                return
            } catch let error as GoogleAPIError where error.retryable {
                try await retryLater(key, reason: error.reason, delay: &delay, renewLease: renewLease)
            } catch let error as PassStoreError {
                // The store failing for a moment (a lost connection, a pool timeout) is not Google refusing the pass:
                // tried again, as a 503 is, rather than the update left unsent until the pass changes again.
                try await retryLater(key, reason: "\(error)", delay: &delay, renewLease: renewLease)
            } catch is CancellationError {
                throw CancellationError()
            } catch is LeaseLost {
                throw LeaseLost()
            } catch {
                failed.increment()
                logger.error("google: update refused; not retried", metadata: [
                    "passTypeIdentifier": "\(key.passTypeIdentifier)", "serialNumber": "\(key.serialNumber)",
                    "reason": "\(error)",
                ])
                return
            }
        }
    }

    /// Waits out a retry's delay, then doubles it. The wait is slept in slices of a third of the lease, each followed
    /// by the lease's renewal: a wait of minutes (Google's 429s) must not let the lease run out, or another process
    /// would take delivery over and send the round's updates and messages again.
    private func retryLater(_ key: GoogleChanges.Key, reason: String, delay: inout TimeInterval,
                            renewLease: @Sendable () async throws -> Void) async throws {
        retries.increment()
        logger.warning("google: update failed; retrying", metadata: [
            "object": "\(key.serialNumber)", "reason": "\(reason)", "in": "\(delay)",
        ])
        var left = delay
        let slice = max(0.05, configuration.lease / 3)
        while left > 0 {
            let step = min(left, slice)
            try await Task.sleep(for: .milliseconds(Int(step * 1000)))
            left -= step
            try await renewLease()
        }
        delay = min(delay * 2, configuration.maximumRetryDelay)
    }

    /// A campaign's lock-screen message, from its stored specification; `nil` when it has none.
    func campaignMessage(_ id: String) async throws -> String? {
        guard let campaigns = store as? any CampaignStore, let record = try await campaigns.campaign(id: id),
              let specification = try? JSONValue(jsonData: record.specification) else { return nil }
        return specification["message"]?.stringValue
    }

    /// A pass as Google's class and object.
    func map(_ record: PassRecord) async throws -> GoogleWalletPass {
        let (pass, template, _) = try await issuer.currentPass(of: record)
        var state = GoogleObjectState.active
        // Used up, not merely scanned: a ten-ride ticket (a `count` rule with a limit of 10) stays in the holder's
        // active passes until its tenth ride, and a `count` rule without a limit never completes it.
        if [.eventTicket, .flight, .transit, .offer].contains(try GooglePassMapper.vertical(of: pass, template: template)),
           let summary = try await issuer.redemptionSummary(of: record),
           let limit = try await issuer.redemptionRule(of: record).limit, summary.redemptions >= limit {
            state = .completed
        }
        var mapped = try mapper.map(pass, template: template, state: state)
        // Google calls back on saves and deletes of the class's objects (over https only).
        if configuration.publicURL.scheme == "https", mapped.classJSON["callbackOptions"] == nil,
           case .object(var members) = mapped.classJSON {
            members["callbackOptions"] = .object(["url": .string(callbackURL)])
            mapped.classJSON = .object(members)
        }
        return mapped
    }

    /// `{public-url}/google/v1/callbacks`.
    var callbackURL: String {
        let base = configuration.publicURL.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/google/v1/callbacks"
    }
}

/// The passes a batch of events changed, in the order of their first change, coalesced: each pass once.
struct GoogleChanges: Sendable {
    struct Key: Hashable, Sendable {
        var passTypeIdentifier: String
        var serialNumber: String
    }

    var order: [Key] = []
    var created: Set<Key> = []
    /// Each pass's newest update tag among the events.
    var newestTag: [Key: Int64] = [:]
    /// Passes redeemed in these events.
    var redeemed: Set<Key> = []
    /// The campaigns that changed each pass (their messages go to Google once each).
    var campaigns: [Key: [String]] = [:]

    init(_ events: [WalletEvent]) {
        var seen: Set<Key> = []
        for event in events {
            guard let json = try? JSONValue(jsonData: event.data), let type = json["passTypeIdentifier"]?.stringValue,
                  let serial = json["serialNumber"]?.stringValue else { continue }
            let key = Key(passTypeIdentifier: type, serialNumber: serial)
            if seen.insert(key).inserted { order.append(key) }
            // A redemption changes the Google state without a new version: always sent.
            if event.type == "pass.redeemed" {
                redeemed.insert(key)
            } else if let tag = json["updateTag"]?.intValue {
                newestTag[key] = max(newestTag[key] ?? 0, Int64(tag))
            }
            if event.type == "pass.created" { created.insert(key) }
            if event.type == "pass.updated", let campaign = json["campaign"]?.stringValue,
               campaigns[key]?.contains(campaign) != true {
                campaigns[key, default: []].append(campaign)
            }
        }
    }
}

/// Google's message and object identifiers take letters, digits, `.`, `_` and `-`.
enum GoogleIdentifier {
    static func make(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) ? Character($0) : "_" })
    }
}
