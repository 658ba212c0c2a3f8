import Foundation
import PassModel
import Testing

/// `PassTemplate.pass(applying:)` sets values on the typed pass without JSON coding; it must give exactly
/// what decoding `passJSON(applying:)` gives, for results and for errors.
@Suite("Typed data application")
struct TypedApplyingTests {
    /// Every `String?` top-level key; each is overridden in one document below.
    static let stringKeys = [
        "description", "organizationName", "passTypeIdentifier", "serialNumber", "teamIdentifier", "appLaunchURL",
        "expirationDate", "relevantDate", "backgroundColor", "foregroundColor", "labelColor", "stripColor",
        "groupingIdentifier", "logoText", "webServiceURL", "authenticationToken", "eventLogoText",
        "footerBackgroundColor", "bagPolicyURL", "orderFoodURL", "parkingInformationURL", "directionsInformationURL",
        "purchaseParkingURL", "merchandiseURL", "transitInformationURL", "accessibilityURL", "addOnURL",
        "contactVenueEmail", "contactVenuePhoneNumber", "contactVenueWebsite", "transferURL", "sellURL",
        "changeSeatURL", "entertainmentURL", "purchaseAdditionalBaggageURL", "purchaseLoungeAccessURL", "purchaseWifiURL",
        "upgradeURL", "managementURL", "registerServiceAnimalURL", "reportLostBagURL", "requestWheelchairURL",
        "transitProviderEmail", "transitProviderPhoneNumber", "transitProviderWebsiteURL", "logoSymbolName",
    ]
    static let boolKeys = ["voided", "suppressStripShine", "sharingProhibited", "useAutomaticColors", "suppressHeaderDarkening"]

