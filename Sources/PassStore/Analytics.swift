public import Foundation

/// Install analytics: hourly rollups folded from the event log (installs, removals, updates, and the changes in active
/// passes and devices), plus the fetches and pushes each server process counts and adds, read back by hour for
/// `GET /api/v1/analytics/passes`.
///
/// Folding keeps its own cursor in the store and runs in one transaction with the rollups it writes, under a lock on
/// that cursor, so any number of server processes fold each event exactly once. Active counts come from a mirror of the
/// registrations built from the same events (a pass is active while a device has it; a device is active for a
/// template while it has one of its passes): the change in each is stored with the hour it happened in, so the count
/// at any time is the sum of the changes before it.
public protocol AnalyticsStore: Sendable {
    /// Folds up to `limit` events after the analytics cursor into the rollups.
    /// - Returns: How many events were folded (0 when caught up).
    func foldAnalytics(limit: Int) async throws -> Int

    /// Adds counts of fetches and pushes to their hours' rollups.
    func addUsage(_ usage: [UsageCount]) async throws

    /// The rollup rows of the hours in `[from, to)` that match, summed by hour in hour order, and the active counts
    /// at `from` (the sum of every change before it).
    func analyticsRows(_ filter: AnalyticsFilter, from: Date, to: Date) async throws
        -> (baseline: ActiveCounts, rows: [AnalyticsRow])

    /// Active passes and devices now, per pass type and template.
    func activeCounts() async throws -> [ActiveGauge]
}

/// Which rollups a query reads: a template (with its pass type, whose pushes it counts: a push is per pass type), a
/// pass type, or both; every pass when both are `nil`.
public struct AnalyticsFilter: Sendable, Equatable {
    public var template: String?
    public var passTypeIdentifier: String?
    /// The template's pass type, for its pushes.
    public var templatePassType: String?

    /// Creates a filter.
    public init(template: String? = nil, passTypeIdentifier: String? = nil, templatePassType: String? = nil) {
        self.template = template
        self.passTypeIdentifier = passTypeIdentifier
        self.templatePassType = templatePassType
    }
}

/// Active passes and devices.
public struct ActiveCounts: Sendable, Equatable {
    public var passes: Int
    public var devices: Int

    /// Creates counts.
    public init(passes: Int = 0, devices: Int = 0) {
        self.passes = passes
        self.devices = devices
    }
}

/// One hour's rollup (summed over the rows a filter matches).
public struct AnalyticsRow: Sendable, Equatable {
    /// The hour's start.
    public var hour: Date
    public var installs: Int
    public var removals: Int
    public var updates: Int
    public var pushesSent: Int
    public var fetches: Int
    /// The change in active passes and devices during the hour.
    public var activePassesChange: Int
    public var activeDevicesChange: Int

    /// Creates a row.
    public init(hour: Date, installs: Int = 0, removals: Int = 0, updates: Int = 0, pushesSent: Int = 0,
                fetches: Int = 0, activePassesChange: Int = 0, activeDevicesChange: Int = 0) {
        self.hour = hour
        self.installs = installs
        self.removals = removals
        self.updates = updates
        self.pushesSent = pushesSent
        self.fetches = fetches
        self.activePassesChange = activePassesChange
        self.activeDevicesChange = activeDevicesChange
    }
}

extension AnalyticsRow {
    /// Adds another row's counts and changes to this one's (its hour stays).
    public mutating func add(_ other: AnalyticsRow) {
        installs += other.installs
        removals += other.removals
        updates += other.updates
        pushesSent += other.pushesSent
        fetches += other.fetches
        activePassesChange += other.activePassesChange
        activeDevicesChange += other.activeDevicesChange
    }
}

/// Fetches or pushes counted by a process for one hour, pass type and template (empty for pushes, which are per pass
/// type).
public struct UsageCount: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case fetch, push }
    public var kind: Kind
    /// The hour's start, in seconds since 1970.
    public var hour: Int64
    public var passTypeIdentifier: String
    public var template: String
    public var count: Int

    /// Creates a count.
    public init(kind: Kind, hour: Int64, passTypeIdentifier: String, template: String, count: Int) {
        self.kind = kind
        self.hour = hour
        self.passTypeIdentifier = passTypeIdentifier
        self.template = template
        self.count = count
    }

    /// The start of the hour `date` is in, in seconds since 1970.
    public static func hour(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 3600).rounded(.down)) * 3600
    }
}

/// Active counts now for one pass type and template.
public struct ActiveGauge: Sendable, Equatable {
    public var passTypeIdentifier: String
    public var template: String
    public var counts: ActiveCounts

    /// Creates a gauge value.
    public init(passTypeIdentifier: String, template: String, counts: ActiveCounts) {
        self.passTypeIdentifier = passTypeIdentifier
        self.template = template
        self.counts = counts
    }
}

/// What folding one event changes in its hour's rollup, decided from the registration mirror.
public struct AnalyticsFold: Sendable {
    /// The rollup key.
    public struct Key: Hashable, Sendable {
        public var hour: Int64
        public var passTypeIdentifier: String
        public var template: String

        /// Creates a key.
        public init(hour: Int64, passTypeIdentifier: String, template: String) {
            self.hour = hour
            self.passTypeIdentifier = passTypeIdentifier
            self.template = template
        }
    }

    /// The changes per rollup key.
    public var rows: [Key: AnalyticsRow] = [:]

    public init() {}

    /// Adds a change to a key's row.
    public mutating func add(_ key: Key, _ change: (inout AnalyticsRow) -> Void) {
        var row = rows[key] ?? AnalyticsRow(hour: Date(timeIntervalSince1970: Double(key.hour)))
        change(&row)
        rows[key] = row
    }

    /// A device added a pass (`added`) or removed it: an install or a removal, and the pass became active (inactive)
    /// when no other device has it, the device when it has no other pass of the template.
    /// - Parameters:
    ///   - otherDevices: Whether another device has the pass (after the change).
    ///   - otherPasses: Whether the device has another pass of the template (after the change).
    public mutating func addRegistration(_ key: Key, added: Bool, otherDevices: Bool, otherPasses: Bool) {
        let step = added ? 1 : -1
        add(key) { row in
            if added { row.installs += 1 } else { row.removals += 1 }
            if !otherDevices { row.activePassesChange += step }
            if !otherPasses { row.activeDevicesChange += step }
        }
    }

    /// The pass type and serial number an event's data names, and its device hash.
    /// What the fold needs of one event, as the stores read it from the event log's columns.
    public struct Subject: Sendable {
        /// The event type (`pass.updated`, ...).
        public var event: String
        /// When the event happened.
        public var createdAt: Date
        /// The pass's type.
        public var passTypeIdentifier: String
        /// The pass's serial number.
        public var serialNumber: String
        /// The device's hash, for a device's event.
        public var device: String?
        /// The pass's template, empty when the pass is gone.
        public var template: String

        /// Creates a subject.
        public init(event: String, createdAt: Date, passTypeIdentifier: String, serialNumber: String, device: String?,
                    template: String) {
            self.event = event
            self.createdAt = createdAt
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
            self.device = device
            self.template = template
        }
    }

    public static func subject(of event: WalletEvent) -> (type: String, serial: String, device: String?)? {
        guard let object = (try? JSONSerialization.jsonObject(with: event.data)) as? [String: Any],
              let type = object["passTypeIdentifier"] as? String, let serial = object["serialNumber"] as? String
        else { return nil }
        return (type, serial, object["device"] as? String)
    }
}
