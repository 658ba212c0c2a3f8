import Foundation
import Testing
import TesseraTestSupport

/// One error body on every JSON route of `tessera serve`: a failing request on each API group (Apple's web service
/// protocol, the issuer API, download links, checkout, the router itself) answers
/// `{"error": {"code", "message", "field"?}}` with its status, and the answers Apple's protocols fix keep their shape.
@Suite("tessera serve error envelope", .serialized)
struct ServeErrorEnvelopeTests {
    /// A merchant without Apple Pay credentials: the catalogue sells, authorization answers "not configured".
    private static let merchant = """
        {"merchantIdentifier": "merchant.dev.tessera.demo", "displayName": "Tessera Arena", "countryCode": "US",
         "currencyCode": "USD", "supportedNetworks": ["visa"], "merchantCapabilities": ["supports3DS"],
         "products": {"TSHIRT": {"name": "Tour T-shirt", "unitPrice": "25.00"}}}
        """

    private struct Answer {
        var status: Int
        var head: String
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    }

    private func send(
        _ server: ServeProcess, _ method: String, _ path: String, headers: [String] = [], body: String? = nil
    ) async throws -> Answer {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        for header in headers { text += "\(header)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let answer = try #require(try await server.request(text, timeout: 30), "\(method) \(path): no answer")
        return Answer(status: answer.status, head: answer.head, body: answer.body)
    }

    /// Checks the envelope: exactly `code`, `message` and maybe `field` under `error`, nothing else at the top.
    private func expectEnvelope(
        _ answer: Answer, _ status: Int, code: String, field: String?, message: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == status, "\(answer.head)\n\(text)", sourceLocation: sourceLocation)
        #expect(answer.head.lowercased().contains("content-type: application/json"), "\(answer.head)",
                sourceLocation: sourceLocation)
        #expect(Set(answer.json.keys) == ["error"], "\(text)", sourceLocation: sourceLocation)
        let error = answer.error
        #expect(Set(error.keys).isSubset(of: ["code", "message", "field"]), "\(text)", sourceLocation: sourceLocation)
        #expect(error["code"] as? String == code, "\(text)", sourceLocation: sourceLocation)
        #expect(error["field"] as? String == field, "\(text)", sourceLocation: sourceLocation)
        let said = error["message"] as? String ?? ""
        #expect(!said.isEmpty, "\(text)", sourceLocation: sourceLocation)
        if let message { #expect(said == message, "\(text)", sourceLocation: sourceLocation) }
    }