    /// The fixture templates, one per style, plus the repository's templates that have a `pass.json`.
    static func templates() throws -> [PassTemplate] {
        var templates = try TypedFixtures.templates.map { name, json in
            try PassTemplate(name: name, passJSON: Fixtures.data(json))
        }
        for name in TemplateFolderTests.names {
            let folder = TemplateFolderTests.templatesRoot.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("pass.json").path) else { continue }
            templates.append(try PassTemplate(directory: folder))
        }
        return templates
    }

    /// Field keys of a template: all of them, and those holding dates.
    static func fieldKeys(_ template: PassTemplate) -> (all: [String], dates: [String]) {
        let fields = PassStyle.allCases.compactMap { template.pass[style: $0] }.flatMap(\.allFields)
        let isDate = { (style: PassDateStyle?) in style != nil && style != PassDateStyle.none }
        let dates = fields.filter { isDate($0.dateStyle) || isDate($0.timeStyle) }.compactMap(\.key)
        return (Array(Set(fields.compactMap(\.key))).sorted(), Array(Set(dates)).sorted())
    }

    /// Data documents covering the fast path, every fallback and every error.
    static func documents(for template: PassTemplate) -> [PassData] {
        let (keys, dates) = fieldKeys(template)
        let plain = keys.filter { !dates.contains($0) }
        var someFields: [String: JSONValue] = [:]
        for (position, key) in keys.prefix(3).enumerated() {
            someFields[key] = dates.contains(key) ? .string("2026-06-0\(position + 1)T20:00+02:00") : .string("value \(position)")
        }
        var numbers: [JSONValue] = [7, 7.0, 2.5, -3, -0.0, 1e20, 0.1, -12.75, 4_503_599_627_370_497, 1e-300]
        numbers.append(.number(.nan))
        numbers.append(.number(.infinity))
        var documents: [PassData] = [
            PassData(),
            PassData(
                overrides: ["serialNumber": "S-1", "barcodeMessage": "S-1:abc", "authenticationToken": "0123456789abcdef01"],
                fields: someFields
            ),
            PassData(overrides: Dictionary(uniqueKeysWithValues: stringKeys.map { ($0, .string("new \($0)")) })),
            PassData(overrides: Dictionary(uniqueKeysWithValues: boolKeys.enumerated().map { ($1, .bool($0 % 2 == 0)) })),
            PassData(overrides: Dictionary(uniqueKeysWithValues: (stringKeys + boolKeys).map { ($0, .null) })),
            PassData(overrides: ["formatVersion": 2, "voided": false, "logoText": "é ✓ \u{0} \"quoted\" /slash"]),
            PassData(overrides: ["formatVersion": nil, "serialNumber": nil, "barcodes": nil]),
            PassData(overrides: ["formatVersion": 1.0]),
            PassData(overrides: ["serialNumber": 12]),
            PassData(overrides: ["voided": "yes"]),
            PassData(overrides: ["formatVersion": "1"]),
            PassData(overrides: ["formatVersion": 1.5]),
            PassData(overrides: ["serialNumber": "S-2", "barcodeMessage": 5]),
            PassData(overrides: ["barcodeMessage": nil]),
            PassData(overrides: ["barcodeMessage": "only"]),
            PassData(overrides: ["barcodes": [["format": "PKBarcodeFormatQR", "message": "m", "messageEncoding": "utf-8"]]]),
            PassData(
                overrides: ["barcodes": [["format": "PKBarcodeFormatQR", "message": "m"]], "barcodeMessage": "b"],
                fields: someFields
            ),
            PassData(overrides: ["barcodes": [["format": 1]]]),
            PassData(overrides: ["locations": [["latitude": 1.5, "longitude": 2]], "serialNumber": "S-3"]),
            PassData(overrides: ["semantics": ["eventName": "Show"], "userInfo": ["a": [1, 2]]]),
            PassData(overrides: ["customKey": "x", "serialNumber": "S-4"], fields: someFields),
            PassData(overrides: ["fields": "not fields"]),
            PassData(overrides: ["maxDistance": 50]),
            PassData(overrides: ["generic": ["primaryFields": [["key": "name", "value": "?"]]]], fields: ["name": "Ada"]),
            PassData(fields: ["no-such-field": "x"]),
            PassData(fields: ["no-such-field": "x", "another": 1, "zzz": true]),
            PassData(overrides: ["barcodeMessage": 1], fields: ["no-such-field": "x"]),
            PassData(overrides: ["serialNumber": 1], fields: ["no-such-field": "x"]),
        ]
        if let key = plain.first {
            for number in numbers { documents.append(PassData(fields: [key: number])) }
            for bad: JSONValue in [true, nil, ["a"], ["k": "v"]] { documents.append(PassData(fields: [key: bad])) }
            if let other = keys.last(where: { $0 != key }) {
                documents.append(PassData(fields: [key: ["a"], other: true]))
                documents.append(PassData(overrides: ["serialNumber": "S-5"], fields: [key: .number(.nan), other: true]))
            }
        }
        if let date = dates.first {
            for value: JSONValue in ["2026-05-07T19:00-05:00", "tomorrow", 5, 5.5, "2026-05-07"] {
                documents.append(PassData(overrides: ["barcodeMessage": "d"], fields: [date: value]))
            }
        }
        return documents
    }

    @Test func typedApplicationEqualsDecodingTheMergedJSON() throws {
        var compared = 0
        var typedErrors = 0
        for template in try Self.templates() {
            for data in Self.documents(for: template) {
                let typed = Result { try template.pass(applying: data) }
                let decoded = Result { try Pass(jsonData: template.passJSON(applying: data)) }
                switch (typed, decoded) {
                case (.success(let typedPass), .success(let decodedPass)):
                    #expect(typedPass == decodedPass, "\(template.name): \(data)")
                case (.failure(let typedError), .failure(let decodedError)):
                    let typedError = typedError as? PassModelError
                    let decodedError = decodedError as? PassModelError
                    #expect(typedError != nil && typedError == decodedError, "\(template.name): \(data)")
                    typedErrors += 1
                default:
                    Issue.record("\(template.name): \(data): typed \(typed), decoded \(decoded)")
                }
                compared += 1
            }
        }
        #expect(compared > 200)
        #expect(typedErrors > 50)
    }

    @Test func fastPathSetsFieldsAndBarcodes() throws {
        let template = try PassTemplate(name: "boarding", passJSON: Fixtures.data(TypedFixtures.boardingPass))
        let pass = try template.pass(
            applying: PassData(
                overrides: ["serialNumber": "B-9", "barcodeMessage": "B-9:x", "voided": true, "formatVersion": 1],
                fields: ["gate": 12, "seat": "3F", "fare": 7.0, "boards": "2026-05-07T18:30Z"]
            )
        )
        #expect(pass.serialNumber == "B-9")
        #expect(pass.voided == true)
        #expect(pass.barcodes?.map(\.message) == ["B-9:x", "B-9:x"])
        #expect(pass.barcode?.message == "B-9:x")
        #expect(pass.boardingPass?.headerFields?.first?.value == .integer(12))
        #expect(pass.boardingPass?.backFields?.last?.value == .integer(12))
        #expect(pass.boardingPass?.secondaryFields?.first?.value == .string("3F"))
        #expect(pass.boardingPass?.auxiliaryFields?.first?.value == .integer(7))
        #expect(pass.boardingPass?.primaryFields?.last?.value == .string("2026-05-07T18:30Z"))
        #expect(template.pass.serialNumber == "B-0001")
        #expect(template.pass.boardingPass?.headerFields?.first?.value == .string("A1"))
    }
}
