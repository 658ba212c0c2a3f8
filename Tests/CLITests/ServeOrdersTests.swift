import Foundation
import Testing
import TesseraTestSupport

/// Apple's device protocol for orders, played over HTTP against `tessera serve` on SQLite and on PostgreSQL:
/// registration, the changed-orders list, fetches with `Last-Modified`, an issuer change pushed through APNs, and the
/// new version fetched and verified.
@Suite("tessera serve orders web service")
struct ServeOrdersTests {
    typealias Server = OrdersServer

    @Test("register, list, fetch with 304, PATCH → push → the new signed version", arguments: Server.Database.tested)
    func deviceProtocol(database: Server.Database) async throws {
        try await Server.with(database) { server in
            let created = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"TS-2001"}}"#)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let state = try Server.json(created.body)
            #expect(state["orderTypeIdentifier"] as? String == Server.orderType)
            #expect((state["downloadURL"] as? String)?.hasSuffix(".order") == true)
            let token = try #require(state["authenticationToken"] as? String)
            let order = ["Authorization: AppleOrder \(token)"]
            let registration = "/v1/devices/device-1/registrations/\(Server.orderType)/TS-2001"
            let pushBody = #"{"pushToken":"\#(Server.pushToken)"}"#

            #expect(try await server.send("POST", registration, headers: order, body: pushBody).status == 201)
            #expect(try await server.send("POST", registration, headers: order, body: pushBody).status == 200)
            // A wrong token gets the same bare 401 as an unknown order.
            let wrong = try await server.send("POST", registration, headers: ["Authorization: AppleOrder x\(token)"], body: pushBody)
            let unknown = try await server.send(
                "POST", "/v1/devices/device-1/registrations/\(Server.orderType)/TS-9999", headers: order, body: pushBody)
            #expect(wrong.status == 401 && unknown.status == 401)
            #expect(wrong.body == unknown.body)
            #expect(wrong.head.lowercased().contains("\r\nwww-authenticate: appleorder\r\n"), "\(wrong.head)")

            let list = try await server.send("GET", "/v1/devices/device-1/registrations/\(Server.orderType)")
            #expect(list.status == 200)
            let listed = try Server.json(list.body)
            #expect(listed["orderIdentifiers"] as? [String] == ["TS-2001"])
            let tag = try #require(listed["lastModified"] as? String)
            let since = "/v1/devices/device-1/registrations/\(Server.orderType)?ordersModifiedSince=\(tag)"
            #expect(try await server.send("GET", since).status == 204)

            let fetch = "/v1/orders/\(Server.orderType)/TS-2001"
            let first = try await server.send("GET", fetch, headers: order)
            #expect(first.status == 200)
            #expect(Server.header("Content-Type", in: first.head) == "application/vnd.apple.finance.order")
            let seen = try #require(Server.header("Last-Modified", in: first.head))
            let verified = try await server.verify(first.body, name: "first.order")
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            #expect(try await server.send("GET", fetch, headers: order + ["If-Modified-Since: \(seen)"]).status == 304)

            // Shipped with a tracking number: a new version, pushed to the registered device (topic: the order type).
            let patch = #"{"data":{"fulfillments":[{"fulfillmentIdentifier":"TS-1001-1","status":"shipped","trackingNumber":"1Z999AA10123456784","carrier":"UPS"}]}}"#
            let changed = try await server.api("PATCH", "/api/v1/orders/\(Server.orderType)/TS-2001", body: patch)
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            #expect(try Server.json(changed.body)["pushesQueued"] as? Int == 1)
            let pushes = try await server.waitForOrderPush(count: 1)
            #expect(pushes.map(\.pushToken) == [Server.pushToken], "\(server.serve.log)")

