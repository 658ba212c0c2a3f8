import Foundation
import PassModel
import Testing

@Suite("PassValidator: pass.json")
struct PassValidatorTests {
    @Test func minimalPassIsValid() {
        let report = Fixtures.validate(Fixtures.eventTicket)
        #expect(report.issues.isEmpty, "\(report.issues)")
        #expect(report.isValid)
    }

    @Test func issueDescription() {
        let issue = ValidationIssue(severity: .error, path: "serialNumber", message: "must not be empty")
        #expect(issue.description == "error: serialNumber: must not be empty")
    }

    @Test func invalidJSONIsOneError() {
        let report = PassValidator().validate(passJSON: Data("{\"a\":".utf8), files: Fixtures.iconFiles)
        #expect(report.has(.error, "pass.json", "not valid JSON: line 1"))
    }

    @Test func typeErrorsAreReportedAndValidationContinues() {
        var json = Fixtures.eventTicket
        json["serialNumber"] = 42
        json.set(["eventTicket", "primaryFields", 0, "label"], to: true)
        json["webServiceURL"] = "ftp://example.com"
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "serialNumber", "expected a string, found number"))
        #expect(report.has(.error, "eventTicket.primaryFields[0].label", "expected a string, found boolean"))
        #expect(report.has(.error, "webServiceURL", "https"))
        #expect(!report.has(.error, "serialNumber", "required key is missing"))
    }

    @Test func requiredKeys() {
        for key in ["description", "formatVersion", "organizationName", "passTypeIdentifier", "serialNumber",
            "teamIdentifier"]
        {
            let report = Fixtures.validate(Fixtures.eventTicket.setting([key], to: nil))
            #expect(report.has(.error, key, "required key is missing"), "\(key)")
        }
        #expect(Fixtures.validate(Fixtures.eventTicket.setting(["serialNumber"], to: "")).has(.error, "serialNumber", "must not be empty"))
        let emptyType = Fixtures.validate(Fixtures.eventTicket.setting(["passTypeIdentifier"], to: ""))
        #expect(emptyType.has(.error, "passTypeIdentifier", "must not be empty"))
        #expect(Fixtures.validate(Fixtures.eventTicket.setting(["formatVersion"], to: 2)).has(.error, "formatVersion", "must be 1"))
        #expect(Fixtures.validate(Fixtures.eventTicket.setting(["teamIdentifier"], to: "abc")).has(.warning, "teamIdentifier", "10"))
    }

    @Test func exactlyOneStyle() {
        let none = Fixtures.validate(Fixtures.eventTicket.setting(["eventTicket"], to: nil))
        #expect(none.has(.error, "pass.json", "exactly one style key"))
        let two = Fixtures.validate(Fixtures.eventTicket.setting(["generic"], to: [:]))
        #expect(two.has(.error, "pass.json", "found generic, eventTicket") || two.has(.error, "pass.json", "eventTicket, generic"))
    }

    @Test func uniqueFieldKeys() {
        let json = Fixtures.eventTicket.setting(["eventTicket", "backFields", 0, "key"], to: "seat")
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "eventTicket.backFields[0].key", "duplicate field key \"seat\", also used at eventTicket.secondaryFields[0]"))
    }

    @Test func fieldRequirements() {
        var json = Fixtures.eventTicket
        json.set(["eventTicket", "primaryFields", 0, "key"], to: nil)
        json.set(["eventTicket", "secondaryFields", 0, "value"], to: nil)
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "eventTicket.primaryFields[0].key", "required key is missing"))
        #expect(report.has(.error, "eventTicket.secondaryFields[0].value", "required key is missing"))
    }

    @Test func fieldCountsAreWarnings() {
        let field: (String) -> JSONValue = { ["key": .string($0), "value": "x"] }
        var json = Fixtures.eventTicket
        json.set(["eventTicket", "headerFields"], to: .array((1...4).map { field("h\($0)") }))
        json.set(["eventTicket", "primaryFields"], to: .array((1...2).map { field("p\($0)") }))
        json.set(["eventTicket", "auxiliaryFields"], to: .array((1...5).map { field("a\($0)") }))
        let report = Fixtures.validate(json)
        #expect(report.has(.warning, "eventTicket.headerFields", "at most 3 headerFields; found 4"))
        #expect(report.has(.warning, "eventTicket.primaryFields", "at most 1 primaryFields; found 2"))
        #expect(report.has(.warning, "eventTicket.auxiliaryFields", "at most 4 auxiliaryFields per row (row 0); found 5"))
        #expect(report.isValid)

        var boarding = Fixtures.eventTicket
        boarding["boardingPass"] = [
            "transitType": "PKTransitTypeAir", "primaryFields": .array((1...2).map { field("p\($0)") }),
        ]
        boarding["eventTicket"] = nil
        #expect(Fixtures.validate(boarding).issues.isEmpty)

        var coupon = Fixtures.eventTicket
        coupon["coupon"] = [
            "secondaryFields": .array((1...3).map { field("s\($0)") }),
            "auxiliaryFields": .array((1...2).map { field("a\($0)") }),
        ]
        coupon["eventTicket"] = nil
        #expect(Fixtures.validate(coupon).has(.warning, "coupon.auxiliaryFields", "square barcode"))
    }

    @Test func changeMessageNeedsPlaceholder() {
        let json = Fixtures.eventTicket.setting(["eventTicket", "primaryFields", 0, "changeMessage"], to: "Changed")
        #expect(Fixtures.validate(json).has(.warning, "eventTicket.primaryFields[0].changeMessage", "must contain %@ where the new value goes"))
        let good = Fixtures.eventTicket.setting(["eventTicket", "primaryFields", 0, "changeMessage"], to: "Now %@")
        #expect(Fixtures.validate(good).issues.isEmpty)
        // A poster pass's own fields too (iOS 26 and later show them).
        let poster = PassModelAdditionsTests.posterGeneric.setting(["posterGeneric", "headerFields", 0, "changeMessage"], to: "New")
        #expect(Fixtures.validate(poster).has(.warning, "posterGeneric.headerFields[0].changeMessage", "must contain %@"))
    }

    @Test func localizedChangeMessageIsCheckedInEveryLanguage() {
        let json = Fixtures.eventTicket.setting(["eventTicket", "primaryFields", 0, "changeMessage"], to: "SEAT_CHANGED")
        var files = Fixtures.iconFiles
        files["en.lproj/pass.strings"] = Data(#""SEAT_CHANGED" = "Your seat is now %@";"#.utf8)
        files["fr.lproj/pass.strings"] = Data(#""SEAT_CHANGED" = "Nouvelle place";"#.utf8)
        let report = Fixtures.validate(json, files: files)
        #expect(report.has(.warning, "fr.lproj/pass.strings", "\"SEAT_CHANGED\" (the changeMessage of eventTicket.primaryFields[0].changeMessage) must contain %@"))
        #expect(!report.issues.contains { $0.path == "en.lproj/pass.strings" || $0.path.hasSuffix(".changeMessage") })
    }

    @Test func enumerationValues() {
        var json = Fixtures.eventTicket
        json.set(["barcodes", 0, "format"], to: "PKBarcodeFormatQRCode")
        json.set(["barcodes", 0, "messageEncoding"], to: "UTF8")
        json.set(["eventTicket", "auxiliaryFields", 0, "dateStyle"], to: "short")
        json.set(["eventTicket", "primaryFields", 0, "textAlignment"], to: "PKTextAlignmentMiddle")
        json.set(["eventTicket", "secondaryFields", 1, "numberStyle"], to: "PKNumberStyleRoman")
        json.set(["eventTicket", "backFields", 0, "dataDetectorTypes"], to: ["PKDataDetectorTypeEmail"])
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "barcodes[0].format", "unknown value \"PKBarcodeFormatQRCode\", expected one of PKBarcodeFormatQR"))
        #expect(report.has(.error, "barcodes[0].messageEncoding", "IANA"))
        #expect(report.has(.warning, "eventTicket.auxiliaryFields[0].dateStyle", "expected one of PKDateStyleNone"))
        #expect(report.has(.warning, "eventTicket.primaryFields[0].textAlignment", "PKTextAlignmentNatural"))
        // Wallet aligns primary and back fields itself (a known value there is still not used).
        #expect(report.has(.warning, "eventTicket.primaryFields[0].textAlignment", "not used on primaryFields"))
        var aligned = Fixtures.eventTicket
        aligned.set(["eventTicket", "backFields", 0, "textAlignment"], to: "PKTextAlignmentRight")
        aligned.set(["eventTicket", "secondaryFields", 0, "textAlignment"], to: "PKTextAlignmentRight")
        let alignedReport = Fixtures.validate(aligned)
        #expect(alignedReport.has(.warning, "eventTicket.backFields[0].textAlignment", "not used on backFields"))
        #expect(alignedReport.issues(at: "eventTicket.secondaryFields[0].textAlignment").isEmpty)
        #expect(report.has(.warning, "eventTicket.secondaryFields[1].numberStyle", "PKNumberStyleSpellOut"))
        #expect(report.has(.warning, "eventTicket.backFields[0].dataDetectorTypes[0]", "PKDataDetectorTypeCalendarEvent"))
    }

    @Test func transitType() {
        var json = Fixtures.eventTicket
        json["boardingPass"] = json["eventTicket"]
        json["eventTicket"] = nil
        #expect(Fixtures.validate(json).has(.error, "boardingPass.transitType", "required for boarding passes"))
        json.set(["boardingPass", "transitType"], to: "PKTransitTypePlane")
        #expect(Fixtures.validate(json).has(.error, "boardingPass.transitType", "expected one of PKTransitTypeAir"))
    }

    @Test func barcodeRequirements() {
        var json = Fixtures.eventTicket
        json.set(["barcodes", 0, "message"], to: nil)
        json.set(["barcodes", 0, "messageEncoding"], to: nil)
        json["barcode"] = ["format": "PKBarcodeFormatPDF417", "message": "x", "messageEncoding": "iso-8859-1"]
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "barcodes[0].message", "required"))
        #expect(report.has(.error, "barcodes[0].messageEncoding", "required"))
        #expect(report.issues(at: "barcode").isEmpty)
    }

    @Test func dates() {
        var json = Fixtures.eventTicket
        json["relevantDate"] = "2026-05-07T10:30+0000"
        json["expirationDate"] = "2026-05-07T10:30"
        json.set(["eventTicket", "auxiliaryFields", 0, "value"], to: "tomorrow")
        json["relevantDates"] = [
            ["startDate": "2026-05-07T10:30Z", "endDate": "2026-05-07T09:00Z"],
            ["startDate": "2026-05-07T10:30Z"],
            [:],
            ["date": "2026-05-07T10:30:00Z"],
        ]
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "relevantDate", "±HH:MM, with a colon"))
        #expect(report.has(.error, "expirationDate", "time zone is missing"))
        #expect(report.has(.error, "eventTicket.auxiliaryFields[0].value", "needs a W3C date"))
        #expect(report.has(.error, "relevantDates[0].endDate", "must be after startDate"))
        #expect(report.has(.error, "relevantDates[1].endDate", "required when startDate is set"))
        #expect(report.has(.error, "relevantDates[2]", "needs date, or startDate and endDate"))
        #expect(report.issues(at: "relevantDates[3].date").isEmpty)
    }

    @Test func colours() {
        var json = Fixtures.eventTicket
        json["foregroundColor"] = "rgb(256, 0, 0)"
        json["labelColor"] = "red"
        json["stripColor"] = "#FF0000"
        json["backgroundColor"] = "rgb(1,2)"
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "foregroundColor", "0 to 255"))
        #expect(report.has(.error, "labelColor", "rgb(r, g, b)"))
        #expect(report.has(.warning, "stripColor", "hex"))
        #expect(report.has(.error, "backgroundColor", "three components"))
    }

    @Test func locationsAndBeacons() {
        var json = Fixtures.eventTicket
        json["locations"] = .array(
            [["latitude": 91, "longitude": 0], ["longitude": -181.5]]
                + Array(repeating: ["latitude": 1, "longitude": 1], count: 9))
        json["beacons"] = .array(
            [["proximityUUID": "not-a-uuid", "major": 70000]]
                + Array(repeating: ["proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"], count: 10))
        json["maxDistance"] = 0
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "locations", "at most 10 locations are allowed, found 11"))
        #expect(report.has(.error, "locations[0].latitude", "-90 to 90"))
        #expect(report.has(.error, "locations[1].latitude", "required"))
        #expect(report.has(.error, "locations[1].longitude", "-180 to 180"))
        #expect(report.has(.error, "beacons", "at most 10 beacons"))
        #expect(report.has(.error, "beacons[0].proximityUUID", "UUID"))
        #expect(report.has(.error, "beacons[0].major", "0 to 65535"))
        #expect(report.has(.error, "maxDistance", "positive"))
    }

    @Test func webService() {
        let token = "0123456789abcdef"
        func check(_ url: String?, _ token: String?) -> ValidationReport {
            Fixtures.validate(
                Fixtures.eventTicket.setting(["webServiceURL"], to: url.map { .string($0) })
                    .setting(["authenticationToken"], to: token.map { .string($0) }))
        }
        #expect(check("https://passes.example.com/wallet", token).issues.isEmpty)
        #expect(check("http://passes.example.com", token).has(.error, "webServiceURL", "https"))
        #expect(check("http://127.0.0.1:8080", token).has(.warning, "webServiceURL", "development only"))
        #expect(check("http://localhost:8080", token).isValid)
        #expect(check("https://passes.example.com/v1", token).has(.error, "webServiceURL", "must not end with /v1"))
        #expect(check("https://passes.example.com/v1/", token).has(.error, "webServiceURL", "/v1"))
        #expect(check("https://passes.example.com", nil).has(.error, "authenticationToken", "required when webServiceURL"))
        #expect(check("https://passes.example.com", "short").has(.error, "authenticationToken", "at least 16"))
        #expect(check(nil, token).has(.warning, "authenticationToken", "needs webServiceURL"))
    }

    @Test func appLaunchAndStoreIdentifiers() {
        let json = Fixtures.eventTicket.setting(["appLaunchURL"], to: "example://open")
        #expect(Fixtures.validate(json).has(.warning, "appLaunchURL", "associatedStoreIdentifiers"))
        let negative = json.setting(["associatedStoreIdentifiers"], to: [123, -4])
        let report = Fixtures.validate(negative)
        #expect(report.has(.error, "associatedStoreIdentifiers[1]", "positive"))
        #expect(report.issues(at: "appLaunchURL").isEmpty)
    }

    @Test func nfc() {
        let report = Fixtures.validate(Fixtures.eventTicket.setting(["nfc"], to: ["requiresAuthentication": true]))
        #expect(report.has(.error, "nfc.message", "required"))
        #expect(report.has(.error, "nfc.encryptionPublicKey", "required"))
        #expect(report.has(.warning, "nfc", "NFC entitlement"))
    }

    /// Apple: a Base64 X.509 SubjectPublicKeyInfo of an ECDH P-256 key. Keys of other kinds (made here with OpenSSL's
    /// DER layout) or any other Base64 would make a pass whose NFC never works at a terminal.
    @Test(arguments: [
        ("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE/VYXFwZ0sGrnL0oIDDwoVIVC5hOnivd5qaMKsE3AH6vTGyKEJk8PaMXMQxPb/RKB0VvWGSqnRbFhqlkD+yLw9g==", true),
        ("MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACp0l4qKJnWbUAkuUu8Qa8kHr8CBQMhNLe5lYX9PUVJfs=", true),  // compressed
        ("aGVsbG8gd29ybGQ=", false),  // "hello world"
        ("MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=", false),  // Ed25519
        ("MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEAAAA", false),  // P-384 (cut short)
        ("AAAA", false),
    ])
    func nfcKeyIsAP256SubjectPublicKeyInfo(key: String, valid: Bool) {
        let json = Fixtures.eventTicket.setting(["nfc"], to: ["message": "M", "encryptionPublicKey": .string(key)])
        let report = Fixtures.validate(json)
        #expect(report.has(.error, "nfc.encryptionPublicKey", "EC P-256 public key") != valid, "\(report.issues)")
    }

    @Test func unknownKeysAreWarnings() {
        var json = Fixtures.eventTicket
        json["futureKey"] = 1
        json["eventticket"] = [:]
        json["upgradeURL"] = "https://example.com/upgrade"
        json.set(["eventTicket", "primaryFields", 0, "lable"], to: "x")
        let report = Fixtures.validate(json)
        #expect(report.has(.warning, "futureKey", "unknown key, kept as is"))
        #expect(report.has(.warning, "eventticket", "case-sensitive"))
        #expect(report.has(.warning, "eventTicket.primaryFields[0].lable", "unknown key"))
        #expect(report.issues(at: "upgradeURL").isEmpty)
        #expect(report.isValid)
    }

    @Test func validateDecodedPass() throws {
        var pass = try Pass(jsonData: Fixtures.data(Fixtures.eventTicket))
        pass.serialNumber = ""
        let report = PassValidator().validate(pass: pass, files: Fixtures.iconFiles)
        #expect(report.errors.map(\.path) == ["serialNumber"])
        #expect(report.warnings.isEmpty)
    }
}
