import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport

extension OpenAPIConformanceTests {
    typealias Call = (HTTPRequest.Method, String, HTTPFields, String?) async throws -> LiveTestClient.Response

    /// The orders web service and issuer API: every documented order operation and its answers.
    func exerciseOrders(_ call: Call) async throws {
        let created = try await call(.post, "/api/v1/orders", .admin, #"{"template":"shop-order","data":{"orderIdentifier":"OR-1"}}"#)
        let token = created.body.json["authenticationToken"] as? String ?? ""
        let link = (created.body.json["downloadURL"] as? String ?? "").replacingOccurrences(of: "https://passes.example.test", with: "")
        _ = try await call(.post, "/api/v1/orders", .admin, #"{"template":"shop-order","data":{"orderIdentifier":"OR-1"}}"#)
        _ = try await call(.post, "/api/v1/orders", .admin, #"{"template":"nope"}"#)
        _ = try await call(.post, "/api/v1/orders", [:], #"{"template":"shop-order"}"#)
        _ = try await call(.post, "/api/v1/orders", .admin, #"{"data":{}}"#)
        let type = "order.com.example.shop"
        let order: HTTPFields = [.authorization: "AppleOrder \(token)", .contentType: "application/json"]
        let registration = "/v1/devices/0011aabb/registrations/\(type)/OR-1"
        _ = try await call(.post, registration, order, #"{"pushToken":"ab12"}"#)
        _ = try await call(.post, registration, order, #"{"pushToken":"ab12"}"#)
        _ = try await call(.post, registration, [.authorization: "AppleOrder wrong"], #"{"pushToken":"ab12"}"#)
        let list = try await call(.get, "/v1/devices/0011aabb/registrations/\(type)", [:], nil)
        let tag = list.body.json["lastModified"] as? String ?? ""
        _ = try await call(.get, "/v1/devices/0011aabb/registrations/\(type)?ordersModifiedSince=\(tag)", [:], nil)
        let fetched = try await call(.get, "/v1/orders/\(type)/OR-1", order, nil)
        var conditional = order
        conditional[.ifModifiedSince] = fetched.headers[.lastModified]
        _ = try await call(.get, "/v1/orders/\(type)/OR-1", conditional, nil)
        _ = try await call(.head, "/v1/orders/\(type)/OR-1", order, nil)
        _ = try await call(.get, "/v1/orders/\(type)/OR-1", [.authorization: "AppleOrder wrong"], nil)
        _ = try await call(.get, "/v1/orders/pass.dev.tessera.demo/OR-1", order, nil)
        _ = try await call(.get, link, [:], nil)
        let page = try await call(.get, "/api/v1/orders?limit=1", .admin, nil)
        let cursor = page.body.json["nextCursor"] as? String ?? ""
        _ = try await call(.get, "/api/v1/orders?orderTypeIdentifier=\(type)&cursor=\(cursor)", .admin, nil)
        var csv = HTTPFields.admin
        csv[.accept] = "text/csv"
        _ = try await call(.get, "/api/v1/orders?template=shop-order", csv, nil)
        _ = try await call(.get, "/api/v1/orders?voided=true", .admin, nil)
        _ = try await call(.get, "/api/v1/orders", [:], nil)
        var xml = HTTPFields.admin
        xml[.accept] = "application/xml"
        _ = try await call(.get, "/api/v1/orders", xml, nil)
        let path = "/api/v1/orders/\(type)/OR-1"
        _ = try await call(.get, path, .admin, nil)
        _ = try await call(.get, "/api/v1/orders/\(type)/OR-404", .admin, nil)
        _ = try await call(.get, "/api/v1/orders/pass.bad/OR-1", .admin, nil)
        let shipped = #"{"data":{"fulfillments":[{"fulfillmentIdentifier":"TS-1001-1","status":"shipped","trackingNumber":"1Z999"}]}}"#
        _ = try await call(.patch, path, .admin, shipped)
        _ = try await call(.patch, path, .admin, #"{"data":{"fulfillments":[{"fulfillmentIdentifier":"TS-1001-1","status":"open"}]}}"#)
        _ = try await call(.patch, "/api/v1/orders/\(type)/OR-404", .admin, #"{"data":{}}"#)
        _ = try await call(.get, "\(path)/order", .admin, nil)
        _ = try await call(.delete, registration, order, nil)
    }
}
