import Foundation
import PNGEncoding
import OrderModel
import PassModel

/// A valid order with a shipment and a pickup, and the files it names.
enum OrderFixtures {
    static let orderJSON = """
    {
      "schemaVersion": 1,
      "orderTypeIdentifier": "order.com.example.shop",
      "orderIdentifier": "ORD-1001",
      "orderType": "ecommerce",
      "orderNumber": "1001",
      "createdAt": "2026-05-07T10:30:00Z",
      "updatedAt": "2026-05-07T13:00:00+02:00",
      "status": "open",
      "orderManagementURL": "https://shop.example.com/orders/1001",
      "webServiceURL": "https://shop.example.com/wallet",
      "authenticationToken": "0123456789abcdef0123",
      "merchant": {
        "displayName": "Example Shop",
        "merchantIdentifier": "merchant.com.example.shop",
        "url": "https://shop.example.com",
        "logo": "logo.png"
      },
      "customer": {"givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.com"},
      "lineItems": [
        {"title": "Mug", "quantity": 2, "price": {"amount": "12.50", "currency": "USD"}, "image": "mug.png", "sku": "MUG-1"}
      ],
      "payment": {
        "total": {"amount": "19.99", "currency": "USD"},
        "status": "paid",
        "paymentMethods": ["Visa ••••1234"],
        "summaryItems": [{"label": "Shipping", "value": {"amount": "4.99", "currency": "USD"}}],
        "transactions": [{"amount": {"amount": "19.99", "currency": "USD"}, "createdAt": "2026-05-07T10:30:05Z",
                          "paymentMethod": {"displayName": "Visa ••••1234"}, "status": "completed", "transactionType": "purchase"}]
      },
      "fulfillments": [
        {
          "fulfillmentType": "shipping", "fulfillmentIdentifier": "ship-1", "status": "onTheWay",
          "carrier": "UPS", "trackingNumber": "1Z999", "trackingURL": "https://ups.example.com/track/1Z999",
          "estimatedDeliveryAt": "2026-05-09T12:00:00Z",
          "recipient": {"givenName": "Ada", "address": {"addressLines": ["1 Main St"], "locality": "Springfield", "countryCode": "US"}}
        },
        {
          "fulfillmentType": "pickup", "fulfillmentIdentifier": "pick-1", "status": "readyForPickup",
          "displayName": "Downtown store", "pickupAt": "2026-05-08T09:00:00Z", "pickupWindowDuration": "PT8H",
          "notes": "Bring your order number.", "barcode": {"message": "PICK-1", "format": "qr", "messageEncoding": "iso-8859-1"}
        }
      ]
    }
    """

    static var data: Data { Data(orderJSON.utf8) }

    static let files: [String: Data] = ["logo.png": png(width: 100, height: 100), "mug.png": png(width: 60, height: 60)]

    /// The fixture's JSON tree.
    static var tree: JSONValue { try! JSONValue(jsonData: data) }

    /// Validates a JSON tree with the fixture's files unless others are given.
    static func validate(_ json: JSONValue, files: [String: Data] = files) -> ValidationReport {
        OrderValidator().validate(orderJSON: try! json.jsonData(), files: files)
    }

    /// A whole PNG of transparent pixels (8-bit RGBA), as the validator reads every image whole.
    static func png(width: Int, height: Int) -> Data {
        try! PNGFile.encode(width: width, height: height, bitDepth: 8, colorType: .rgba,
                            filteredScanlines: [UInt8](repeating: 0, count: height * (1 + width * 4)))
    }
}

extension JSONValue {
    /// The tree with the value at a path of object keys and array indices replaced (`nil` removes it).
    func setting(_ path: [Any], to value: JSONValue?) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        if let key = first as? String {
            var members = objectValue ?? [:]
            if rest.isEmpty, value == nil {
                members[key] = nil
            } else {
                members[key] = (members[key] ?? .object([:])).setting(rest, to: value)
            }
            return .object(members)
        }
        var elements = arrayValue ?? []
        let index = first as! Int
        elements[index] = elements[index].setting(rest, to: value)
        return .array(elements)
    }
}
