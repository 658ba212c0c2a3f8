import AsyncHTTPClient
import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import PassWebService
import PassStore
import Testing
import TesseraTestSupport

@Suite("Authorization as a stored state machine: one charge per session")
struct AuthorizationStateTests {
    static func applicationData(_ id: String) -> Data { CheckoutFixture.applicationData(id) }

    /// A session for one ticket (45.00 + 3.71 tax = 48.71), which ships nothing.
    static func ticketSession(_ client: LiveTestClient) async throws -> String {
        let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1]]])
        return try #require(session["id"] as? String)
    }

    @Test("50 concurrent authorize pairs with different valid tokens: one processor call and one order per session")
    func concurrentPairs() async throws {
        let processor = CountingProcessor(delay: .milliseconds(30))
        let fixture = try CheckoutFixture(processor: processor)
        try await fixture.withClient { client in
            let port = try #require(client.port)
            var sessions: [String] = []
            for _ in 0..<50 { sessions.append(try await Self.ticketSession(client)) }
            let answers = try await fixture.authorizePairs(bases: ["http://127.0.0.1:\(port)"], sessions: sessions)
            for id in sessions {
                let mine = answers.filter { $0.session == id }
                #expect(mine.map(\.status).sorted() == [200, 409], "\(mine)")
                let refused = mine.first { $0.status == 409 }?.code
                #expect(["authorizationInProgress", "sessionNotPending"].contains(refused ?? ""))
                #expect(processor.calls.filter { $0.sessionId == id }.count == 1)
                let stored = try #require(await fixture.store.session(id: id))
                #expect(stored.state == .authorized)
                let winner = try #require(mine.first { $0.status == 200 }?.orderId)
                #expect(stored.orderId == winner)
                #expect(await fixture.store.order(id: winner) != nil)
            }
            #expect(processor.calls.count == 50)
            #expect(Set(processor.calls.map(\.idempotencyKey)).count == 50)
            #expect(answers.contains { $0.code == "authorizationInProgress" },
                    "no attempt overlapped another: the race was not exercised")
            // Exactly one pass per session: none for a losing attempt.
            let passType = try #require(try fixture.issuer.passTypeIdentifier(ofTemplate: "event-ticket"))
            for id in sessions {
                let orderId = try #require(await fixture.store.session(id: id)?.orderId)
                #expect(await fixture.store.order(id: orderId)?.passes.count == 1)
                #expect(try await fixture.issuer.store.pass(passTypeIdentifier: passType, serialNumber: "\(orderId)-1") != nil)
            }
            let orderIds = Set(processor.calls.map(\.orderId))
            #expect(orderIds.count == 50)
            for call in processor.calls {
                #expect(try await fixture.issuer.store.pass(passTypeIdentifier: passType,
                                                            serialNumber: "\(call.orderId)-1") != nil)
            }
        }
    }

    @Test("A token made before its session existed is tied to it by the Idempotency-Key it was then created with")
    func idempotencyKeyApplicationData() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let ticket: [String: Any] = ["items": [["sku": "TICKET-GA", "quantity": 1]]]
            let key = UUID().uuidString
            let mine = try #require(try await client.createSession(ticket, key: key)["id"] as? String)
            let other = try #require(try await client.createSession(ticket)["id"] as? String)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Data("tessera-checkout-key:\(key)".utf8),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (wrong, refused) = try await client.post("/checkout/v1/sessions/\(other)/authorize", data: payment)
            #expect(wrong == .unprocessableContent)
            #expect(refused["code"] as? String == "applicationDataMismatch")
            let (right, accepted) = try await client.post("/checkout/v1/sessions/\(mine)/authorize", data: payment)
            #expect(right == .ok, "\(accepted)")
            #expect(accepted["status"] as? String == "STATUS_SUCCESS")
        }
    }

    @Test("A token posted to the wrong session is refused without being recorded; its own session accepts it")
    func wrongSessionThenRight() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let mine = try await Self.ticketSession(client)
            let other = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(mine),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (wrong, refused) = try await client.post("/checkout/v1/sessions/\(other)/authorize", data: payment)
            #expect(wrong == .unprocessableContent)
            #expect(refused["code"] as? String == "applicationDataMismatch")
            #expect(try #require(await fixture.store.session(id: other)).state == .pending)
            let (right, accepted) = try await client.post("/checkout/v1/sessions/\(mine)/authorize", data: payment)
            #expect(right == .ok, "\(accepted)")
            #expect(accepted["status"] as? String == "STATUS_SUCCESS")
        }
    }

    @Test("Failure answers carry ApplePayError codes and short reasons without hashes or library text",
          arguments: ["signatureInvalid", "applicationDataMismatch", "amountMismatch", "declined"])
    func buyerReadableFailures(code: String) async throws {
        let fixture = try CheckoutFixture(processor: CountingProcessor(declineFirst: 1))
        try await fixture.withClient { client in
            let id = try await Self.ticketSession(client)
            let data = Self.applicationData(id)
            let payment: Data = switch code {
            case "signatureInvalid": try fixture.payment(minorUnits: 4871, applicationData: data, tamper: true,
                                                         shippingContact: CheckoutFixture.ticketContact)
            case "applicationDataMismatch": try fixture.payment(minorUnits: 4871, applicationData: Data("x".utf8),
                                                                shippingContact: CheckoutFixture.ticketContact)
            case "amountMismatch": try fixture.payment(minorUnits: 4870, applicationData: data, shippingContact: CheckoutFixture.ticketContact)
            default: try fixture.payment(minorUnits: 4871, applicationData: data, shippingContact: CheckoutFixture.ticketContact)
            }
            let (_, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(result["status"] as? String == "STATUS_FAILURE")
            #expect(result["code"] as? String == code, "\(result)")
            let reason = try #require(result["reason"] as? String)
            let errors = try #require(result["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["code"] as? String == "unknown")
            #expect(errors.first?["message"] as? String == reason)
            #expect(reason.count <= 80, "\(reason)")
            #expect(reason.range(of: "[0-9a-fA-F]{16}", options: .regularExpression) == nil, "\(reason)")
            for internalWord in ["OpenSSL", "error:", "hash", "SHA", "minor units", "token"] {
                #expect(!reason.contains(internalWord), "\(reason)")
            }
        }
    }

    @Test("A decline returns the session to pending; the next attempt uses a new idempotency key")
    func declineThenRetry() async throws {
        let processor = CountingProcessor(declineFirst: 1)
        let fixture = try CheckoutFixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await Self.ticketSession(client)
            let first = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (declined, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: first)
            #expect(declined.code == 402)
            #expect(result["code"] as? String == "declined")
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            let second = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (ok, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: second)
            #expect(ok == .ok)
            #expect(processor.calls.map(\.idempotencyKey) == ["\(id)-1", "\(id)-2"])
        }
    }

    @Test("No answer from the processor: processorUnknown is visible, refuses other payments, and is retried with the same key until committed once")
    func processorUnknownRecovery() async throws {
        let processor = CountingProcessor(failFirst: 2)
        let fixture = try CheckoutFixture(processor: processor, configuration: .init(authorizationLease: 0))
        try await fixture.withClient { client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status.code == 502)
            #expect(result["code"] as? String == "processorUnknown")
            let (_, session) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect(session["state"] as? String == "processorUnknown")

            let another = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (busy, busyResult) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: another)
            #expect(busy == .conflict)
            #expect(busyResult["code"] as? String == "authorizationInProgress")

            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 0)  // the processor still gives no answer
            #expect(try #require(await fixture.store.session(id: id)).state == .processorUnknown)
            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 0)
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.state == .authorized)
            #expect(processor.calls.count == 3)
            #expect(Set(processor.calls.map(\.idempotencyKey)) == ["\(id)-1"])
            #expect(Set(processor.calls.map(\.orderId)) == [try #require(stored.orderId)])
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(stored.orderId))")
            #expect((order["passes"] as? [Any])?.count == 1)
        }
    }

    @Test("An authorization held past its lease (a crash) becomes processorUnknown, then recovery commits it once")
    func staleAuthorizingBecomesUnknown() async throws {
        let processor = CountingProcessor(failFirst: 1)
        let fixture = try CheckoutFixture(processor: processor, configuration: .init(authorizationLease: 10))
        try await fixture.withClient { client in
            // What a process that died after claiming leaves behind: authorizing, with its attempt.
            let id = try await AuthorizationHolderTests.claimAsAnotherProcess(fixture, client, holder: nil)
            #expect(await fixture.service.recoverAuthorizations() == 0)  // within its lease: left alone
            #expect(processor.calls.isEmpty)
            fixture.clock.advance(11)
            #expect(await fixture.service.recoverAuthorizations() == 0)  // the processor gives no answer
            let (_, unknown) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect(unknown["state"] as? String == "processorUnknown")
            fixture.clock.advance(11)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.state == .authorized)
            #expect(stored.orderId == "ord_crashed00000000000000")
            #expect(processor.calls.map(\.idempotencyKey) == ["\(id)-1", "\(id)-1"])
        }
    }

    @Test("Refusal details go to the log at debug level, never the account number or cryptogram")
    func detailsInDebugLog() async throws {
        let logs = RecordedLogs()
        let fixture = try CheckoutFixture(logger: logs.logger())
        try await fixture.withClient { client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4870, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (_, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(result["code"] as? String == "amountMismatch")
            #expect(!(result["reason"] as? String ?? "").contains("4870"))
            let debug = logs.lines.map(\.printed).filter { $0.hasPrefix("debug") && $0.contains("amountMismatch") }
            #expect(debug.contains { $0.contains("4870") && $0.contains("4871") }, "\(logs.lines.map(\.printed))")
            let good = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (ok, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: good)
            #expect(ok == .ok)
            for line in logs.lines.map(\.printed) {
                #expect(!line.contains("4761120010001234") && !line.contains("AOOXGFQ"), "\(line)")
            }
        }
    }
}
