public import Foundation

extension MemoryPassStore: PassListingStore {
    public func listPasses(_ query: PassListQuery) async throws -> [PassListing] {
        let after = query.after.map { ($0.typeIdentifier, $0.identifier) }
        var listed: [PassListing] = []
        for record in passes.values.sorted(by: { ($0.passTypeIdentifier, $0.serialNumber) < ($1.passTypeIdentifier, $1.serialNumber) }) {
            if let after, (record.passTypeIdentifier, record.serialNumber) <= after { continue }
            if let template = query.template, record.template != template { continue }
            if let type = query.typeIdentifier, record.passTypeIdentifier != type { continue }
            if let voided = query.voided, record.voided != voided { continue }
            if let since = query.updatedSince, record.lastModified < since { continue }
            let summary = try await redemptionSummary(passTypeIdentifier: record.passTypeIdentifier,
                                                      serialNumber: record.serialNumber)
            if let redeemed = query.redeemed, (summary != nil) != redeemed { continue }
            listed.append(PassListing(
                record: record,
                registrations: try await registrationCount(passTypeIdentifier: record.passTypeIdentifier,
                                                           serialNumber: record.serialNumber),
                redemptions: summary?.redemptions ?? 0, firstRedeemedAt: summary?.firstRedeemedAt))
            if listed.count >= query.limit { break }
        }
        return listed
    }
}