    @Test("every API group answers a failure with {error: {code, message, field?}}; Apple's fixed answers keep theirs")
    func envelopeOnEveryGroup() async throws {
        let folder = try TemporaryDirectory.make(prefix: "envelope")
        let merchant = folder.appendingPathComponent("merchant.json")
        try Data(Self.merchant.utf8).write(to: merchant)
        let server = try await ServeProcess(arguments: ["--merchant-config", merchant.path])
        let admin = "Authorization: Bearer \(ServeProcess.adminToken)"
        let type = "pass.dev.tessera.demo"

        // Issuer API (/api/v1)
        let created = try await send(server, "POST", "/api/v1/passes", headers: [admin],
                               body: #"{"template":"event-ticket","data":{"serialNumber":"E-1"}}"#)
        #expect(created.status == 201)
        let token = try #require(created.json["authenticationToken"] as? String)
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", body: #"{"template":"coupon"}"#),
                       401, code: "unauthorized", field: nil, message: "a valid bearer token is required")
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                body: #"{"template":"event-ticket","data":{"serialNumber":"E-1"}}"#),
                       409, code: "conflict", field: "data.serialNumber")
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin], body: #"{"template":"nope"}"#),
                       422, code: "invalidRequest", field: "template", message: #"template: no template named "nope""#)
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin], body: #"{"data":{}}"#),
                       400, code: "invalidRequest", field: "template", message: "template: missing")
        expectEnvelope(try await send(server, "GET", "/api/v1/passes/\(type)/E-404", headers: [admin]),
                       404, code: "notFound", field: nil, message: "no such pass")
        expectEnvelope(try await send(server, "POST", "/api/v1/pkpasses", headers: [admin], body: #"{"passes":[]}"#),
                       422, code: "passesBundleLimit", field: "passes")
        // Control characters in text are refused where they are (tab and line breaks stay; a barcode message keeps
        // GS1's group separator); a refused pass names its first error's path as the field.
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                      body: #"{"template":"coupon","data":{"fields":{"offer":"a\u0000b\u0007"}}}"#),
                       422, code: "invalidRequest", field: "data.fields.offer",
                       message: "data.fields.offer: text without control characters (tab and line breaks are allowed)")
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                      body: #"{"template":"coupon","data":{"logoText":["x","\u001b[2J"]}}"#),
                       422, code: "invalidRequest", field: "data.logoText[1]")
        // Only the pass's own barcode members keep control characters, not a field that happens to be named so.
        expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                      body: #"{"template":"coupon","data":{"fields":{"barcode":"x\u0000"}}}"#),
                       422, code: "invalidRequest", field: "data.fields.barcode")
        let lines = try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                   body: #"{"template":"coupon","data":{"barcodeMessage":"(01)0950\u001d(10)AB","fields":{"terms":"one\ntwo\tthree"}}}"#)
        #expect(lines.status == 201, "\(String(decoding: lines.body, as: UTF8.self))")
        let unknown = try await send(server, "POST", "/api/v1/passes", headers: [admin],
                                     body: #"{"template":"coupon","data":{"fields":{"nope":"x"}}}"#)
        expectEnvelope(unknown, 422, code: "invalidRequest", field: "data.fields.nope")
        // A number no Double holds is said to be out of range, where it is (not "must be a boolean").
        for (body, field) in [(#"{"template":"event-ticket","data":{"maxDistance":1e400}}"#, "data.maxDistance"),
                              (#"{"template":"event-ticket","data":{"fields":{"seat":-1e400}}}"#, "data.fields.seat")] {
            expectEnvelope(try await send(server, "POST", "/api/v1/passes", headers: [admin], body: body),
                           400, code: "invalidRequest", field: field,
                           message: "\(field): a number out of range (at most about 1.8e308 either way)")
        }

        // Apple's web service protocol (/v1)
        let registration = "/v1/devices/0011aabb/registrations/\(type)/E-1"
        expectEnvelope(try await send(server, "POST", registration, headers: ["Authorization: ApplePass \(token)"], body: "{}"),
                       400, code: "invalidRequest", field: "pushToken", message: "pushToken: missing")
        expectEnvelope(try await send(server, "GET", "/v1/devices/0011aabb/registrations/bad"),
                       400, code: "invalidRequest", field: "passTypeIdentifier")
        expectEnvelope(try await send(server, "POST", "/v1/log", body: #"{"log":"x"}"#),
                       400, code: "invalidRequest", field: "logs", message: "logs: missing")
        expectEnvelope(try await send(server, "POST", "/v1/passes/\(type)/E-1/personalize", body: #"{"personalizationToken":""}"#),
                       400, code: "invalidRequest", field: "personalizationToken")
        // Apple's protocol fixes these: a bare 401, and 204 for no changes.
        let unauthorized = try await send(server, "GET", "/v1/passes/\(type)/E-1", headers: ["Authorization: ApplePass wrong"])
        #expect(unauthorized.status == 401)
        #expect(unauthorized.body.isEmpty, "\(String(decoding: unauthorized.body, as: UTF8.self))")
        // A registration is checked in the store's write: a wrong token gets the bare 401 whatever the body, and
        // leaves nothing behind.
        let refusedPath = "/v1/devices/0099ffee/registrations/\(type)/E-1"
        for body in ["{}", #"{"pushToken":"aa11"}"#] {
            let refused = try await send(server, "POST", refusedPath, headers: ["Authorization: ApplePass x\(token)"], body: body)
            #expect(refused.status == 401 && refused.body.isEmpty, "\(body): \(refused.status)")
        }
        #expect(try await send(server, "GET", "/v1/devices/0099ffee/registrations/\(type)").status == 204)
        let unchanged = try await send(server, "GET", "/v1/devices/0011aabb/registrations/\(type)")
        #expect(unchanged.status == 204)
        #expect(unchanged.body.isEmpty)

        // Download links, the router's not-found and a method never served
        expectEnvelope(try await send(server, "GET", "/download/\(String(repeating: "Z", count: 40)).pkpass"),
                       404, code: "notFound", field: nil, message: "no pass at this link")
        expectEnvelope(try await send(server, "GET", "/no/such/route"), 404, code: "notFound", field: nil)
        let trace = try await send(server, "TRACE", "/api/v1/passes")
        expectEnvelope(trace, 405, code: "methodNotAllowed", field: nil, message: "TRACE is not served here")
        #expect(trace.head.lowercased().contains("\r\nallow: get, head, post, patch, delete"), "\(trace.head)")

        // Checkout (/checkout/v1)
        expectEnvelope(try await send(server, "POST", "/checkout/v1/sessions", headers: ["Idempotency-Key: k0"], body: "{"), 400, code: "invalidRequest", field: "body")
        // A quantity that is a number but not a whole one is named, as 0 or 1001 are.
        for quantity in ["1.5", "1e400", "99999999999999999999"] {
            expectEnvelope(try await send(server, "POST", "/checkout/v1/sessions", headers: ["Idempotency-Key: q\(quantity)"],
                                          body: #"{"items":[{"sku":"TSHIRT","quantity":\#(quantity)}]}"#),
                           400, code: "invalidRequest", field: "items[0].quantity",
                           message: "items[0].quantity: must be a whole number from 1 to 1000")
        }
        for quantity in ["2.0", "1e0"] {
            let accepted = try await send(server, "POST", "/checkout/v1/sessions", headers: ["Idempotency-Key: w\(quantity)"],
                                          body: #"{"items":[{"sku":"TSHIRT","quantity":\#(quantity)}]}"#)
            #expect(accepted.status == 201, "\(quantity): \(String(decoding: accepted.body, as: UTF8.self))")
        }
        expectEnvelope(try await send(server, "POST", "/checkout/v1/sessions", headers: ["Idempotency-Key: qs"],
                                      body: #"{"items":[{"sku":"TSHIRT","quantity":"2"}]}"#),
                       400, code: "invalidRequest", field: "items[0].quantity")
        expectEnvelope(try await send(server, "GET", "/checkout/v1/sessions/cs_missing"), 404, code: "notFound", field: nil)
        let session = try await send(server, "POST", "/checkout/v1/sessions", headers: ["Idempotency-Key: k1"],
                               body: #"{"items":[{"sku":"TSHIRT","quantity":1}]}"#)
        #expect(session.status == 201, "\(String(decoding: session.body, as: UTF8.self))")
        let id = try #require(session.json["id"] as? String)
        let secret = try #require(session.json["clientSecret"] as? String)
        // Apple Pay's authorization result keeps its own shape.
        let authorization = try await send(server, "POST", "/checkout/v1/sessions/\(id)/authorize",
                                     headers: ["Checkout-Client-Secret: \(secret)"], body: #"{"token":{"paymentData":{}}}"#)
        #expect(authorization.status >= 400, "\(String(decoding: authorization.body, as: UTF8.self))")
        #expect(authorization.json["status"] as? String == "STATUS_FAILURE")
        #expect(authorization.json["error"] == nil)
        try await server.terminate()
    }
}
