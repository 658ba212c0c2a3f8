import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PassModel
import PassStore
import PassWebService

extension IssuerRoutes {
    /// `POST /api/v1/redemptions`'s answer. Every member is always present (`null` when it does not apply).
    struct RedemptionView: Encodable {
        struct First: Encodable {
            var redeemedAt: String
            var place: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(redeemedAt, forKey: .redeemedAt)
                try container.encode(place, forKey: .place)
            }

            enum CodingKeys: String, CodingKey { case redeemedAt, place }
        }

        var result: String
        var pass: PassState?
        /// The pass as a caller that may redeem but not read sees it, written as `pass` in place of the full state.
        var gatePass: GatePass?
        /// This scan's time when it was valid; the first redemption's when the pass was already used up.
        var redeemedAt: String?
        var place: String?
        var redemptions: Int
        var limit: Int?
        var firstRedemption: First?
        var scannedAt: String
        var replayed: Bool

        enum CodingKeys: String, CodingKey {
            case result, pass, redeemedAt, place, redemptions, limit, firstRedemption, scannedAt, replayed
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(result, forKey: .result)
            if let gatePass { try container.encode(gatePass, forKey: .pass) } else { try container.encode(pass, forKey: .pass) }
            try container.encode(redeemedAt, forKey: .redeemedAt)
            try container.encode(place, forKey: .place)
            try container.encode(redemptions, forKey: .redemptions)
            try container.encode(limit, forKey: .limit)
            try container.encode(firstRedemption, forKey: .firstRedemption)
            try container.encode(scannedAt, forKey: .scannedAt)
            try container.encode(replayed, forKey: .replayed)
        }
    }

    /// What a gate's scanner (a key that may redeem but not read) is shown of the pass: what the holder's own pass
    /// shows and its redemptions, never its authentication token (which acts as the holder's device), download links
    /// or data document.
    struct GatePass: Encodable {
        var passTypeIdentifier: String
        var serialNumber: String
        var template: String
        var voided: Bool
        var redemptions: Int
        var redeemedAt: String?
        var fields: [String: JSONValue]?

        init(_ state: PassState) {
            passTypeIdentifier = state.passTypeIdentifier
            serialNumber = state.serialNumber
            template = state.template
            voided = state.voided
            redemptions = state.redemptions
            redeemedAt = state.redeemedAt
            fields = state.fields
        }
    }

    /// `POST /api/v1/redemptions`: a scan at a gate. 200 with the result whatever it is (`unknown` included); 409 for
    /// an `Idempotency-Key` used with another body or a barcode message several passes carry.
    @Sendable func redeem(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let body = try await JSONBody.value(from: request, limit: maximumBodySize)
        guard case .object(let members) = body else {
            throw WebServiceError.invalid("body", "body: must be a JSON object, found \(body.kindName)")
        }
        var visible: IssuerScope?
        if case .key(_, _, let scope) = context.principal { visible = scope }
        let answer = try await issuer.redeem(
            body: members, idempotencyKey: request.headers[CampaignRoutes.idempotencyKeyHeader], visible: visible,
            caller: context.principal.keyID)
        let outcome = answer.outcome
        var view = RedemptionView(
            result: outcome.result.rawValue, pass: nil, redeemedAt: nil, place: nil, redemptions: outcome.redemptions,
            limit: answer.rule?.limit, firstRedemption: outcome.first.map {
                RedemptionView.First(redeemedAt: RFC3339.format($0.firstRedeemedAt), place: $0.firstPlace)
            }, scannedAt: RFC3339.format(outcome.scannedAt), replayed: outcome.replayed)
        if let pass = outcome.pass {
            // The scan is recorded: the gate gets its result even when the pass's whole state cannot be read just now
            // (a pool timeout at a rush). A 5xx here would send the holder to a rescan that answers alreadyRedeemed.
            do {
                let reads = context.principal.allows(.read)
                let state = try await state(pass, pushesQueued: outcome.pushesQueued > 0 ? outcome.pushesQueued : nil,
                                            withFields: !reads)
                if reads { view.pass = state } else { view.gatePass = GatePass(state) }
            } catch {
                context.logger.warning("redemption recorded; the pass's state could not be read for the answer", metadata: [
                    "serialNumber": "\(pass.serialNumber)", "result": "\(outcome.result.rawValue)", "error": "\(error)",
                ])
            }
        }
        switch outcome.result {
        case .valid:
            view.redeemedAt = view.scannedAt
            view.place = members["place"]?.stringValue
        case .alreadyRedeemed:
            view.redeemedAt = view.firstRedemption?.redeemedAt
            view.place = view.firstRedemption?.place
        default:
            break
        }
        return try JSONBody.response(view)
    }
}
