import Foundation
import Logging
import Metrics
import SigningIdentities
import Synchronization
import TesseraHTTP

/// The signing identities' state for `/health`, `/metrics` and the log: which certificates expired or expire soon.
final class IdentityHealth: Sendable {
    /// Days before expiry from which the log warns (at start-up and daily).
    static let warningDays = 30

    private let identities: Mutex<SigningIdentities?>
    private let lastReloadFailed = Mutex(false)
    /// The identifiers whose expiry is in `/metrics`: one taken out of the file leaves it (an alert on its expiry
    /// would keep firing for a brand that is gone).
    private let recorded = Mutex<Set<String>>([])
    private let now: @Sendable () -> Date

    init(identities: SigningIdentities?, now: @escaping @Sendable () -> Date) {
        self.identities = Mutex(identities)
        self.now = now
        recordExpiry()
    }

    /// The identities in force.
    var current: SigningIdentities? { identities.withLock { $0 } }

    /// Replaces the identities after a reload.
    func update(_ replacement: SigningIdentities) {
        identities.withLock { $0 = replacement }
        lastReloadFailed.withLock { $0 = false }
        recordExpiry()
    }

    /// Notes a reload that failed (the identities in force stay).
    func reloadFailed() {
        lastReloadFailed.withLock { $0 = true }
    }

    /// `tessera_certificate_expiry_timestamp_seconds{identifier=...}` for every identity.
    private func recordExpiry() {
        let label = "tessera_certificate_expiry_timestamp_seconds"
        var now: Set<String> = []
        for identity in current?.identities ?? [] {
            guard let expiresAt = identity.expiresAt else { continue }
            Gauge(label: label, dimensions: [("identifier", identity.identifier)]).record(expiresAt.timeIntervalSince1970)
            now.insert(identity.identifier)
        }
        let gone = recorded.withLock { recorded in
            defer { recorded = now }
            return recorded.subtracting(now)
        }
        for identifier in gone { Gauge(label: label, dimensions: [("identifier", identifier)]).destroy() }
    }

    /// Stops start-up when no identity can sign; logs each one that cannot, and each one expiring within
    /// ``warningDays``.
    /// - Throws: ``ServerConfigurationError`` (`identities`) when every identity is unusable.
    func checkStartUp(logger: Logger) throws {
        guard let identities = current else { return }
        let at = now()
        let unusable = identities.identities.compactMap { identity in identity.unusableReason(at: at).map { (identity, $0) } }
        if unusable.count == identities.identities.count {
            throw ServerConfigurationError(
                setting: "identities",
                "no identity can sign: " + unusable.map { "\($0.0.entry) (\($0.0.identifier)): \($0.1)" }.joined(separator: "; "))
        }
        warn(logger: logger)
    }

    /// Logs every identity that cannot sign new versions, and every one whose certificate expires within
    /// ``warningDays``.
    func warn(logger: Logger) {
        let at = now()
        for identity in current?.identities ?? [] {
            if let reason = identity.unusableReason(at: at) {
                logger.error("signing identity unusable: its passes are served, new versions are refused until its certificate is renewed", metadata: [
                    "identifier": "\(identity.identifier)", "entry": "\(identity.entry)", "reason": "\(reason)",
                ])
            } else if let days = identity.daysLeft(at: at), days < Self.warningDays {
                logger.warning("signing certificate expires soon: renew it and replace the file (the server reloads it)", metadata: [
                    "identifier": "\(identity.identifier)", "entry": "\(identity.entry)", "daysLeft": "\(days)",
                    "expiring": "\(identity.expiringPart ?? "certificate")",
                    "expiresAt": "\(identity.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "?")",
                ])
            }
        }
    }

    /// `/health`: `status` (`ok`, `degraded` when some identity cannot sign, `unavailable` when none can), `expired`
    /// (the identifiers that cannot sign), each identity's expiry, and whether the last reload failed.
    func report() -> HealthReport {
        let at = now()
        let identities = current?.identities ?? []
        let format = ISO8601DateFormatter()
        var expired: [String] = []
        var entries: [[String: Any]] = []
        for identity in identities {
            var entry: [String: Any] = ["identifier": identity.identifier, "usable": true]
            if let expiresAt = identity.expiresAt { entry["expiresAt"] = format.string(from: expiresAt) }
            if let reason = identity.unusableReason(at: at) {
                expired.append(identity.identifier)
                entry["usable"] = false
                entry["reason"] = reason
            }
            entries.append(entry)
        }
        let available = expired.count < identities.count
        let body: [String: Any] = [
            "status": !available ? "unavailable" : expired.isEmpty ? "ok" : "degraded",
            "expired": expired, "identities": entries, "lastReloadFailed": lastReloadFailed.withLock { $0 },
        ]
        let json = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HealthReport(isAvailable: available, json: Array(json))
    }
}
