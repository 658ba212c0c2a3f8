public import Foundation
import HTTPTypes
public import PassStore

/// One bucket of `GET /api/v1/analytics/passes`.
public struct AnalyticsBucket: Sendable, Equatable {
    /// The bucket's start (UTC; weeks start on Monday).
    public var start: Date
    /// Devices that added a pass, and that removed one.
    public var installs: Int
    public var removals: Int
    /// At the bucket's end: devices with at least one of the passes, and passes on at least one device.
    public var activeDevices: Int
    public var activePasses: Int
    /// New versions, pushes APNs accepted, and fetches by devices.
    public var updates: Int
    public var pushesSent: Int
    public var fetches: Int
}

extension AnalyticsBucket {
    /// A bucket of a sum of hourly rows, with the active counts at its end.
    init(_ sum: AnalyticsRow, active: ActiveCounts) {
        self.init(start: sum.hour, installs: sum.installs, removals: sum.removals, activeDevices: active.devices,
                  activePasses: active.passes, updates: sum.updates, pushesSent: sum.pushesSent, fetches: sum.fetches)
    }
}

/// The buckets and their totals (active counts at the end of the last bucket).
public struct AnalyticsReport: Sendable {
    public var buckets: [AnalyticsBucket]
    public var totals: AnalyticsBucket
}

extension PassIssuer {
    /// The most buckets one answer has.
    public static let maximumAnalyticsBuckets = 5_000

    /// Install analytics from the rollups: `template`, `passTypeIdentifier`, `from` and `to` (RFC 3339; the last 30
    /// days by default), `interval` (`hour`, `day` by default, or `week`). Buckets start on the interval's boundary at
    /// or before `from` and cover up to `to`.
    /// - Throws: ``IssuerError`` 400 naming a malformed or unknown parameter.
    public func analytics(parameters: [(name: String, value: String)]) async throws -> AnalyticsReport {
        guard let store = store as? any AnalyticsStore else {
            throw IssuerError(status: .notImplemented, description: "this store keeps no analytics")
        }
        var filter = AnalyticsFilter()
        var from: Date?
        var to: Date?
        var interval: TimeInterval = 86_400
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard seen.insert(name).inserted else { throw IssuerError.badQuery(name, "given twice") }
            switch name {
            case "template":
                guard TemplateLibrary.isValidName(value) else { throw IssuerError.badQuery(name, "not a template name") }
                filter.template = value
            case "passTypeIdentifier":
                guard PathSegments.isValidPassTypeIdentifier(value) else {
                    throw IssuerError.badQuery(name, "not a pass type identifier")
                }
                filter.passTypeIdentifier = value
            case "from", "to":
                guard let date = RFC3339.queryDate(value) else {
                    throw IssuerError.badQuery(name, "not an RFC 3339 date-time with a time zone (2026-12-31T23:00:00Z)")
                }
                if name == "from" { from = date } else { to = date }
            case "interval":
                switch value {
                case "hour": interval = 3_600
                case "day": interval = 86_400
                case "week": interval = 604_800
                default: throw IssuerError.badQuery(name, "hour, day or week")
                }
            default:
                throw IssuerError.badQuery(LogRedactor.escapeControlCharacters(String(name.prefix(100))),
                                           "unknown parameter (known: template, passTypeIdentifier, from, to, interval)")
            }
        }
        let end = to ?? now()
        let begin = from ?? end.addingTimeInterval(-30 * 86_400)
        guard begin < end else { throw IssuerError.badQuery("from", "must be before to") }
        if let template = filter.template {
            filter.templatePassType = try? await passTypeIdentifier(ofTemplate: template)
        }
        // Weeks start on Monday: 1970-01-01 was a Thursday, so week boundaries are 4 days after multiples of 7 days.
        let offset: TimeInterval = interval == 604_800 ? 4 * 86_400 : 0
        let first = ((begin.timeIntervalSince1970 - offset) / interval).rounded(.down) * interval + offset
        let count = Int(((end.timeIntervalSince1970 - first) / interval).rounded(.up))
        guard count <= Self.maximumAnalyticsBuckets else {
            throw IssuerError.badQuery("interval", "from-to would be \(count) buckets; at most \(Self.maximumAnalyticsBuckets)")
        }
        let (baseline, rows) = try await store.analyticsRows(
            filter, from: Date(timeIntervalSince1970: first), to: end)
        var buckets: [AnalyticsBucket] = []
        var active = baseline
        var index = 0
        var total = AnalyticsRow(hour: Date(timeIntervalSince1970: first))
        for step in 0..<max(count, 0) {
            let start = first + Double(step) * interval
            var sum = AnalyticsRow(hour: Date(timeIntervalSince1970: start))
            while index < rows.count, rows[index].hour.timeIntervalSince1970 < start + interval {
                sum.add(rows[index])
                index += 1
            }
            active.passes += sum.activePassesChange
            active.devices += sum.activeDevicesChange
            total.add(sum)
            buckets.append(AnalyticsBucket(sum, active: active))
        }
        let totals = AnalyticsBucket(total, active: active)
        return AnalyticsReport(buckets: buckets, totals: totals)
    }
}
