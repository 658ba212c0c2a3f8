import Foundation
import Testing
import TesseraTestSupport

/// Passes and orders on one `tessera serve`: a pass route never serves or registers an order and the reverse, and
/// bad input gets a 4xx naming the field.
@Suite("tessera serve orders: isolation and bad input")
struct ServeOrdersIsolationTests {
    typealias Server = OrdersServer

    @Test("pass routes never serve an order, order routes never a pass")
    func crossKind() async throws {
        try await Server.with(.sqlite) { server in
            let order = try Server.json(try await server.api(
                "POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"X-1"}}"#).body)
            let orderToken = try #require(order["authenticationToken"] as? String)
            let pass = try Server.json(try await server.api(
                "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"X-1"}}"#).body)
            let passToken = try #require(pass["authenticationToken"] as? String)

            // The order through the pass routes, with either scheme: refused before any lookup or with a bare 401.
            let asPass = try await server.send("GET", "/v1/passes/\(Server.orderType)/X-1", headers: ["Authorization: ApplePass \(orderToken)"])
            #expect(asPass.status == 400)
            #expect(String(decoding: asPass.body, as: UTF8.self).contains("passTypeIdentifier"))
            let passUnderOrder = try await server.send(
                "GET", "/v1/orders/\(Server.passType)/X-1", headers: ["Authorization: AppleOrder \(passToken)"])
            #expect(passUnderOrder.status == 400)
            #expect(String(decoding: passUnderOrder.body, as: UTF8.self).contains("orderTypeIdentifier"))
            // Registering the pass with the order scheme, or the order with the pass scheme: 401, nothing stored.
            let body = #"{"pushToken":"\#(Server.pushToken)"}"#
            #expect(try await server.send("POST", "/v1/devices/d1/registrations/\(Server.passType)/X-1",
                                    headers: ["Authorization: AppleOrder \(passToken)"], body: body).status == 401)
            #expect(try await server.send("POST", "/v1/devices/d1/registrations/\(Server.orderType)/X-1",
                                    headers: ["Authorization: ApplePass \(orderToken)"], body: body).status == 401)
            // The pass's token does not open the order with the same identifier, nor the reverse.
            #expect(try await server.send("GET", "/v1/orders/\(Server.orderType)/X-1",
                                    headers: ["Authorization: AppleOrder \(passToken)"]).status == 401)
            #expect(try await server.send("GET", "/v1/passes/\(Server.passType)/X-1",
                                    headers: ["Authorization: ApplePass \(orderToken)"]).status == 401)
            #expect(try await server.send("GET", "/v1/devices/d1/registrations/\(Server.orderType)").status == 204)
            #expect(try Server.json(try await server.api("GET", "/api/v1/orders/\(Server.orderType)/X-1").body)["registrations"] as? Int == 0)
        }
    }

    @Test("unknown template, backward status, malformed identifiers and an oversized body get 4xx naming the field")
    func badInput() async throws {
        try await Server.with(.sqlite) { server in
            func field(_ response: (status: Int, head: String, body: Data)) throws -> String? {
                (try Server.json(response.body)["error"] as? [String: Any])?["field"] as? String
            }
            let unknown = try await server.api("POST", "/api/v1/orders", body: #"{"template":"no-such-template"}"#)
            #expect(unknown.status == 422)
            #expect(try field(unknown) == "template")

            let created = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"B-1"}}"#)
            #expect(created.status == 201)
            let path = "/api/v1/orders/\(Server.orderType)/B-1"
            let shipped = #"{"data":{"fulfillments":[{"fulfillmentIdentifier":"TS-1001-1","status":"shipped"}]}}"#
            #expect(try await server.api("PATCH", path, body: shipped).status == 200)
            let backwards = try await server.api(
                "PATCH", path, body: #"{"data":{"fulfillments":[{"fulfillmentIdentifier":"TS-1001-1","status":"processing"}]}}"#)
            #expect(backwards.status == 422)
            #expect(try field(backwards) == "data.fulfillments[0].status")
            #expect(try await server.api("PATCH", path, body: #"{"data":{"status":"completed"}}"#).status == 200)
            let reopened = try await server.api("PATCH", path, body: #"{"data":{"status":"open"}}"#)
            #expect(reopened.status == 422)
            #expect(try field(reopened) == "data.status")
            let fixed = try await server.api("PATCH", path, body: #"{"data":{"orderIdentifier":"B-2"}}"#)
            #expect(fixed.status == 422)
            #expect(try field(fixed) == "data.orderIdentifier")

            let badType = try await server.api("GET", "/api/v1/orders/pass.com.example/B-1")
            #expect(badType.status == 400)
            #expect(try field(badType) == "orderTypeIdentifier")
            let badIdentifier = try await server.api("GET", "/api/v1/orders/\(Server.orderType)/bad%20id")
            #expect(badIdentifier.status == 400)
            #expect(try field(badIdentifier) == "orderIdentifier")
            let badDevice = try await server.send("GET", "/v1/devices/bad%20device/registrations/\(Server.orderType)")
            #expect(badDevice.status == 400)
            #expect(String(decoding: badDevice.body, as: UTF8.self).contains("deviceIdentifier"))
            let badData = try await server.api(
                "POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"C-1","payment":{"total":{"amount":"1.999","currency":"USD"}}}}"#)
            #expect(badData.status == 422)
            #expect(try field(badData)?.hasPrefix("data.payment") == true)

            let big = #"{"template":"shop-order","data":{"note":""# + String(repeating: "x", count: 70_000) + #""}}"#
            let oversized = try await server.api("POST", "/api/v1/orders", body: big)
            #expect(oversized.status == 413)
        }
    }

    @Test("--order-templates without the Order Type ID credentials, with a missing folder or with certificate pushes is a usage error naming the flag")
    func orderFlags() async throws {
        let work = try TemporaryDirectory.make(prefix: "serve-order-flags")
        let certs = work.appendingPathComponent("certs")
        _ = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--order-type-id", Server.orderType])
        let base = [
            "serve", "--port", "0", "--database", "sqlite:\(work.path)/tessera.sqlite",
            "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--cert", certs.appendingPathComponent("pass.pem").path, "--key", certs.appendingPathComponent("pass.key").path,
            "--wwdr", certs.appendingPathComponent("wwdr.pem").path,
        ]
        let templates = Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates").path
        let noCertificate = try await offCooperativePool { try Subprocess.tessera(base + ["--order-templates", templates]) }
        #expect(noCertificate.status == 2)
        #expect(noCertificate.stderr.contains("--order-cert"))
        let noFolder = try await offCooperativePool {
            try Subprocess.tessera(base + ["--order-templates", work.appendingPathComponent("missing").path,
                                          "--order-cert", certs.appendingPathComponent("order.pem").path,
                                          "--order-key", certs.appendingPathComponent("order.key").path])
        }
        #expect(noFolder.status != 0)
        #expect(noFolder.stderr.contains("--order-templates"))
        let passCertificate = try await offCooperativePool {
            try Subprocess.tessera(base + ["--order-templates", templates,
                                          "--order-cert", certs.appendingPathComponent("pass.pem").path,
                                          "--order-key", certs.appendingPathComponent("pass.key").path])
        }
        #expect(passCertificate.status != 0)
        #expect(passCertificate.stderr.contains("--order-cert"))
        // The Pass Type ID certificate cannot push to an Order Type ID: refused before anything starts.
        let certificatePushes = try await offCooperativePool {
            try Subprocess.tessera(base + ["--order-templates", templates,
                                          "--order-cert", certs.appendingPathComponent("order.pem").path,
                                          "--order-key", certs.appendingPathComponent("order.key").path,
                                          "--apns-auth", "certificate"])
        }
        #expect(certificatePushes.status == 2, "\(certificatePushes.stderr)")
        #expect(certificatePushes.stderr.contains("--apns-auth certificate") && certificatePushes.stderr.contains("token"),
                "\(certificatePushes.stderr)")
    }
}
