import Foundation
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

    /// A PNG header: signature plus a correct IHDR chunk (enough for `PNGInfo`).
    static func png(width: Int, height: Int) -> Data {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = Array("IHDR".utf8) + bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        bytes += bigEndian(13) + header + bigEndian(crc32(header))
        bytes += bigEndian(0) + Array("IEND".utf8) + bigEndian(crc32(Array("IEND".utf8)))
        return Data(bytes)
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
