/// A top-level `pass.json` key whose typed property can be overridden without touching JSON.
///
/// Only scalar properties are listed (`String?`, `Bool?` and `formatVersion`); arrays, dictionaries,
/// styles and unknown keys take the general path (merge into the JSON tree, then decode).
enum ScalarOverride: Sendable {
    case string(any WritableKeyPath<Pass, String?> & Sendable)
    case bool(any WritableKeyPath<Pass, Bool?> & Sendable)
    case integer(any WritableKeyPath<Pass, Int?> & Sendable)

    /// Every scalar top-level key by its `pass.json` name.
    static let byKey: [String: ScalarOverride] = [
        "description": .string(\.description),
        "organizationName": .string(\.organizationName),
        "passTypeIdentifier": .string(\.passTypeIdentifier),
        "serialNumber": .string(\.serialNumber),
        "teamIdentifier": .string(\.teamIdentifier),
        "appLaunchURL": .string(\.appLaunchURL),
        "expirationDate": .string(\.expirationDate),
        "relevantDate": .string(\.relevantDate),
        "backgroundColor": .string(\.backgroundColor),
        "foregroundColor": .string(\.foregroundColor),
        "labelColor": .string(\.labelColor),
        "stripColor": .string(\.stripColor),
        "groupingIdentifier": .string(\.groupingIdentifier),
        "logoText": .string(\.logoText),
        "webServiceURL": .string(\.webServiceURL),
        "authenticationToken": .string(\.authenticationToken),
        "eventLogoText": .string(\.eventLogoText),
        "footerBackgroundColor": .string(\.footerBackgroundColor),
        "bagPolicyURL": .string(\.bagPolicyURL),
        "orderFoodURL": .string(\.orderFoodURL),
        "parkingInformationURL": .string(\.parkingInformationURL),
        "directionsInformationURL": .string(\.directionsInformationURL),
        "purchaseParkingURL": .string(\.purchaseParkingURL),
        "merchandiseURL": .string(\.merchandiseURL),
        "transitInformationURL": .string(\.transitInformationURL),
        "accessibilityURL": .string(\.accessibilityURL),
        "addOnURL": .string(\.addOnURL),
        "contactVenueEmail": .string(\.contactVenueEmail),
        "contactVenuePhoneNumber": .string(\.contactVenuePhoneNumber),
        "contactVenueWebsite": .string(\.contactVenueWebsite),
        "transferURL": .string(\.transferURL),
        "sellURL": .string(\.sellURL),
        "changeSeatURL": .string(\.changeSeatURL),
        "entertainmentURL": .string(\.entertainmentURL),
        "purchaseAdditionalBaggageURL": .string(\.purchaseAdditionalBaggageURL),
        "purchaseLoungeAccessURL": .string(\.purchaseLoungeAccessURL),
        "purchaseWifiURL": .string(\.purchaseWifiURL),
        "upgradeURL": .string(\.upgradeURL),
        "managementURL": .string(\.managementURL),
        "registerServiceAnimalURL": .string(\.registerServiceAnimalURL),
        "reportLostBagURL": .string(\.reportLostBagURL),
        "requestWheelchairURL": .string(\.requestWheelchairURL),
        "transitProviderEmail": .string(\.transitProviderEmail),
        "transitProviderPhoneNumber": .string(\.transitProviderPhoneNumber),
        "transitProviderWebsiteURL": .string(\.transitProviderWebsiteURL),
        "logoSymbolName": .string(\.logoSymbolName),
        "voided": .bool(\.voided),
        "suppressStripShine": .bool(\.suppressStripShine),
        "sharingProhibited": .bool(\.sharingProhibited),
        "useAutomaticColors": .bool(\.useAutomaticColors),
        "suppressHeaderDarkening": .bool(\.suppressHeaderDarkening),
        "formatVersion": .integer(\.formatVersion),
    ]

    /// Whether a value has the property's own JSON type (so it needs no decoding to check).
    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (_, .null), (.string, .string), (.bool, .bool), (.integer, .integer): return true
        default: return false
        }
    }

    /// Sets the property; `null` removes it. Returns `false`, leaving the pass alone, when the value
    /// has another JSON type.
    func apply(_ value: JSONValue, to pass: inout Pass) -> Bool {
        switch (self, value) {
        case (.string(let path), .null): pass[keyPath: path] = nil
        case (.bool(let path), .null): pass[keyPath: path] = nil
        case (.integer(let path), .null): pass[keyPath: path] = nil
        case (.string(let path), .string(let string)): pass[keyPath: path] = string
        case (.bool(let path), .bool(let bool)): pass[keyPath: path] = bool
        case (.integer(let path), .integer(let integer)): pass[keyPath: path] = integer
        default: return false
        }
        return true
    }
}

extension PassTemplate {
    /// Applies a data document to the typed ``pass`` without any JSON coding, or returns `nil` when
    /// the document needs the general path (an override that is not a scalar of its own type, or a
    /// field number that might not survive a JSON round trip unchanged).
    ///
    /// Checks run in the general path's order with the same messages, so both throw the same error.
    func typedPass(applying data: PassData) throws -> Pass? {
        var pass = self.pass
        for (key, value) in data.overrides where !PassData.barcodeKeys.contains(key) {
            guard let override = ScalarOverride.byKey[key], override.apply(value, to: &pass) else { return nil }
        }
        if let barcodeText = try BarcodeText(overrides: data.overrides) {
            try apply(barcodeText, to: &pass)
        }
        guard !data.fields.isEmpty else { return pass }
        try checkKnown(fields: data.fields, index: fieldIndex)
        var needsGeneralPath = false
        for (key, value) in data.fields {
            let locations = try Self.checkField(key: key, value: value, index: fieldIndex)
            guard let fieldValue = Self.exactFieldValue(value) else {
                needsGeneralPath = true
                continue
            }
            for location in locations {
                pass[keyPath: location.stylePath]?[keyPath: location.groupPath]?[location.index].value = fieldValue
                // Wallet shows `attributedValue` in place of `value`: the template's would hide the pass's own.
                pass[keyPath: location.stylePath]?[keyPath: location.groupPath]?[location.index].attributedValue = nil
            }
        }
        return needsGeneralPath ? nil : pass
    }

    private func apply(_ text: BarcodeText, to pass: inout Pass) throws {
        var found = false
        if let count = pass.barcodes?.count, count > 0 {
            for position in 0..<count {
                let barcode = pass.barcodes![position]
                (pass.barcodes![position].message, pass.barcodes![position].altText) =
                    text.applied(message: barcode.message, altText: barcode.altText)
            }
            found = true
        }
        if let barcode = pass.barcode {
            (pass.barcode!.message, pass.barcode!.altText) = text.applied(message: barcode.message, altText: barcode.altText)
            found = true
        }
        guard found else { throw noBarcodesError(text) }
    }

    /// The field value that decoding the JSON text written for `value` gives, or `nil` when that is
    /// not certain (a huge, negative-zero or non-finite number): those take the general path.
    ///
    /// `JSONEncoder` writes a whole `Double` without a fraction and the decoder reads it back as an
    /// integer, so `7.0` becomes ``PassFieldValue/integer(_:)`` as it does through JSON.
    static func exactFieldValue(_ value: JSONValue) -> PassFieldValue? {
        switch value {
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .number(let number):
            guard number.isFinite, number != 0 || number.sign == .plus else { return nil }
            guard number.rounded(.towardZero) == number else { return .number(number) }
            return abs(number) < 0x1p53 ? .integer(Int(number)) : nil
        default: return nil
        }
    }
}
