import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PassBundle
import PassWebService
import Synchronization
import Testing
import TesseraServer
import TesseraTestSupport
import PassCrypto
import PassModel
import Prometheus

@Suite("The server against docs/openapi.json")
struct OpenAPIConformanceTests {
    /// Drives every documented operation on the composed server (SQLite store) and checks each answer.
    @Test("every documented operation answers as documented")
    func conformance() async throws {
        let folder = try TemporaryDirectory.make(prefix: "openapi")
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let configuration = try openAPIServerConfiguration(folder: folder, google: google)
        let googleFixtures = try await GoogleExerciseFixtures.make()
        let document = Mutex(try OpenAPIDocument(
            contentsOf: Subprocess.repositoryRoot.appendingPathComponent("docs/openapi.json")))
        let problems = Mutex([String]())

        // The server and the calls on a loop and thread of their own, as the web service fixture's: on Swift's two
        // shared threads they wait behind the suite's synchronous tests, and the client could time out.
        try await EventLoopExecutor.run { _ in
            let app = try await TesseraServer.makeApplication(
                configuration: configuration, metrics: .init(), logger: Logger(label: "openapi-test"))
            try await app.testLive { client in
                @discardableResult
                func call(_ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields = [:], _ body: String? = nil)
                    async throws -> LiveTestClient.Response
                {
                    let response = try await client.execute(
                        uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
                    let found = document.withLock {
                        $0.check(
                            method: method.rawValue, path: uri, status: Int(response.status.code),
                            contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                    }
                    problems.withLock { $0 += found }
                    return response
                }
                let created = try await call(.post, "/api/v1/passes", .admin, #"{"template":"store-card-rewards","data":{"serialNumber":"O-1"}}"#)
                let token = created.body.json["authenticationToken"] as? String ?? ""
                let link = (created.body.json["downloadURL"] as? String ?? "").replacingOccurrences(of: "https://passes.example.test", with: "")
                try await call(.post, "/api/v1/passes", .admin, #"{"template":"nope"}"#)
                try await call(.post, "/api/v1/passes", [:], #"{"template":"coupon"}"#)
                try await call(.post, "/api/v1/passes", .admin, #"{"template":"coupon","data":{"serialNumber":"O-1"}}"#)
                try await call(.post, "/api/v1/passes", .admin, #"{"data":{}}"#)
                let type = "pass.dev.tessera.demo"
                let registration = "/v1/devices/0011aabb/registrations/\(type)/O-1"
                try await call(.post, registration, .json(.applePass(token)), #"{"pushToken":"ab12"}"#)
                try await call(.post, registration, .json(.applePass(token)), #"{"pushToken":"ab12"}"#)
                try await call(.post, registration, .json(.applePass("wrong")), #"{"pushToken":"ab12"}"#)
                try await call(.post, registration, .json(.applePass(token)), #"{}"#)
                try await call(.get, "/v1/devices/0011aabb/registrations/\(type)")
                try await call(.get, "/v1/devices/0011aabb/registrations/\(type)?passesUpdatedSince=999999")
                try await call(.get, "/v1/devices/0011aabb/registrations/bad")
                let pass = try await call(.get, "/v1/passes/\(type)/O-1", .applePass(token))
                var conditional = HTTPFields.applePass(token)
                conditional[.ifModifiedSince] = pass.headers[.lastModified]
                try await call(.get, "/v1/passes/\(type)/O-1", conditional)
                try await call(.head, "/v1/passes/\(type)/O-1", .applePass(token))
                try await call(.get, "/v1/passes/\(type)/O-1", .applePass("wrong"))
                try await call(.post, "/v1/passes/\(type)/O-1/personalize", .json(),
                               #"{"personalizationToken":"tok","requiredPersonalizationInfo":{"fullName":"Grace Hopper"}}"#)
                try await call(.post, "/v1/log", .json(), #"{"logs":["hello"]}"#)
                try await call(.post, "/v1/log", .json(), #"{"log":"x"}"#)
                try await call(.get, link)
                try await call(.get, "/download/\(String(repeating: "Z", count: 40)).pkpass")
                try await call(.head, link)
                try await call(.head, "/download/\(String(repeating: "Z", count: 40)).pkpass")
                let path = "/api/v1/passes/\(type)/O-1"
                try await call(.get, path, .admin)
                try await call(.get, "/api/v1/passes/\(type)/O-404", .admin)
                try await call(.patch, path, .admin, #"{"data":{"fields":{"balance":12.5}}}"#)
                try await call(.patch, path, .admin, #"{"data":{"fields":{"nope":1}}}"#)
                try await call(.get, "\(path)/registrations", .admin)
                try await call(.get, "\(path)/pkpass", .admin)
                let bundle = #"{"passes":[{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumber":"O-1"}]}"#
                try await call(.post, "/api/v1/pkpasses", .admin, bundle)
                try await call(.post, "/api/v1/pkpasses", .admin, #"{"passes":[]}"#)
                try await call(.post, "/api/v1/pkpasses", .admin, bundle.replacingOccurrences(of: "O-1", with: "O-404"))
                try await call(.post, "/api/v1/pkpasses", .admin, #"{"passes":{}}"#)
                try await call(.post, "/api/v1/pkpasses", [:], bundle)
                try await exerciseCampaigns(call)
                try await exerciseEvents(call)
                try await exerciseKeys(call)
                try await exerciseRedemptions(call)
                try await exerciseSearch(call)
                try await exerciseGoogle(call, downloadLink: link, fixtures: googleFixtures)
                try await exerciseConsole(call, passPath: path)
                try await call(.get, "/api/v1/templates", .admin)
                try await call(.get, "/api/v1/templates", [:])
                try await call(.delete, path, .admin)
                try await call(.delete, registration, .applePass(token))
                try await exerciseOrders(call)
                try await call(.get, "/metrics")
                try await call(.get, "/health")
                try await call(.head, "/metrics")
                try await call(.head, "/health")
            }
        }
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        // The checkout operations are exercised by CheckoutTests' own conformance test.
        let missing = document.withLock { $0.operations.subtracting($0.exercised).filter { !$0.contains(" /checkout/") } }
        #expect(missing.isEmpty, "documented but not exercised: \(missing.sorted())")
    }

    /// The campaign API: accepted, repeated with its key, refused, listed, read, cancelled.
    private func exerciseCampaigns(_ call: Call) async throws {
        var keyed = HTTPFields.admin
        keyed[HTTPField.Name("Idempotency-Key")!] = "openapi-1"
        let body = #"{"select":{"template":"store-card-rewards"},"data":{"fields":{"balance":20}},"message":"Topped up"}"#
        let created = try await call(.post, "/api/v1/campaigns", keyed, body)
        try await call(.post, "/api/v1/campaigns", keyed, body)
        try await call(.post, "/api/v1/campaigns", keyed, #"{"select":{"template":"store-card-rewards"},"void":true}"#)
        try await call(.post, "/api/v1/campaigns", .admin, #"{"select":{"template":"nope"},"void":true}"#)
        try await call(.post, "/api/v1/campaigns", .admin, "[1]")
        try await call(.post, "/api/v1/campaigns", [:], body)
        let later = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
        let scheduled = try await call(
            .post, "/api/v1/campaigns", .admin, #"{"select":{"template":"coupon"},"void":true,"scheduledAt":"\#(later)"}"#)
        try await call(.get, "/api/v1/campaigns", .admin, nil)
        try await call(.get, "/api/v1/campaigns?state=done&limit=1", .admin, nil)
        // A list's malformed query is a 400 naming the parameter, as every list's.
        for query in ["state=bogus", "cursor=", "cursor=0", "limit=201"] {
            #expect(try await call(.get, "/api/v1/campaigns?\(query)", .admin, nil).status == .badRequest, "\(query)")
        }
        try await call(.get, "/api/v1/campaigns/\(created.body.json["id"] as? String ?? "")", .admin, nil)
        try await call(.get, "/api/v1/campaigns/nope", .admin, nil)
        let pending = scheduled.body.json["id"] as? String ?? ""
        try await call(.delete, "/api/v1/campaigns/\(pending)", .admin, nil)
        try await call(.delete, "/api/v1/campaigns/\(pending)", .admin, nil)
        try await call(.delete, "/api/v1/campaigns/nope", .admin, nil)
    }

    /// The event log: pages, a type filter, the refusals.
    /// Redemption: valid, already redeemed, repeated with its key, unknown, refused.
    private func exerciseRedemptions(_ call: Call) async throws {
        let byIdentifiers = #"{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumber":"O-1","place":"Gate 1"}"#
        var keyed = HTTPFields.admin
        keyed[HTTPField.Name("Idempotency-Key")!] = "scan-0001"
        try await call(.post, "/api/v1/redemptions", keyed, byIdentifiers)
        try await call(.post, "/api/v1/redemptions", keyed, byIdentifiers)
        try await call(.post, "/api/v1/redemptions", keyed, #"{"barcodeMessage":"other"}"#)
        try await call(.post, "/api/v1/redemptions", .admin, byIdentifiers)
        try await call(.post, "/api/v1/redemptions", .admin, #"{"barcodeMessage":"NO-SUCH-TICKET"}"#)
        try await call(.post, "/api/v1/redemptions", .admin, #"{"barcodeMessage":"x","gate":"1"}"#)
        try await call(.post, "/api/v1/redemptions", .admin, "[1]")
        try await call(.post, "/api/v1/redemptions", [:], byIdentifiers)
    }

    /// Search and export: a page, the next one, CSV and NDJSON, refusals.
    private func exerciseSearch(_ call: Call) async throws {
        let page = try await call(.get, "/api/v1/passes?limit=1&template=store-card-rewards", .admin, nil)
        let cursor = page.body.json["nextCursor"] as? String ?? ""
        try await call(.get, "/api/v1/passes?redeemed=true&voided=false&field.balance=12.5&cursor=\(cursor)", .admin, nil)
        for accept in ["text/csv", "application/x-ndjson", "application/xml"] {
            var headers = HTTPFields.admin
            headers[.accept] = accept
            try await call(.get, "/api/v1/passes?template=store-card-rewards", headers, nil)
        }
        try await call(.get, "/api/v1/passes?limit=1001", .admin, nil)
        try await call(.get, "/api/v1/passes", [:], nil)
        try await call(.get, "/api/v1/analytics/passes?template=store-card-rewards&interval=hour", .admin, nil)
        try await call(.get, "/api/v1/analytics/passes?interval=week&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", .admin, nil)
        try await call(.get, "/api/v1/analytics/passes?interval=month", .admin, nil)
        try await call(.get, "/api/v1/analytics/passes", [:], nil)
    }

    private func exerciseEvents(_ call: Call) async throws {
        let first = try await call(.get, "/api/v1/events?limit=2", .admin, nil)
        let cursor = first.body.json["nextCursor"] as? String ?? ""
        try await call(.get, "/api/v1/events?after=\(cursor)&type=pass.registered&type=campaign.finished", .admin, nil)
        try await call(.get, "/api/v1/events?after=x", .admin, nil)
        try await call(.get, "/api/v1/events?limit=1001", .admin, nil)
        try await call(.get, "/api/v1/events", [:], nil)
    }

    /// Every documented JSON failure answer references the one Error schema, except the authorization result Apple Pay
    /// fixes; no second error schema exists.
    @Test("every JSON error answer in the document is the shared Error envelope")
    func oneErrorSchema() throws {
        let data = try Data(contentsOf: Subprocess.repositoryRoot.appendingPathComponent("docs/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        #expect(schemas.keys.filter { $0.hasSuffix("Error") && $0 != "Error" && $0 != "ApplePayError" }.isEmpty,
                "\(schemas.keys.sorted())")
        let envelope = try #require(schemas["Error"] as? [String: Any])
        let detail = (envelope["properties"] as? [String: Any])?["error"] as? [String: Any]
        #expect(Set(detail?["required"] as? [String] ?? []) == ["code", "message"])
        var checked = 0
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item {
                let responses = (operation as? [String: Any])?["responses"] as? [String: [String: Any]] ?? [:]
                for (status, response) in responses where (Int(status) ?? 0) >= 400 {
                    let media = (response["content"] as? [String: Any])?["application/json"] as? [String: Any]
                    guard let reference = (media?["schema"] as? [String: Any])?["$ref"] as? String else { continue }
                    checked += 1
                    let allowed = reference == "#/components/schemas/Error"
                        || (path.hasSuffix("authorize") && reference == "#/components/schemas/AuthorizationResult")
                    #expect(allowed, "\(method.uppercased()) \(path) \(status): \(reference)")
                }
            }
        }
        #expect(checked > 50)
    }
}
