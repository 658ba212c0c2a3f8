import Foundation

extension PassValidator {
    func checkRelevance(_ pass: Pass, context: inout ValidationContext) {
        if let value = pass.relevantDate { checkDate(value, path: "relevantDate", context: &context) }
        if let value = pass.expirationDate { checkDate(value, path: "expirationDate", context: &context) }
        for (index, entry) in (pass.relevantDates ?? []).enumerated() {
            checkRelevantDate(entry, path: "relevantDates[\(index)]", context: &context)
        }
        if let distance = pass.maxDistance, !(distance > 0) {
            context.error("maxDistance", "must be a positive number of metres, found \(distance)")
        }

        let locations = pass.locations ?? []
        if locations.count > 10 {
            context.error("locations", "at most 10 locations are allowed, found \(locations.count)")
        }
        for (index, location) in locations.enumerated() {
            checkCoordinate(location.latitude, limit: 90, path: "locations[\(index)].latitude", context: &context)
            checkCoordinate(location.longitude, limit: 180, path: "locations[\(index)].longitude", context: &context)
            Self.warnUnknownKeys(location.unknownKeys, at: "locations[\(index)]", context: &context)
        }

        let beacons = pass.beacons ?? []
        if beacons.count > 10 {
            context.error("beacons", "at most 10 beacons are allowed, found \(beacons.count)")
        }
        for (index, beacon) in beacons.enumerated() {
            let path = "beacons[\(index)]"
            if let uuid = beacon.proximityUUID {
                if UUID(uuidString: uuid) == nil {
                    context.error("\(path).proximityUUID", "must be a UUID such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
                }
            } else {
                context.error("\(path).proximityUUID", "required key is missing")
            }
            for case let (key, value?) in [("major", beacon.major), ("minor", beacon.minor)] where !(0...65535).contains(value) {
                context.error("\(path).\(key)", "must be from 0 to 65535, found \(value)")
            }
            Self.warnUnknownKeys(beacon.unknownKeys, at: path, context: &context)
        }
    }

    @discardableResult
    func checkDate(_ value: String, path: @autoclosure () -> String, context: inout ValidationContext) -> Date? {
        do {
            return try W3CDate.parse(value)
        } catch {
            context.error(path(), "\(error.reason), found \"\(value)\"")
            return nil
        }
    }

    private func checkRelevantDate(
        _ entry: PassRelevantDate,
        path: @autoclosure () -> String,
        context: inout ValidationContext
    ) {
        if let date = entry.date { checkDate(date, path: "\(path()).date", context: &context) }
        var start: Date?
        if let startDate = entry.startDate { start = checkDate(startDate, path: "\(path()).startDate", context: &context) }
        var end: Date?
        if let endDate = entry.endDate { end = checkDate(endDate, path: "\(path()).endDate", context: &context) }
        switch (entry.startDate, entry.endDate) {
        case (nil, nil):
            if entry.date == nil { context.error(path(), "needs date, or startDate and endDate") }
        case (_?, nil):
            context.error("\(path()).endDate", "required when startDate is set")
        case (nil, _?):
            context.error("\(path()).startDate", "required when endDate is set")
        case (_?, _?):
            if let start, let end, end <= start {
                context.error("\(path()).endDate", "must be after startDate")
            }
        }
        Self.warnUnknownKeys(entry.unknownKeys, at: path(), context: &context)
    }

    private func checkCoordinate(
        _ value: Double?,
        limit: Double,
        path: @autoclosure () -> String,
        context: inout ValidationContext
    ) {
        guard let value else {
            context.error(path(), "required key is missing")
            return
        }
        if !(-limit...limit).contains(value) {
            context.error(path(), "must be from -\(Int(limit)) to \(Int(limit)) degrees, found \(value)")
        }
    }
}
