import Foundation
import OrderModel
import PassModel
import Testing

@Suite("order.json model")
struct OrderCodingTests {
    @Test func decodesEveryDocumentedPart() throws {
        let order = try Order(jsonData: OrderFixtures.data)
        #expect(order.orderTypeIdentifier == "order.com.example.shop")
        #expect(order.merchant?.logo == "logo.png")
        #expect(order.lineItems?.first?.price == OrderCurrencyAmount(amount: "12.5", currency: "USD"))
        #expect(order.payment?.total?.amount == "19.99")
        #expect(order.payment?.paymentMethods?.first?.displayName == "Visa ••••1234")
        guard case .shipping(let shipping)? = order.fulfillments?.first, case .pickup(let pickup)? = order.fulfillments?.last
        else {
            Issue.record("expected a shipment then a pickup")
            return
        }
        #expect(shipping.trackingNumber == "1Z999")
        #expect(shipping.recipient?.address?.locality == "Springfield")
        #expect(pickup.pickupWindowDuration == "PT8H")
        #expect(pickup.barcode?.format == "qr")
    }

    @Test func roundTripKeepsEveryKeyIncludingUnknownOnes() throws {
        let tree = OrderFixtures.tree
            .setting(["futureKey"], to: ["nested": true])
            .setting(["merchant", "tagline"], to: "Since 1900")
            .setting(["fulfillments", 0, "lineItems"], to: [["title": "Mug"]])
            .setting(["payment", "total", "note"], to: "tax included")
        let order = try Order(jsonData: tree.jsonData())
        #expect(order.unknownKeys["futureKey"] == ["nested": true])
        #expect(order.merchant?.unknownKeys["tagline"] == "Since 1900")
        let written = try JSONValue(jsonData: order.jsonData())
        #expect(written == tree)
    }

    @Test func amountsKeepTheirExactDecimalsAndForm() throws {
        let tree = OrderFixtures.tree.setting(["payment", "total", "amount"], to: "1234567.89")
            .setting(["lineItems", 0, "price", "amount"], to: .number(0.1))
        let order = try Order(jsonData: tree.jsonData())
        #expect(order.payment?.total?.amount == "1234567.89")
        #expect(order.payment?.total?.amountIsString == true)
        #expect(order.lineItems?[0].price?.decimal == Decimal(string: "0.1"))
        let text = String(decoding: try order.jsonData(), as: UTF8.self)
        #expect(text.contains("\"amount\" : \"1234567.89\""))
        #expect(text.contains("\"amount\" : 0.1"))
    }

    @Test func unknownFulfillmentTypeNamesItsPath() {
        let tree = OrderFixtures.tree.setting(["fulfillments", 1, "fulfillmentType"], to: "drone")
        #expect {
            try Order(jsonData: tree.jsonData())
        } throws: { error in
            "\(error)".contains("fulfillments[1].fulfillmentType") && "\(error)".contains("drone")
        }
    }

    @Test func templateMergesADataDocument() throws {
        let template = try OrderTemplate(name: "shop", orderJSON: OrderFixtures.data, files: OrderFixtures.files)
        let data = Data(#"{"orderIdentifier": "ORD-2", "merchant": {"displayName": "Other"}, "customer": null}"#.utf8)
        let order = try Order(jsonData: template.orderJSON(applying: data))
        #expect(order.orderIdentifier == "ORD-2")
        #expect(order.merchant?.displayName == "Other")
        #expect(order.merchant?.logo == "logo.png")
        #expect(order.customer == nil)
        #expect(throws: PassModelError.self) { try template.orderJSON(applying: Data("[1]".utf8), source: "d.json") }
    }
}
