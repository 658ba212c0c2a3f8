import Foundation
import Hummingbird
import HummingbirdTesting
import PassWebService
import Testing

/// Create, GET, PATCH in the same second, then GET with the first `Last-Modified`: the pass changed, so 200.
@Suite("Last-Modified across changes in one second")
struct LastModifiedTests {
    @Test("a device never gets 304 for a version it has not seen")
    func sameSecondChange() async throws {
        let fixture = try WebServiceFixture()  // the clock stands still: every step below is in the same second
        try await fixture.withClient { client in
            let created = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                body: .json(#"{"template":"event-ticket","data":{"serialNumber":"LM-1"}}"#))
            #expect(created.status == .created)
            let token = try #require(created.body.json["authenticationToken"] as? String)
            let path = "/wallet/v1/passes/pass.dev.tessera.demo/LM-1"
            let first = try await client.execute(uri: path, method: .get, headers: .applePass(token))
            #expect(first.status == .ok)
            let seen = try #require(first.headers[.lastModified])

            for seat in ["2B", "3C"] {
                let patched = try await client.execute(
                    uri: "/wallet/api/v1/passes/pass.dev.tessera.demo/LM-1", method: .patch, headers: .admin,
                    body: .json(#"{"data":{"fields":{"seat":"\#(seat)"}}}"#))
                #expect(patched.status == .ok)
            }
            var conditional = HTTPFields.applePass(token)
            conditional[.ifModifiedSince] = seen
            let again = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(again.status == .ok)
            #expect(again.headers[.lastModified] != seen)

            // The version now held is fresh.
            conditional[.ifModifiedSince] = again.headers[.lastModified]
            let fresh = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(fresh.status == .notModified)
        }
    }
}
