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
    }

    /// `GET /api/v1/analytics/passes?template=&passTypeIdentifier=&from=&to=&interval=hour|day|week`.
    @Sendable func analytics(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let report = try await issuer.analytics(parameters: ItemListResponse.parameters(request))
        return try JSONBody.response(AnalyticsView(buckets: report.buckets.map(AnalyticsView.Bucket.init),
                                                   totals: AnalyticsView.Bucket(report.totals)))
    }
}
