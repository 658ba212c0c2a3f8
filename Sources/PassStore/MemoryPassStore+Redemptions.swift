public import Foundation

/// One scan in ``MemoryPassStore``'s log.
struct MemoryScan {
    var passTypeIdentifier: String?
    var serialNumber: String?
    var result: RedemptionResult
    var place: String?
    var scannedAt: Date
    var redemptions: Int
    var idempotencyKey: String?
    var requestHash: String
}

extension MemoryPassStore {
    public func passes(barcodeMessage: String, limit: Int) async throws -> [PassRecord] {
        Array(passes.values.filter { PassRecord.barcodeMessage(in: $0.data) == barcodeMessage }
            .sorted { ($0.passTypeIdentifier, $0.serialNumber) < ($1.passTypeIdentifier, $1.serialNumber) }
            .prefix(max(0, limit)))
    }

    public func redeem(_ attempt: RedemptionAttempt, now: Date) async throws -> RedemptionOutcome {
        if let key = attempt.idempotencyKey, let earlier = scans.first(where: { $0.idempotencyKey == key }) {
            guard earlier.requestHash == attempt.requestHash else { throw PassStoreError.idempotencyConflict(key) }
            return replay(earlier)
        }
        guard let type = attempt.passTypeIdentifier, let serial = attempt.serialNumber,
              var record = passes[PassKey(passTypeIdentifier: type, serialNumber: serial)]
        else {
            scans.append(MemoryScan(result: .unknown, place: attempt.place, scannedAt: now, redemptions: 0,
                                    idempotencyKey: attempt.idempotencyKey, requestHash: attempt.requestHash))
            return RedemptionOutcome(result: .unknown, pass: nil, redemptions: 0, scannedAt: now, first: nil)
        }
        var count = validScans(type, serial).count
        let result = attempt.result(redemptions: count, voided: record.voided)
        var pushes = 0
        if result == .valid {
            count += 1
            log([.redeemed(record: record, redemptions: count, place: attempt.place, limit: attempt.rule.limit)],
                now: now)
        }
        scans.append(MemoryScan(passTypeIdentifier: type, serialNumber: serial, result: result, place: attempt.place,
                                scannedAt: now, redemptions: count, idempotencyKey: attempt.idempotencyKey,
                                requestHash: attempt.requestHash))
        if attempt.rule.voidsWhenUsedUp, !record.voided, let limit = attempt.rule.limit, count >= limit,
           let update = try await updatePass(passTypeIdentifier: type, serialNumber: serial,
                                             change: PassChange(voided: true), now: now)
        {
            record = update.pass
            pushes = update.pushesQueued
        }
        return RedemptionOutcome(result: result, pass: record, redemptions: count, scannedAt: now,
                                 first: summary(type, serial), pushesQueued: pushes)
    }

    public func earlierRedemption(idempotencyKey: String, requestHash: String) async throws -> RedemptionOutcome? {
        guard let earlier = scans.first(where: { $0.idempotencyKey == idempotencyKey }) else { return nil }
        guard earlier.requestHash == requestHash else { throw PassStoreError.idempotencyConflict(idempotencyKey) }
        return replay(earlier)
    }

    public func redemptionSummary(passTypeIdentifier: String, serialNumber: String) async throws -> RedemptionSummary? {
        summary(passTypeIdentifier, serialNumber)
    }

    private func validScans(_ type: String, _ serial: String) -> [MemoryScan] {
        scans.filter { $0.passTypeIdentifier == type && $0.serialNumber == serial && $0.result == .valid }
    }

    private func summary(_ type: String, _ serial: String) -> RedemptionSummary? {
        let valid = validScans(type, serial)
        guard let first = valid.first else { return nil }
        return RedemptionSummary(redemptions: valid.count, firstRedeemedAt: first.scannedAt, firstPlace: first.place)
    }

    private func replay(_ scan: MemoryScan) -> RedemptionOutcome {
        let record = scan.passTypeIdentifier.flatMap { type in
            scan.serialNumber.flatMap { passes[PassKey(passTypeIdentifier: type, serialNumber: $0)] }
        }
        let first = record.flatMap { summary($0.passTypeIdentifier, $0.serialNumber) }
        return RedemptionOutcome(result: scan.result, pass: record, redemptions: scan.redemptions,
                                 scannedAt: scan.scannedAt, first: first, replayed: true)
    }
}

extension PassRecord {
    /// The barcode message a pass's data document sets: its `barcodeMessage`, else the `message` of the first entry of
    /// its own `barcodes`; `nil` when it sets none (the template's message is then shared by its passes and names
    /// none of them). The SQL stores index the same expression.
    public static func barcodeMessage(in data: Data) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let message = object["barcodeMessage"] as? String { return message }
        return ((object["barcodes"] as? [Any])?.first as? [String: Any])?["message"] as? String
    }
}
