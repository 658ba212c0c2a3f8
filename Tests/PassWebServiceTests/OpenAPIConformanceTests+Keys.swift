import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

extension OpenAPIConformanceTests {
    /// The API key operations: made, refused (shape, values, not the admin), listed, used, revoked twice.
    func exerciseKeys(_ call: Call) async throws {
        let made = try await call(.post, "/api/v1/keys", .admin,
                                  #"{"name":"brand","scope":{"identifiers":["pass.dev.*"],"permissions":["read"]}}"#)
        let id = made.body.json["id"] as? String ?? ""
        let secret = made.body.json["secret"] as? String ?? ""
        try await call(.post, "/api/v1/keys", .admin, #"{"name":"x","scope":{"identifiers":["bad"],"permissions":["read"]}}"#)
        try await call(.post, "/api/v1/keys", .admin, #"{"scope":{}}"#)
        // A name with a control character (C1 included: U+009B) is refused: the console shows names.
        for name in [#"ok\u0014"#, #"\u00d7\u00f8\u009b"#, #"tab\tbed"#] {
            let refused = try await call(
                .post, "/api/v1/keys", .admin, #"{"name":"\#(name)","scope":{"identifiers":["pass.dev.*"],"permissions":["read"]}}"#)
            #expect(refused.status == .unprocessableContent, "\(name)")
            #expect((refused.body.json["error"] as? [String: Any])?["field"] as? String == "name", "\(name)")
        }
        try await call(.get, "/api/v1/keys", .admin, nil)
        let key: HTTPFields = [.authorization: "Bearer \(secret)", .contentType: "application/json"]
        try await call(.get, "/api/v1/keys", key, nil)
        try await call(.post, "/api/v1/keys", key, #"{"name":"y","scope":{"identifiers":["pass.dev.*"],"permissions":["read"]}}"#)
        try await call(.get, "/api/v1/keys", [:], nil)
        try await call(.delete, "/api/v1/keys/\(id)", .admin, nil)
        try await call(.delete, "/api/v1/keys/\(id)", key, nil)
        try await call(.delete, "/api/v1/keys/\(id)", .admin, nil)
    }
}
