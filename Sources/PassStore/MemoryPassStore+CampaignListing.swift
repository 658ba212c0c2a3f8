import Foundation

extension MemoryPassStore {
    /// A campaign as a listing shows it: a selection by serial numbers as their `serialNumberCount`.
    static func listed(_ record: CampaignRecord) -> CampaignRecord {
        guard var specification = (try? JSONSerialization.jsonObject(with: record.specification)) as? [String: Any],
              var select = specification["select"] as? [String: Any], let serials = select["serialNumbers"] as? [Any]
        else { return record }
        select["serialNumbers"] = nil
        select["serialNumberCount"] = serials.count
        specification["select"] = select
        var listed = record
        listed.specification = (try? JSONSerialization.data(withJSONObject: specification, options: [.sortedKeys]))
            ?? record.specification
        return listed
    }
}