            // The device asks with the Last-Modified it has: never 304 for the version it has not seen.
            let second = try await server.send("GET", fetch, headers: order + ["If-Modified-Since: \(seen)"])
            #expect(second.status == 200)
            // Its Last-Modified is never earlier than the one seen, and never later than the clock (a change made in
            // the same second as the order moves its stamp a second ahead of the clock, which the header does not
            // show until the clock catches up): the same value is possible, the 200 is what tells the new version.
            let httpDate = DateFormatter()
            httpDate.locale = Locale(identifier: "en_US_POSIX")
            httpDate.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            httpDate.timeZone = TimeZone(identifier: "GMT")
            let secondStamp = try #require(Server.header("Last-Modified", in: second.head).flatMap(httpDate.date(from:)))
            let date = try #require(Server.header("Date", in: second.head).flatMap(httpDate.date(from:)))
            // (The Date header is the server's clock read once a second: it may trail by that second.)
            #expect(secondStamp >= (httpDate.date(from: seen) ?? .distantFuture) && secondStamp <= date.addingTimeInterval(1),
                    "\(second.head)")
            let reverified = try await server.verify(second.body, name: "second.order")
            #expect(reverified.status == 0, "\(reverified.stdout)\(reverified.stderr)")
            let inspected = try await offCooperativePool {
                try Subprocess.tessera(["order", "inspect", server.work.appendingPathComponent("second.order").path, "--json"])
            }
            #expect(inspected.stdout.contains("1Z999AA10123456784"))
            #expect(inspected.stdout.contains("shipped"))
            let relisted = try await server.send("GET", since)
            #expect(relisted.status == 200)
            #expect(try Server.json(relisted.body)["orderIdentifiers"] as? [String] == ["TS-2001"])

            // The holder's download link serves the same current version.
            let downloadURL = try #require(try Server.json(changed.body)["downloadURL"] as? String)
            let link = try #require(URL(string: downloadURL))
            let download = try await server.send("GET", link.path)
            #expect(download.status == 200)
            #expect(download.body == second.body)
        }
    }

    @Test("orders are served in Apple's types; what Apple's schema forbids is a 422 naming the field, never signed")
    func applesSchema() async throws {
        try await Server.with(.sqlite) { server in
            let pickup = #"{"fulfillmentType":"pickup","fulfillmentIdentifier":"P-1","status":"readyForPickup"}"#
            let refused = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"TS-3001","fulfillments":[\#(pickup)]}}"#)
            #expect(refused.status == 422)
            let error = try #require(try Server.json(refused.body)["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("data.fulfillments[0].displayName: required key is missing") == true, "\(error)")
            #expect(try await server.api("GET", "/api/v1/orders/\(Server.orderType)/TS-3001").status == 404)

            let created = try await server.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"TS-3002","payment":{"total":{"amount":47.99,"currency":"USD"},"paymentMethods":["Visa 5678"],"status":"voided"}}}"#)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let order = try #require(try Server.json(created.body)["order"] as? [String: Any])
            #expect(order["orderTypeIdentifier"] as? String == Server.orderType)
            let payment = try #require(order["payment"] as? [String: Any])
            #expect((payment["total"] as? [String: Any])?["amount"] as? String == "47.99")
            #expect(payment["paymentMethods"] as? [String] == ["Visa 5678"])

            let bundle = try await server.api("GET", "/api/v1/orders/\(Server.orderType)/TS-3002/order")
            #expect(bundle.status == 200)
            let verified = try await server.verify(bundle.body, name: "apple.order")
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            let inspected = try await offCooperativePool {
                try Subprocess.tessera(["order", "inspect", server.work.appendingPathComponent("apple.order").path, "--json"])
            }
            #expect(inspected.stdout.contains(#""amount" : "47.99""#) || inspected.stdout.contains(#""amount":"47.99""#),
                    "\(inspected.stdout)")
            #expect(!inspected.stdout.contains(#""amount" : 12.5"#) && !inspected.stdout.contains(#""amount":12.5"#))

            // A PATCH's fulfillment is named by its place in the PATCH, not in the merged order (the template has
            // one fulfillment, so a new one lands second): data.fulfillments[0], as on create.
            let path = "/api/v1/orders/\(Server.orderType)/TS-3002"
            for (body, field, message) in [
                (#"{"data":{"fulfillments":[{"fulfillmentIdentifier":"NEW-1"}]}}"#, "data.fulfillments[0].fulfillmentType",
                 "required key is missing"),
                (#"{"data":{"fulfillments":[5]}}"#, "data.fulfillments[0]", "must be an object"),
                (#"{"data":{"fulfillments":[{"fulfillmentIdentifier":"NEW-2","fulfillmentType":"shipping","status":"nope"}]}}"#,
                 "data.fulfillments[0].status", "unknown value"),
            ] {
                let answer = try await server.api("PATCH", path, body: body)
                let error = try #require(try Server.json(answer.body)["error"] as? [String: Any], "\(body)")
                #expect(answer.status == 422 && error["field"] as? String == field, "\(body): \(error)")
                #expect((error["message"] as? String)?.hasPrefix("\(field): \(message)") == true, "\(body): \(error)")
            }
        }
    }
}

