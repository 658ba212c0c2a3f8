import Foundation
public import PassModel

extension OrderValidator {
    /// Checks that `next` may follow `previous` as a new version of the same order: the same identifiers and
    /// creation date, `updatedAt` later than before, an order status that does not leave `completed` or `cancelled`,
    /// and fulfillment statuses that only move forward (`open` → `processing` → `onTheWay`/`shipped` →
    /// `outForDelivery` → `delivered`; `open` → `processing` → `readyForPickup` → `pickedUp`), with `issue` possible
    /// at any point and nothing after a final status.
    /// - Parameters:
    ///   - previous: The version devices have.
    ///   - next: The new version.
    /// - Returns: The problems, each with the JSON path in `next`.
    public func validateTransition(from previous: Order, to next: Order) -> ValidationReport {
        var context = ValidationContext()
        for (key, old, new) in [("orderTypeIdentifier", previous.orderTypeIdentifier, next.orderTypeIdentifier),
                                ("orderIdentifier", previous.orderIdentifier, next.orderIdentifier),
                                ("createdAt", previous.createdAt, next.createdAt)] where old != new {
            context.error(key, "changed from \"\(old ?? "")\" to \"\(new ?? "")\"; a new version keeps it")
        }
        let before = previous.updatedAt.flatMap(W3CDate.date(from:))
        let after = next.updatedAt.flatMap(W3CDate.date(from:))
        if let before, let after, after <= before {
            context.error("updatedAt", "\(next.updatedAt ?? "") is not later than the previous version's \(previous.updatedAt ?? "")")
        }
        if let old = previous.status, let new = next.status, old != new, OrderStatusValues.isFinal(old) {
            context.error("status", "cannot change from \(old) to \(new): \(old) is final")
        }
        let earlier = Dictionary((previous.fulfillments ?? []).compactMap { fulfillment in
            fulfillment.fulfillmentIdentifier.map { ($0, fulfillment) }
        }, uniquingKeysWith: { first, _ in first })
        for (index, fulfillment) in (next.fulfillments ?? []).enumerated() {
            guard let identifier = fulfillment.fulfillmentIdentifier, let old = earlier[identifier] else { continue }
            let path = "fulfillments[\(index)]"
            if old.fulfillmentType != fulfillment.fulfillmentType {
                context.error("\(path).fulfillmentType", "changed from \(old.fulfillmentType) to \(fulfillment.fulfillmentType)")
                continue
            }
            guard let from = old.status, let to = fulfillment.status, from != to else { continue }
            if let problem = Self.transitionProblem(from: from, to: to, fulfillmentType: fulfillment.fulfillmentType) {
                context.error("\(path).status", problem)
            }
        }
        let kept = Set((next.fulfillments ?? []).compactMap(\.fulfillmentIdentifier))
        for identifier in earlier.keys.sorted() where !kept.contains(identifier) {
            context.warning("fulfillments", "\"\(identifier)\" was removed; Wallet keeps showing what it last had")
        }
        return ValidationReport(issues: context.issues)
    }

    /// Why a fulfillment may not move from one status to another, or `nil` when it may.
    /// - Parameters:
    ///   - from: The previous status.
    ///   - to: The new status.
    ///   - fulfillmentType: `shipping` or `pickup`.
    /// - Returns: A plain reason, or `nil`.
    public static func transitionProblem(from: String, to: String, fulfillmentType: String) -> String? {
        if OrderStatusValues.isFinal(from) { return "cannot change from \(from) to \(to): \(from) is final" }
        if to == "issue" || to == "cancelled" { return nil }
        guard let next = OrderStatusValues.rank(of: to, fulfillmentType: fulfillmentType) else { return nil }
        if from == "issue" {
            return next == 0 ? "cannot go back to \(to) after an issue" : nil
        }
        guard let previous = OrderStatusValues.rank(of: from, fulfillmentType: fulfillmentType) else { return nil }
        if next < previous { return "cannot go back from \(from) to \(to); statuses only move forward" }
        if next == previous { return "cannot change from \(from) to \(to): both mean the same step" }
        return nil
    }
}
