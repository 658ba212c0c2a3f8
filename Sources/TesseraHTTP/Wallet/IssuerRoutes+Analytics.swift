import Foundation
import Hummingbird
import PassWebService

extension IssuerRoutes {
    struct AnalyticsView: Encodable {
        struct Bucket: Encodable {
            var start: String
            var installs: Int
            var removals: Int
            var activeDevices: Int
            var activePasses: Int
            var updates: Int
            var pushesSent: Int
            var fetches: Int

            init(_ bucket: AnalyticsBucket) {
                start = RFC3339.string(bucket.start)
                installs = bucket.installs
                removals = bucket.removals
                activeDevices = bucket.activeDevices
                activePasses = bucket.activePasses
                updates = bucket.updates
                pushesSent = bucket.pushesSent
                fetches = bucket.fetches
            }
        }

        var buckets: [Bucket]
        var totals: Bucket

        /// The same buckets with every count 0.
        func zeroed() -> AnalyticsView {
            func zero(_ bucket: Bucket) -> Bucket {
                var bucket = bucket
                bucket.installs = 0; bucket.removals = 0; bucket.activeDevices = 0; bucket.activePasses = 0
                bucket.updates = 0; bucket.pushesSent = 0; bucket.fetches = 0
                return bucket
            }
            return AnalyticsView(buckets: buckets.map(zero), totals: zero(totals))
        }
    }

    /// `GET /api/v1/analytics/passes?template=&passTypeIdentifier=&from=&to=&interval=hour|day|week`.
    @Sendable func analytics(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        var parameters = ItemListResponse.parameters(request)
        let principal = context.principal
        var visible = true
        if !principal.isAdmin {
            // A key sees its own identifiers' figures; another brand's are those of an identifier with no passes.
            let named = parameters.first { $0.name == "passTypeIdentifier" }?.value
            let template = parameters.first { $0.name == "template" }?.value
            guard named != nil || template != nil else {
                throw IssuerError.badQuery("passTypeIdentifier", "required (or template) with an API key")
            }
            visible = named.map(principal.covers) ?? true
            if let template {
                let type = try? await issuer.signedPassTypeIdentifier(ofTemplate: template)
                visible = visible && type.map(principal.covers) == true
                // A template's name may have been another brand's before (a removed folder, or one moved to another
                // identity): its figures are those of the key's own pass type only.
                if named == nil, let type { parameters.append((name: "passTypeIdentifier", value: type)) }
            }
        }
        let report = try await issuer.analytics(parameters: parameters)
        var view = AnalyticsView(buckets: report.buckets.map(AnalyticsView.Bucket.init),
                                 totals: AnalyticsView.Bucket(report.totals))
        if !visible { view = view.zeroed() }
        return try JSONBody.response(view)
    }
}
