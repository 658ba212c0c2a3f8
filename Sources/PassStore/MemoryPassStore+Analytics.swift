public import Foundation

/// ``MemoryPassStore``'s analytics state.
struct MemoryAnalytics {
    var cursor: Int64 = 0
    var rows: [AnalyticsFold.Key: AnalyticsRow] = [:]
    /// (pass type, serial, device) → template.
    var mirror: [String: String] = [:]
}

extension MemoryPassStore {
    public func foldAnalytics(limit: Int) async throws -> Int {
        let cursor = analytics.cursor
        let batch = Array(eventLog.lazy.filter { $0.id > cursor }.prefix(max(0, limit)))
        var fold = AnalyticsFold()
        for event in batch {
            analytics.cursor = event.id
            guard ["pass.registered", "pass.unregistered", "pass.updated"].contains(event.type),
                  let (type, serial, device) = AnalyticsFold.subject(of: event)
            else { continue }
            let template = passes[PassKey(passTypeIdentifier: type, serialNumber: serial)]?.template ?? ""
            let key = AnalyticsFold.Key(hour: UsageCount.hour(of: event.createdAt), passTypeIdentifier: type, template: template)
            if event.type == "pass.updated" {
                fold.add(key) { $0.updates += 1 }
                continue
            }
            guard let device else { continue }
            let mirrorKey = [type, serial, device].joined(separator: "\u{0}")
            let registered = event.type == "pass.registered"
            guard (analytics.mirror[mirrorKey] == nil) == registered else { continue }
            analytics.mirror[mirrorKey] = registered ? template : nil
            let entries = analytics.mirror.map { (parts: $0.key.split(separator: "\u{0}").map(String.init), template: $0.value) }
            let otherDevices = entries.contains { $0.parts[0] == type && $0.parts[1] == serial && $0.parts[2] != device }
            let otherPasses = entries.contains {
                $0.template == template && $0.parts[2] == device && !($0.parts[0] == type && $0.parts[1] == serial)
            }
            fold.addRegistration(key, added: registered, otherDevices: otherDevices, otherPasses: otherPasses)
        }
        for (key, change) in fold.rows { add(change, to: key) }
        return batch.count
    }

    private func add(_ change: AnalyticsRow, to key: AnalyticsFold.Key) {
        var row = analytics.rows[key] ?? AnalyticsRow(hour: change.hour)
        row.add(change)
        analytics.rows[key] = row
    }

    public func addUsage(_ usage: [UsageCount]) async throws {
        for count in usage {
            var row = AnalyticsRow(hour: Date(timeIntervalSince1970: Double(count.hour)))
            if count.kind == .fetch { row.fetches = count.count } else { row.pushesSent = count.count }
            add(row, to: AnalyticsFold.Key(hour: count.hour, passTypeIdentifier: count.passTypeIdentifier,
                                           template: count.template))
        }
    }

    public func analyticsRows(_ filter: AnalyticsFilter, from: Date, to: Date) async throws
        -> (baseline: ActiveCounts, rows: [AnalyticsRow])
    {
        let start = UsageCount.hour(of: from)
        let end = Int64(to.timeIntervalSince1970.rounded(.up))
        let matching = analytics.rows.filter { key, _ in
            (filter.template.map { key.template == $0 || (key.template.isEmpty && key.passTypeIdentifier == filter.templatePassType) } ?? true)
                && (filter.passTypeIdentifier.map { key.passTypeIdentifier == $0 } ?? true)
        }
        var baseline = ActiveCounts()
        var hours: [Int64: AnalyticsRow] = [:]
        for (key, row) in matching {
            if key.hour < start {
                baseline.passes += row.activePassesChange
                baseline.devices += row.activeDevicesChange
            } else if key.hour < end {
                var sum = hours[key.hour] ?? AnalyticsRow(hour: row.hour)
                sum.add(row)
                hours[key.hour] = sum
            }
        }
        return (baseline, hours.sorted { $0.key < $1.key }.map(\.value))
    }

    public func activeCounts() async throws -> [ActiveGauge] {
        var sums: [String: ActiveGauge] = [:]
        for (key, row) in analytics.rows where !key.template.isEmpty {
            let name = key.passTypeIdentifier + "\u{0}" + key.template
            var gauge = sums[name] ?? ActiveGauge(passTypeIdentifier: key.passTypeIdentifier, template: key.template,
                                                 counts: ActiveCounts())
            gauge.counts.passes += row.activePassesChange
            gauge.counts.devices += row.activeDevicesChange
            sums[name] = gauge
        }
        return sums.values.sorted { ($0.passTypeIdentifier, $0.template) < ($1.passTypeIdentifier, $1.template) }
    }
}
