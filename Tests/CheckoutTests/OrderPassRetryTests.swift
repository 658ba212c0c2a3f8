import Checkout
import Foundation
import HTTPTypes
import Logging
import PassModel
import Synchronization
import Testing
import TesseraTestSupport

/// An order's pass that fails for the moment (the pass store or signer out) is issued again by recovery; one the
/// issuer refuses for good is noted at once.
@Suite("Order passes issued again")
struct OrderPassRetryTests {
    /// The real issuer, failing its first calls: for the moment, or for good.
    final class FailingFirst: OrderPassIssuing {
        let wrapped: any OrderPassIssuing
        let failures = Mutex(0)
        let forGood: Bool

        init(_ wrapped: any OrderPassIssuing, failures: Int, forGood: Bool) {
            self.wrapped = wrapped
            self.forGood = forGood
            self.failures.withLock { $0 = failures }
        }

        struct Outage: Error {}

        func issueOrderPass(template: String, serialNumber: String, data: [String: JSONValue]) async throws -> IssuedOrderPass {
            let fail = failures.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if fail { throw forGood ? OrderPassRefused(reason: "no such template") as any Error : Outage() }
            return try await wrapped.issueOrderPass(template: template, serialNumber: serialNumber, data: data)
        }

        func orderPassesBundle(_ passes: [IssuedOrderPass], logger: Logger) async throws -> Data {
            try await wrapped.orderPassesBundle(passes, logger: logger)
        }
    }

    @Test("a pass failing for the moment: the order keeps owing it, and recovery issues it", arguments: [false, true])
    func failingFirst(forGood: Bool) async throws {
        let box = Mutex<FailingFirst?>(nil)
        let fixture = try CheckoutFixture(wrapPassIssuer: PassIssuerWrapper { real in
            let failing = FailingFirst(real, failures: 1, forGood: forGood)
            box.withLock { $0 = failing }
            return failing
        })
        try await fixture.withClient { client in
            let id = try await AuthorizationTests.preparedSession(client)
            let payment = try fixture.payment(minorUnits: 8320, applicationData: AuthorizationTests.applicationData(id))
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let orderId = try #require(result["orderId"] as? String)
            var (_, order) = try await client.get("/checkout/v1/orders/\(orderId)")
            if forGood {
                // Refused for good: noted at once, nothing owed.
                #expect((order["notes"] as? [String])?.contains { $0.hasPrefix("no pass issued for TICKET-GA") } == true, "\(order)")
                #expect(await fixture.service.recoverAuthorizations() == 0)
            } else {
                #expect((order["passes"] as? [Any])?.isEmpty ?? true, "\(order)")
                #expect(await fixture.service.recoverAuthorizations() == 1)
                (_, order) = try await client.get("/checkout/v1/orders/\(orderId)")
                #expect((order["passes"] as? [[String: Any]])?.count == 1, "\(order)")
                #expect((order["notes"] as? [String] ?? []).isEmpty, "\(order)")
            }
        }
    }
}
