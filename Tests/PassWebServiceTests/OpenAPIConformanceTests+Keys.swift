import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