/// Two `tessera serve` processes on one PostgreSQL database serve orders as one service: an order made through one is
/// registered, changed and fetched through the other, the change is pushed once, and neither answers 304 for a
/// version the device has not seen.
@Suite("tessera serve orders web service, two processes on PostgreSQL")
struct ServeOrdersTwoProcessTests {
    typealias Server = OrdersServer

    @Test("create on one process, register and change on the other, list and fetch the new version on the first",
          .enabled(if: !TestPostgres.skipped, "PostgreSQL tests skipped (TESSERA_SKIP_POSTGRES=1)"))
    func twoProcesses() async throws {
        try await Server.with(.postgres, processes: 2) { servers in
            let (first, second) = (servers[0], servers[1])
            let created = try await first.api("POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"TP-1"}}"#)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let token = try #require(try Server.json(created.body)["authenticationToken"] as? String)
            let order = ["Authorization: AppleOrder \(token)"]
            let registration = "/v1/devices/device-tp/registrations/\(Server.orderType)/TP-1"
            #expect(try await second.send("POST", registration, headers: order, body: #"{"pushToken":"\#(Server.pushToken)"}"#)
                        .status == 201)
            #expect(try await first.send("POST", registration, headers: order, body: #"{"pushToken":"\#(Server.pushToken)"}"#)
                        .status == 200, "the registration made through the other process is seen")

            let fetch = "/v1/orders/\(Server.orderType)/TP-1"
            let seen = try #require(Server.header("Last-Modified", in: try await first.send("GET", fetch, headers: order).head))
            let list = try await first.send("GET", "/v1/devices/device-tp/registrations/\(Server.orderType)")
            let tag = try #require(try Server.json(list.body)["lastModified"] as? String)

            let patch = #"{"data":{"status":"completed"}}"#
            let changed = try await second.api("PATCH", "/api/v1/orders/\(Server.orderType)/TP-1", body: patch)
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            #expect(try Server.json(changed.body)["pushesQueued"] as? Int == 1)
            #expect(try await first.waitForOrderPush(count: 1).count >= 1)

            let relisted = try await first.send("GET", "/v1/devices/device-tp/registrations/\(Server.orderType)?ordersModifiedSince=\(tag)")
            #expect(relisted.status == 200)
            #expect(try Server.json(relisted.body)["orderIdentifiers"] as? [String] == ["TP-1"])
            let again = try await first.send("GET", fetch, headers: order + ["If-Modified-Since: \(seen)"])
            #expect(again.status == 200, "the change made through the other process was answered 304")
            let verified = try await first.verify(again.body, name: "tp.order")
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            // Both processes' dispatchers share the queue: the one push goes out once.
            try await Task.sleep(for: .seconds(2))
            let pushes = first.apns.requests.filter { $0.headers["apns-topic"] == Server.orderType }
            #expect(pushes.count == 1, "\(pushes.count) pushes")
        }
    }
}
