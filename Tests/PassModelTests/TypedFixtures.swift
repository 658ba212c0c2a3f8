import PassModel

/// One template per style, with the shapes data documents meet: legacy and modern barcodes, no barcodes,
/// an empty `barcodes`, date fields, a key in two groups, unknown keys, numbers.
enum TypedFixtures {
    static var templates: [(String, JSONValue)] {
        [
            ("boarding-pass", boardingPass), ("coupon", coupon), ("event-ticket", eventTicket),
            ("store-card", storeCard), ("generic", generic),
        ]
    }

    static func base(_ serial: String) -> JSONValue {
        [
            "formatVersion": 1,
            "passTypeIdentifier": "pass.com.example.typed",
            "serialNumber": .string(serial),
            "teamIdentifier": "A1B2C3D4E5",
            "organizationName": "Example",
            "description": "Typed fixture",
            "foregroundColor": "rgb(255, 255, 255)",
            "webServiceURL": "https://example.com/passes/",
            "authenticationToken": "abcdefghijklmnopqrstuvwxyz",
        ]
    }

    static let qr: JSONValue = ["format": "PKBarcodeFormatQR", "message": "old", "messageEncoding": "iso-8859-1"]

    static var boardingPass: JSONValue {
        var json = base("B-0001")
        json["barcodes"] = [qr, ["format": "PKBarcodeFormatAztec", "message": "old", "messageEncoding": "utf-8", "altText": "alt"]]
        json["barcode"] = qr
        json["customTopLevel"] = ["nested": [1, 2.5, "x", nil, true]]
        json["boardingPass"] = [
            "transitType": "PKTransitTypeAir",
            "headerFields": [["key": "gate", "label": "GATE", "value": "A1"]],
            "primaryFields": [
                ["key": "from", "label": "SFO", "value": "San Francisco"],
                ["key": "boards", "value": "2026-05-07T18:00Z", "timeStyle": "PKDateStyleShort"],
            ],
            "secondaryFields": [["key": "seat", "value": "1A", "customFieldKey": "kept"]],
            "auxiliaryFields": [["key": "fare", "value": 10.5, "currencyCode": "EUR", "numberStyle": "PKNumberStyleDecimal"]],
            "backFields": [["key": "terms", "value": "None"], ["key": "gate", "value": "A1"]],
            "additionalInfoFields": [["key": "info", "value": "x", "dateStyle": "PKDateStyleNone"]],
        ]
        return json
    }

    static var coupon: JSONValue {
        var json = base("C-0001")
        json["voided"] = false
        json["maxDistance"] = 100
        json["coupon"] = [
            "primaryFields": [["key": "offer", "value": "20% off"]],
            "auxiliaryFields": [["key": "expires", "value": "2026-12-31T23:59Z", "dateStyle": "PKDateStyleMedium", "isRelative": true]],
        ]
        return json
    }

    static var eventTicket: JSONValue {
        var json = Fixtures.eventTicket
        json["locations"] = [["latitude": 48.85, "longitude": 2.35, "relevantText": "Near"]]
        json["semantics"] = ["eventName": "The Band", "seats": [["seatNumber": "12A"]]]
        json["relevantDate"] = "2026-05-07T19:30-05:00"
        return json
    }

    static var storeCard: JSONValue {
        var json = base("S-0001")
        json["barcodes"] = []
        json["storeCard"] = [
            "primaryFields": [["key": "balance", "value": 21.75, "currencyCode": "USD"]],
            "headerFields": [["key": "points", "value": 1200]],
        ]
        return json
    }

    static var generic: JSONValue {
        var json = base("G-0001")
        json["barcode"] = qr
        json["sharingProhibited"] = true
        json["generic"] = [
            "primaryFields": [["key": "member", "value": "Ada"]],
            "secondaryFields": [["key": "since", "value": "2020-01-01T00:00Z", "dateStyle": "PKDateStyleShort"]],
            "unknownGroup": [1, 2],
        ]
        return json
    }
}
