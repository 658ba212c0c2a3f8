import PassWebService
import Foundation
import HTTPTypes
import Hummingbird
import PassModel

/// The issuer API's request bodies, the same for passes and orders.
enum IssuerRequestBodies {
    /// `POST /api/v1/passes`, `POST /api/v1/orders`: a template and a data document.
    struct Create: Decodable {
        var template: String
        var data: [String: JSONValue]?
    }

    /// `PATCH /api/v1/passes/...`, `PATCH /api/v1/orders/...`: a partial data document.
    struct Change: Decodable {
        var data: [String: JSONValue]
    }

    /// 201 with the new item's state and its `Location`.
    static func created(_ state: some Encodable, location: String) throws -> Response {
        var response = try JSONBody.response(state, status: .created)
        response.headers[.location] = location
        return response
    }
}
