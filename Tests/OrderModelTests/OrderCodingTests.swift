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
        #expect(order.lineItems?.first?.price == OrderCurrencyAmount(amount: "12.50", currency: "USD"))
        #expect(order.payment?.total?.amount == "19.99")
        #expect(order.payment?.paymentMethods == ["Visa ••••1234"])
        let transaction = try #require(order.payment?.transactions?.first)
        #expect(transaction.paymentMethod?.displayName == "Visa ••••1234")
        #expect(transaction.status == "completed" && transaction.transactionType == "purchase")
        #expect(transaction.amount?.amount == "19.99")
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

    @Test func amountsAreWrittenAsStringsWithTheirCurrencysDigits() throws {
        let tree = OrderFixtures.tree.setting(["payment", "total", "amount"], to: "1234567.89")
            .setting(["lineItems", 0, "price", "amount"], to: .number(0.1))
            .setting(["payment", "summaryItems", 0, "value", "amount"], to: .number(5))
        let order = try Order(jsonData: tree.jsonData())
        #expect(order.payment?.total?.amount == "1234567.89")
        #expect(order.lineItems?[0].price?.decimal == Decimal(string: "0.1"))
        let written = try JSONValue(jsonData: order.jsonData())
        #expect(written["payment"]?["total"]?["amount"] == "1234567.89")
        #expect(written["lineItems"]?[0]?["price"]?["amount"] == "0.10")
        #expect(written["payment"]?["summaryItems"]?[0]?["value"]?["amount"] == "5.00")
        // Each currency's own minor units; an amount with more digits than its currency is kept for the validator.
        for (amount, currency, expected): (JSONValue, String, String) in [
            (.number(4800), "JPY", "4800"), (.number(4.5), "KWD", "4.500"), ("3", "EUR", "3.00"),
            (.number(47.999), "USD", "47.999"), ("12.5", "XYZ", "12.5"),
        ] {
            let one = try Order(jsonData: OrderFixtures.tree.setting(["payment", "total"], to: ["amount": amount, "currency": .string(currency)]).jsonData())
            let text = try JSONValue(jsonData: one.jsonData())["payment"]?["total"]?["amount"]
            #expect(text == .string(expected), "\(amount) \(currency)")
        }
    }

    @Test func paymentMethodsAreApplesStringsAndTheEarlierObjectFormIsReadAsOne() throws {
        let legacy = OrderFixtures.tree.setting(["payment", "paymentMethods"], to: [["displayName": "Amex ••••0005"], "Visa 5678"])
        let order = try Order(jsonData: legacy.jsonData())
        #expect(order.payment?.paymentMethods == ["Amex ••••0005", "Visa 5678"])
        let written = try JSONValue(jsonData: order.jsonData())
        #expect(written["payment"]?["paymentMethods"] == ["Amex ••••0005", "Visa 5678"])
        let wrong = OrderFixtures.tree.setting(["payment", "paymentMethods"], to: [["label": "Visa"]])
        let report = OrderFixtures.validate(wrong)
        #expect(report.issues(at: "payment.paymentMethods[0]").first?.message.hasPrefix("expected a string") == true,
                "\(report.issues)")
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

    @Test("a key written twice in order.json or in a data document is refused naming it, not one value kept silently")
    func duplicateKeysRefused() throws {
        // The root's "status" (open) written a second time before it.
        let first = try #require(OrderFixtures.orderJSON.range(of: "{"))
        let doubled = Data(OrderFixtures.orderJSON.replacingCharacters(in: first, with: #"{"status": "completed", "#).utf8)
        #expect {
            try OrderTemplate(name: "shop", orderJSON: doubled, files: OrderFixtures.files)
        } throws: { error in
            "\(error)".contains("shop/order.json") && "\(error)".contains("\"status\"")
        }
        let template = try OrderTemplate(name: "shop", orderJSON: OrderFixtures.data, files: OrderFixtures.files)
        let data = Data(#"{"orderIdentifier": "ORD-2", "merchant": {"displayName": "A", "displayName": "B"}}"#.utf8)
        #expect {
            try template.orderJSON(applying: data, source: "rows.jsonl line 2")
        } throws: { error in
            "\(error)".contains("rows.jsonl line 2") && "\(error)".contains("merchant.displayName")
        }
    }
}
