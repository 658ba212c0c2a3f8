import Foundation
import OrderModel
import PassModel
import Testing

/// `OrderTemplate.order(applying:)` decodes and encodes only the members a data document names; the order and bytes
/// must be exactly those of decoding the whole merged document and encoding it with `JSONEncoder`.
@Suite struct OrderTemplatePreparedTests {
    static let shopOrder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("OrderTemplates/shop-order")

    /// Data documents that change scalars, merge into nested objects, remove keys, add unknown keys (in an order
    /// where sorting matters), replace arrays and give amounts as numbers.
    static let documents: [String] = [
        #"{}"#,
        #"{"orderIdentifier": "A-1", "orderNumber": "1", "orderTypeIdentifier": "order.com.example.hidden"}"#,
        #"{"customer": {"givenName": "Ana", "zNote": 1}, "merchant": {"address": {"locality": "Porto"}}}"#,
        #"{"statusDescription": null, "barcode": null, "customer": {"emailAddress": null}}"#,
        #"{"zExtra": {"b": [1, 2.5, "x/y"], "a": null}, "Aa": true, "a10": 1, "a9": 2, "_": "é/ü \"q\""}"#,
        #"{"payment": {"total": {"amount": 12.5, "currency": "USD"}}}"#,
        #"{"lineItems": [{"title": "Tea", "quantity": 3, "price": {"amount": 4, "currency": "JPY"}}]}"#,
        #"{"orderNumber": "</script> & ☃", "updatedAt": "2026-12-01T10:00:00Z"}"#,
    ]

    static func templates() throws -> [OrderTemplate] {
        [
            try OrderTemplate(directory: shopOrder),
            try OrderTemplate(name: "fixture", orderJSON: Data(OrderFixtures.orderJSON.utf8), files: OrderFixtures.files),
        ]
    }

    @Test("each data document gives the order and bytes of decoding and encoding the whole merged document",
          arguments: documents)
    func sameAsWholeDocument(document: String) throws {
        for template in try Self.templates() {
            let members = try OrderTemplate.members(of: Data(document.utf8))
            let prepared = try #require(template.order(applying: members), "\(template.name): \(document)")
            let whole = try Order(jsonData: template.orderJSON(applying: members))
            #expect(prepared.order == whole, "\(template.name): \(document)")
            let expected = try JSONCoding.encode(whole, sortedKeys: true, prettyPrinted: false)
            #expect(String(decoding: prepared.orderJSON, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                    "\(template.name): \(document)")
        }
    }

    @Test("a member of the wrong type in the data or in the template leaves the whole-document path to report it")
    func typeErrorsTakeTheWholePath() throws {
        let template = try OrderTemplate(directory: Self.shopOrder)
        #expect(template.order(applying: try OrderTemplate.members(of: Data(#"{"orderNumber": 5}"#.utf8))) == nil)
        #expect(template.order(applying: try OrderTemplate.members(of: Data(#"{"lineItems": {"a": 1}}"#.utf8))) == nil)
        var broken = try #require(try JSONValue(jsonData: template.orderJSON).objectValue)
        broken["orderNumber"] = .integer(7)
        let mistyped = try OrderTemplate(name: "mistyped", orderJSON: try JSONValue.object(broken).jsonData())
        #expect(mistyped.order(applying: try OrderTemplate.members(of: Data(#"{"orderNumber": "7"}"#.utf8))) == nil)
    }
}
