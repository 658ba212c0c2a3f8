import Checkout
import Foundation
import HTTPTypes
import PaymentRequest
import Testing
import TesseraTestSupport

/// A token's `paymentMethod.network` is outside Apple's signature: once decrypted, the account number's own scheme
/// decides whether the merchant takes the card, and is what the order records.
@Suite("Checkout: the network of the card's own number")
struct AccountSchemeTests {
    @Test("schemes by leading digits; other numbers and non-numbers have none")
    func schemes() {
        let cases: [(String, PaymentNetwork?)] = [
            ("4761120010001234", .visa), ("5204240000001234", .masterCard), ("2221000000000009", .masterCard),
            ("2720990000000007", .masterCard), ("2721000000000004", nil), ("378282246310005", .amex),
            ("341111111111111", .amex), ("6011111111111117", .discover), ("6445644564456445", .discover),
            ("6500000000000002", .discover), ("3530111333300000", PaymentNetwork(rawValue: "jcb")),
            ("6200000000000005", nil), ("2200000000000004", nil), ("411111", nil), ("4111-1111-1111-1111", nil),
            ("", nil), ("41111111111111111111", nil),
        ]
        for (number, expected) in cases {
            #expect(PaymentNetwork.scheme(ofAccountNumber: number) == expected, "\(number)")
        }
        // The number's scheme stands whatever scheme is named, or none; a domestic network named stands as named.
        #expect(PaymentNetwork.scheme(ofAccountNumber: "5204240000001234", named: "Visa") == .masterCard)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "4761120010001234", named: nil) == .visa)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "4761120010001234", named: "CartesBancaires") == nil)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "5204240000001234", named: "Maestro") == nil)
        // A domestic name on a number its network is never issued on does not stand: the number's scheme does.
        #expect(PaymentNetwork.scheme(ofAccountNumber: "378282246310005", named: "Maestro") == .amex)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "378282246310005", named: "CartesBancaires") == .amex)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "4761120010001234", named: "Maestro") == .visa)
        #expect(PaymentNetwork.scheme(ofAccountNumber: "6011111111111117", named: "SomeLocalNetwork") == .discover)
    }

    @Test("a Visa number under a token naming MasterCard, or no network, is refused where Visa is not taken; a domestic network named on it stands")
    func networkOfTheNumber() async throws {
        let fixture = try CheckoutFixture { merchant in
            merchant.supportedNetworks = [.masterCard, PaymentNetwork(rawValue: "cartesBancaires")]
        }
        try await fixture.withClient { client in
            let methods: [([String: Any]?, Bool)] = [
                (["displayName": "MasterCard 1234", "network": "MasterCard", "type": "debit"], false),
                (nil, false),
                (["displayName": "CB 1234", "network": "CartesBancaires", "type": "debit"], true),
            ]
            for (method, accepted) in methods {
                let id = try await AuthorizationStateTests.ticketSession(client)
                let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                                  shippingContact: CheckoutFixture.ticketContact, paymentMethod: method)
                let (status, answer) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
                if accepted {
                    #expect(status == .ok, "\(answer)")
                    let orderId = try #require(answer["orderId"] as? String)
                    let order = try #require(await fixture.store.order(id: orderId))
                    #expect(order.payment.network == "CartesBancaires")
                } else {
                    #expect(status == .unprocessableContent && answer["code"] as? String == "networkNotAccepted", "\(answer)")
                    #expect(answer["reason"] as? String == "Visa cards are not accepted.", "\(answer)")
                    #expect(try await fixture.store.session(id: id)?.state == .pending)
                }
            }
        }
    }

    @Test("the order records the number's scheme, not the network a token names for it")
    func recordedNetwork() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let payment = try fixture.payment(
                minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id), shippingContact: CheckoutFixture.ticketContact,
                accountNumber: "5204240000005678", paymentMethod: ["displayName": "Visa 1234", "network": "Visa", "type": "debit"])
            let (status, answer) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(answer)")
            let orderId = try #require(answer["orderId"] as? String)
            let order = try #require(await fixture.store.order(id: orderId))
            #expect(order.payment.network == "MasterCard" && order.payment.lastFour == "5678")
        }
    }
}
